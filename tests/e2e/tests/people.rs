//! Issue 12's people path in Chromium against the real server: sign in with e-mail and
//! password; switch to dark in the user menu and screenshot each list page; invite a user
//! from the Users page, open the link in a fresh session, set the password and land
//! signed in as them; deactivate them from the admin's session and see their next
//! request refused (back on sign-in with a clear message), and their password refused.
//! Screenshots of the changed pages light and dark at 1280 and 1024 px.

use kontor_e2e::{Browser, Server};

const ADMIN_PASSWORD: &str = "Kupfer-Laterne-Hafen-1987";
const INVITEE_PASSWORD: &str = "Mondlicht über Altona 42";

/// Both themes, forced with `data-theme` and restored to `restore` afterwards.
async fn both_themes(b: &Browser, name: &str, restore: &str) {
    for theme in ["light", "dark"] {
        set_theme_attr(b, theme).await;
        b.two_width_screenshots(name, theme).await;
    }
    set_theme_attr(b, restore).await;
}

async fn set_theme_attr(b: &Browser, theme: &str) {
    b.client
        .execute(
            "if (arguments[0] === 'system') delete document.documentElement.dataset.theme; else document.documentElement.dataset.theme = arguments[0];",
            vec![theme.into()],
        )
        .await
        .expect("theme");
}

async fn wait_dashboard(b: &Browser) {
    b.wait_js(
        "return location.pathname.endsWith('/dashboard') && document.querySelector('.page-head h1')?.textContent.trim() === 'Dashboard';",
        vec![],
    )
    .await;
}

async fn open_nav(b: &Browser, path: &str, heading: &str) {
    b.click(&format!(".sidenav a[href$='{path}']")).await;
    b.wait_js(
        "return document.querySelector('.page-head h1')?.textContent.trim() === arguments[0];",
        vec![heading.into()],
    )
    .await;
}

#[tokio::test(flavor = "multi_thread")]
async fn sign_in_go_dark_invite_a_user_and_deactivate_them() {
    let (server, customer) = Server::with_customer("Hafen Logistik GmbH").await;
    server.invoice(customer, "Storage November").await;
    let b = Browser::start().await;

    // The sign-in page before anyone exists: it links to the first-run page.
    b.client
        .goto(&format!("{}/sign-in", server.base))
        .await
        .unwrap();
    b.find("#setup-note").await;
    both_themes(&b, "people-sign-in-setup-note", "system").await;
    b.click("#setup-note a").await;
    b.wait_text("Create the first administrator").await;
    both_themes(&b, "people-setup", "system").await;

    server
        .user("ada@kontor.test", "Ada", "Admin", "admin", ADMIN_PASSWORD)
        .await;

    // A wrong password: the server's one message.
    b.submit_sign_in(&server.base, "ada@kontor.test", "wrong password here")
        .await;
    b.wait_text("E-mail or password is wrong.").await;
    both_themes(&b, "people-sign-in-error", "system").await;
    b.click("#another-server").await;
    b.find("#server").await;
    assert_eq!(b.prop("#server", "value").await, server.base);

    b.submit_sign_in(&server.base, "ADA@kontor.test", ADMIN_PASSWORD)
        .await;
    wait_dashboard(&b).await;
    b.wait_text_of("#user-menu-button .topbar-key", "Ada Admin")
        .await;
    assert!(b.body_text().await.contains("Users"), "admins see Users");

    // The user menu: dark at once, stored with the user.
    b.click("#user-menu-button").await;
    b.find(".user-menu-panel").await;
    both_themes(&b, "people-user-menu", "system").await;
    b.click("#theme-dark").await;
    b.wait_js(
        "return document.documentElement.dataset.theme === 'dark';",
        vec![],
    )
    .await;
    let users = server.get("/users").await;
    let ada = users
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["email"] == "ada@kontor.test")
        .expect("ada listed");
    assert_eq!(ada["theme"], "dark", "the theme is stored with the user");
    b.click(".user-menu-backdrop").await;
    // Every list page in dark.
    for (path, heading, name) in [
        ("/dashboard", "Dashboard", "dashboard"),
        ("/invoices", "Invoices", "invoices"),
        ("/offers", "Offers", "offers"),
        ("/purchases", "Purchases", "purchases"),
        ("/customers", "Customers", "customers"),
        ("/suppliers", "Suppliers", "suppliers"),
    ] {
        open_nav(&b, path, heading).await;
        b.two_width_screenshots(&format!("people-dark-{name}"), "dark")
            .await;
    }
    // The theme survives a reload (applied before the first paint from localStorage).
    b.client.refresh().await.unwrap();
    b.wait_js(
        "return document.documentElement.dataset.theme === 'dark';",
        vec![],
    )
    .await;

    // Invite a user from the Users page.
    open_nav(&b, "/settings/users", "Users").await;
    b.wait_text("ada@kontor.test").await;
    b.click("#invite-user").await;
    b.fill_person("invite", "bea@kontor.test", "Bea", "Buchhalter")
        .await;
    b.select("#invite-role", "staff").await;
    b.click("#invite-save").await;
    b.find("#invitation-url").await;
    let link = b.prop("#invitation-url", "value").await;
    assert!(link.contains("token="), "a password link: {link}");
    assert!(b.body_text().await.contains("not e-mailed"), "no SMTP here");
    both_themes(&b, "people-invitation", "dark").await;
    b.click_in_dialog("Done").await;
    b.wait_text("Buchhalter").await;
    both_themes(&b, "people-users", "dark").await;
    open_nav(&b, "/settings/api_keys", "API keys").await;
    b.wait_text("Sign-in").await;
    both_themes(&b, "people-api-keys", "dark").await;

    // A fresh session opens the link, sets the password and is signed in.
    let c = Browser::start().await;
    c.client.goto(&link).await.unwrap();
    c.find("#new-password").await;
    both_themes(&c, "people-set-password", "system").await;
    c.fill("#new-password", INVITEE_PASSWORD).await;
    c.fill("#repeat-password", INVITEE_PASSWORD).await;
    c.click("form button[type=submit]").await;
    wait_dashboard(&c).await;
    c.wait_text_of("#user-menu-button .topbar-key", "Bea Buchhalter")
        .await;
    assert!(
        !c.body_text().await.contains("API keys"),
        "staff do not see the admin pages"
    );
    // The link works once.
    let d = Browser::start().await;
    d.client.goto(&link).await.unwrap();
    d.find("#new-password").await;
    d.fill("#new-password", INVITEE_PASSWORD).await;
    d.fill("#repeat-password", INVITEE_PASSWORD).await;
    d.click("form button[type=submit]").await;
    d.find("#token-error").await;
    d.close().await;

    // The admin deactivates her.
    open_nav(&b, "/settings/users", "Users").await;
    b.wait_text("Buchhalter").await;
    let users = server.get("/users").await;
    let bea = users
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["email"] == "bea@kontor.test")
        .expect("bea listed")["id"]
        .as_i64()
        .unwrap();
    b.click(&format!("tr[data-user='{bea}'] [data-action=deactivate]"))
        .await;
    b.find("#confirm-deactivate").await;
    b.click("#confirm-deactivate").await;
    b.wait_text("Deactivated").await;

    // Her next request is refused: back on sign-in with a clear message.
    c.click(".sidenav a[href$='/invoices']").await;
    c.wait_js("return location.pathname.endsWith('/sign-in');", vec![])
        .await;
    c.wait_text("Your session has ended. Please sign in again.")
        .await;
    c.submit_sign_in(&server.base, "bea@kontor.test", INVITEE_PASSWORD)
        .await;
    c.wait_text("E-mail or password is wrong.").await;
    c.close().await;

    // Sign out ends the admin's session key.
    b.click("#user-menu-button").await;
    b.click("#sign-out").await;
    b.wait_js(
        "return location.pathname.endsWith('/sign-in') && !localStorage.getItem('kontor.key');",
        vec![],
    )
    .await;
    b.close().await;
}
