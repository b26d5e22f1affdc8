//! Issue 33 § Forgotten passwords in Chromium against the real server and a real SMTP
//! server (aiosmtpd): "Forgot your password?" on the sign-in page, the e-mail address typed,
//! the same "if it belongs to a user" answer, the link taken from the received e-mail, a new
//! password chosen, signed in as that user; the old password and the old session no longer
//! work. German and English, light and dark, at 1280 and 1024 px.

use kontor_e2e::{Browser, Server, SmtpServer};

const OLD_PASSWORD: &str = "Kupfer-Laterne-Hafen-1987";
const NEW_PASSWORD: &str = "Leuchtturm über Föhr 2026";

/// Light and dark at 1280 and 1024 px.
async fn shots(b: &Browser, name: &str) {
    for theme in ["light", "dark"] {
        b.set_theme(theme).await;
        b.two_width_screenshots(name, theme).await;
    }
    b.unset_theme().await;
}

/// The reset link in a raw message (quoted-printable soft breaks and `=3D` undone).
fn reset_link(message: &str) -> String {
    let text = message
        .replace("=\r\n", "")
        .replace("=\n", "")
        .replace("=3D", "=");
    let at = text.find("http://").expect("a link in the message");
    text[at..]
        .split_whitespace()
        .next()
        .expect("link")
        .to_string()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_forgotten_password_is_reset_from_the_sign_in_page_with_the_emailed_link() {
    let mail = SmtpServer::start().await;
    let server = Server::start_with_smtp(&mail).await;
    server
        .user(
            "frieda@kontor.test",
            "Frieda",
            "Falk",
            "staff",
            OLD_PASSWORD,
        )
        .await;

    // Signed in somewhere else with the old password: that session ends with the reset.
    let elsewhere = Browser::start().await;
    elsewhere
        .sign_in_with_password(&server.base, "frieda@kontor.test", OLD_PASSWORD)
        .await;

    let b = Browser::start().await;
    // German first: the link on the sign-in page and the page it opens.
    b.client
        .goto(&format!("{}/sign-in", server.base))
        .await
        .unwrap();
    b.client
        .execute("localStorage.setItem('kontor.language', 'de');", vec![])
        .await
        .unwrap();
    b.client.refresh().await.unwrap();
    b.wait_text_of("#forgot-password", "Passwort vergessen?")
        .await;
    b.click("#forgot-password").await;
    b.wait_js(
        "return location.pathname.endsWith('/forgot-password') && document.querySelector('h1')?.textContent.trim() === 'Passwort vergessen?';",
        vec![],
    )
    .await;
    shots(&b, "password-reset-01-request-de").await;
    // An address nobody has gets the same answer as a real one.
    b.fill("#email", "niemand@kontor.test").await;
    b.click("#forgot-submit").await;
    b.find("#forgot-sent").await;
    let unknown = b.body_text().await;
    assert!(
        unknown.contains("Wenn niemand@kontor.test zu einem Benutzer"),
        "{unknown}"
    );
    shots(&b, "password-reset-02-sent-de").await;

    // English, the real address.
    b.client
        .execute("localStorage.setItem('kontor.language', 'en');", vec![])
        .await
        .unwrap();
    b.client.refresh().await.unwrap();
    b.wait_js(
        "return document.querySelector('h1')?.textContent.trim() === 'Forgot your password?';",
        vec![],
    )
    .await;
    shots(&b, "password-reset-01-request-en").await;
    b.fill("#email", "Frieda@Kontor.test").await;
    b.click("#forgot-submit").await;
    b.wait_text("If Frieda@Kontor.test belongs to a user of this Kontor")
        .await;
    shots(&b, "password-reset-02-sent-en").await;

    let message = mail.wait_message("frieda@kontor.test").await;
    assert!(
        !mail
            .messages()
            .iter()
            .any(|m| m.contains("niemand@kontor.test")),
        "no e-mail to an address nobody has"
    );
    let link = reset_link(&message);
    assert!(
        link.starts_with(&format!("{}/set-password?token=", server.base)),
        "{link}"
    );
    assert!(link.ends_with("&reset=1"), "{link}");

    // The link opens the page worded for a new password.
    b.client.goto(&link).await.unwrap();
    b.wait_js(
        "return document.querySelector('h1')?.textContent.trim() === 'Choose a new password';",
        vec![],
    )
    .await;
    shots(&b, "password-reset-03-new-password-en").await;
    b.fill("#new-password", NEW_PASSWORD).await;
    b.fill("#repeat-password", NEW_PASSWORD).await;
    b.click("form button[type=submit]").await;
    b.wait_js(
        "return location.pathname.endsWith('/dashboard') && !!document.querySelector('.page-head h1');",
        vec![],
    )
    .await;
    b.wait_text_of("#user-menu-button .topbar-key", "Frieda Falk")
        .await;
    b.wait_text("Your new password is set. Welcome back, Frieda Falk.")
        .await;

    // The other session has ended.
    elsewhere.click(".sidenav a[href$='/invoices']").await;
    elsewhere
        .wait_js("return location.pathname.endsWith('/sign-in');", vec![])
        .await;
    // The old password no longer signs in; the new one does.
    elsewhere
        .submit_sign_in(&server.base, "frieda@kontor.test", OLD_PASSWORD)
        .await;
    elsewhere.wait_text("E-mail or password is wrong.").await;
    elsewhere
        .sign_in_with_password(&server.base, "frieda@kontor.test", NEW_PASSWORD)
        .await;
    elsewhere.close().await;

    // The link works once; in German the page says so.
    let c = Browser::start().await;
    c.client.goto(&link).await.unwrap();
    c.client
        .execute("localStorage.setItem('kontor.language', 'de');", vec![])
        .await
        .unwrap();
    c.client.refresh().await.unwrap();
    c.wait_js(
        "return document.querySelector('h1')?.textContent.trim() === 'Neues Passwort festlegen';",
        vec![],
    )
    .await;
    shots(&c, "password-reset-03-new-password-de").await;
    c.fill("#new-password", "Noch ein ganz anderes Passwort 3")
        .await;
    c.fill("#repeat-password", "Noch ein ganz anderes Passwort 3")
        .await;
    c.click("form button[type=submit]").await;
    c.find("#token-error").await;
    assert!(c
        .body_text()
        .await
        .contains("Der Link ist ungültig oder abgelaufen."));
    c.close().await;
    b.close().await;
}
