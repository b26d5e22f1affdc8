//! Forgotten passwords (issue 33 § Forgotten passwords): `POST /session/password_reset`
//! always answers 202 and e-mails a one-time link (60 minutes) to an active user when SMTP
//! is set up; `POST /session/password_reset/confirm` sets the password and ends every
//! session of that user; requests back off like sign-ins.

mod common;

use common::people::{send_as, set_time_ago, sign_in, sql, user_with_role, PASSWORD};
use common::smtp::{smtp_server, start_sending_to, wait_for_messages};
use common::TestServer;
use reqwest::Method;
use serde_json::json;

const NEW_PASSWORD: &str = "Anker-Wolke-Birne-77";

async fn request(s: &TestServer, email: &str) -> common::Reply {
    send_as(
        s,
        None,
        Method::POST,
        "/session/password_reset",
        Some(json!({ "email": email })),
    )
    .await
}

async fn confirm(s: &TestServer, token: &str, password: &str) -> common::Reply {
    send_as(
        s,
        None,
        Method::POST,
        "/session/password_reset/confirm",
        Some(json!({ "token": token, "password": password })),
    )
    .await
}

/// The token of the reset link in `message` (quoted-printable soft breaks joined).
fn reset_token(s: &TestServer, message: &str) -> String {
    let text = message
        .replace("=\r\n", "")
        .replace("=\n", "")
        .replace("=3D", "=");
    let start = format!("{}/set-password?token=", s.base);
    let at = text
        .find(&start)
        .unwrap_or_else(|| panic!("no reset link in {text}"));
    let rest = &text[at + start.len()..];
    let token: String = rest.chars().take_while(char::is_ascii_hexdigit).collect();
    assert!(
        rest[token.len()..].starts_with("&reset=1"),
        "the link says it is a reset: {rest}"
    );
    assert_eq!(token.len(), 64, "a 256-bit token: {token}");
    token
}

#[tokio::test]
async fn a_forgotten_password_is_reset_with_the_emailed_link_and_old_sessions_end() {
    let mail = smtp_server().await;
    let s = start_sending_to(mail.port).await;
    let (_, old_session) = user_with_role(&s, "lena@example.com", "staff").await;
    let before = wait_for_messages(&mail, 1).await.len();
    assert_eq!(before, 1, "the invitation went out");

    // Any case, with spaces: the same user.
    let asked = request(&s, "  Lena@Example.COM ").await;
    assert_eq!(asked.status, 202, "{}", asked.body);
    let messages = wait_for_messages(&mail, 2).await;
    assert_eq!(messages.len(), 2, "the reset e-mail arrived");
    let message = messages
        .iter()
        .find(|m| m.contains("reset=1") || m.contains("reset=3D1"))
        .expect("the reset e-mail");
    assert!(message.contains("lena@example.com"));
    let token = reset_token(&s, message);

    // A weak password is refused naming the field; the link stays valid.
    let weak = confirm(&s, &token, "short").await;
    assert_eq!(weak.status, 422, "{}", weak.body);
    assert!(weak.body["errors"]["password"].is_array(), "{}", weak.body);

    let done = confirm(&s, &token, NEW_PASSWORD).await;
    assert_eq!(done.status, 200, "{}", done.body);
    assert_eq!(done.body["user"]["email"], "lena@example.com");
    let new_session = done.body["api_key"].as_str().unwrap().to_string();

    // Every earlier session of that user has ended; the new one works.
    let old = send_as(&s, Some(&old_session), Method::GET, "/session", None).await;
    assert_eq!(old.status, 401, "the old session ended: {}", old.body);
    let new = send_as(&s, Some(&new_session), Method::GET, "/session", None).await;
    assert_eq!(new.status, 200, "{}", new.body);

    // The new password signs in, the old one no longer does.
    assert_eq!(
        sign_in(&s, "lena@example.com", NEW_PASSWORD).await.status,
        200
    );
    assert_eq!(sign_in(&s, "lena@example.com", PASSWORD).await.status, 401);

    // The link works once.
    let again = confirm(&s, &token, "Noch-Ein-Anderes-Passwort-9").await;
    assert_eq!(again.status, 422, "{}", again.body);
    assert!(again.body["errors"]["token"].is_array(), "{}", again.body);
}

#[tokio::test]
async fn the_answer_never_says_whether_an_address_exists() {
    let mail = smtp_server().await;
    let s = start_sending_to(mail.port).await;
    user_with_role(&s, "jonas@example.com", "staff").await;
    let (inactive, _) = user_with_role(&s, "mara@example.com", "staff").await;
    let off = s
        .put(&format!("/users/{inactive}"), json!({ "active": false }))
        .await;
    assert_eq!(off.status, 200, "{}", off.body);
    assert_eq!(
        wait_for_messages(&mail, 2).await.len(),
        2,
        "two invitations"
    );

    let unknown = request(&s, "nobody@example.com").await;
    let deactivated = request(&s, "mara@example.com").await;
    let known = request(&s, "jonas@example.com").await;
    for reply in [&unknown, &deactivated, &known] {
        assert_eq!(reply.status, 202, "{}", reply.body);
        assert_eq!(
            reply.body, unknown.body,
            "the same answer for every address"
        );
    }
    let messages = wait_for_messages(&mail, 3).await;
    // Give a wrongly sent message time to arrive before counting.
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    let messages = if messages.len() == 3 {
        common::smtp::messages(&mail.maildir.path().join("mail"))
    } else {
        messages
    };
    assert_eq!(messages.len(), 3, "only the active user got a link");
    let resets: Vec<_> = messages
        .iter()
        .filter(|m| m.contains("reset=3D1") || m.contains("reset=1"))
        .collect();
    assert_eq!(resets.len(), 1);
    assert!(resets[0].contains("jonas@example.com"));
    assert!(!resets[0].contains("nobody@example.com"));
}

#[tokio::test]
async fn bad_fields_and_links_are_refused_naming_the_field() {
    let mail = smtp_server().await;
    let s = start_sending_to(mail.port).await;
    for body in [
        json!({}),
        json!({ "email": "" }),
        json!({ "email": "not an address" }),
    ] {
        let r = send_as(
            &s,
            None,
            Method::POST,
            "/session/password_reset",
            Some(body.clone()),
        )
        .await;
        assert_eq!(r.status, 422, "{body}: {}", r.body);
        assert!(r.body["errors"]["email"].is_array(), "{}", r.body);
    }
    for token in ["", "0000", &"ab".repeat(32)] {
        let r = confirm(&s, token, NEW_PASSWORD).await;
        assert_eq!(r.status, 422, "{token}: {}", r.body);
        assert!(r.body["errors"]["token"].is_array(), "{}", r.body);
    }

    // A link older than 60 minutes no longer works.
    user_with_role(&s, "kai@example.com", "staff").await;
    assert_eq!(request(&s, "kai@example.com").await.status, 202);
    let messages = wait_for_messages(&mail, 2).await;
    let message = messages
        .iter()
        .find(|m| m.contains("reset=3D1") || m.contains("reset=1"))
        .expect("the reset e-mail");
    let token = reset_token(&s, message);
    set_time_ago(
        &s,
        "UPDATE invitations SET expires_at = $1 WHERE used_at IS NULL",
        chrono::Duration::minutes(1),
    )
    .await;
    let late = confirm(&s, &token, NEW_PASSWORD).await;
    assert_eq!(late.status, 422, "{}", late.body);
    assert!(late.body["errors"]["token"].is_array(), "{}", late.body);
}

#[tokio::test]
async fn a_link_lives_sixty_minutes() {
    let mail = smtp_server().await;
    let s = start_sending_to(mail.port).await;
    user_with_role(&s, "ida@example.com", "staff").await;
    assert_eq!(request(&s, "ida@example.com").await.status, 202);
    wait_for_messages(&mail, 2).await;
    let pool = s.db().await;
    let (created, expires): (kontor_server::store::db::Ts, kontor_server::store::db::Ts) =
        kontor_server::sql::query_as(
            "SELECT created_at, expires_at FROM invitations WHERE used_at IS NULL",
        )
        .fetch_one(&pool)
        .await
        .unwrap();
    pool.close().await;
    assert_eq!((expires.0 - created.0).num_minutes(), 60);
}

#[tokio::test]
async fn requests_back_off_like_sign_ins() {
    let s = common::start().await;
    let mut statuses = Vec::new();
    let mut retry_after = String::new();
    for _ in 0..8 {
        let r = request(&s, "someone@example.com").await;
        if r.status == 429 {
            retry_after = r.header("retry-after").to_string();
        }
        statuses.push(r.status);
    }
    assert!(statuses[..5].iter().all(|s| *s == 202), "{statuses:?}");
    assert_eq!(*statuses.last().unwrap(), 429, "{statuses:?}");
    assert!(retry_after.parse::<u64>().unwrap() > 0, "{retry_after}");
}

#[tokio::test]
async fn without_smtp_nothing_is_made() {
    let s = common::start().await;
    user_with_role(&s, "ole@example.com", "staff").await;
    sql(&s, "DELETE FROM invitations").await;
    assert_eq!(request(&s, "ole@example.com").await.status, 202);
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let pool = s.db().await;
    let links: i64 = kontor_server::sql::query_scalar("SELECT COUNT(*) FROM invitations")
        .fetch_one(&pool)
        .await
        .unwrap();
    pool.close().await;
    assert_eq!(links, 0, "no link made that nobody could receive");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_huge_address_is_refused_and_parallel_requests_never_fail() {
    let s = common::start().await;
    let huge = format!("{}@example.com", "a".repeat(10_000));
    let r = request(&s, &huge).await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(r.body["errors"]["email"].is_array(), "{}", r.body);
    // Twenty at once for one address: the free five are taken, the rest wait (429), none
    // fails and none slips past the limit.
    let statuses = common::requests::statuses_at_once((0..20).map(|_| {
        reqwest::Client::new()
            .post(s.url("/session/password_reset"))
            .json(&json!({"email": "eva@example.com"}))
    }))
    .await;
    let accepted = statuses.iter().filter(|s| **s == 202).count();
    let waiting = statuses.iter().filter(|s| **s == 429).count();
    assert_eq!((accepted, waiting), (5, 15), "{statuses:?}");
}
