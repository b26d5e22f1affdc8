//! People and sign-in in German (issue 12, `docs/decisions.md` § German and English in the
//! app): the sign-in page, the server's German lockout sentence on it, the password dialog,
//! the user menu's label, the users table and the key table's times, and the app's own
//! network error texts — all in German, dates as `23.11.2026`.
//! `CHROMEDRIVER=/usr/bin/chromedriver cargo test -p kontor-app --target wasm32-unknown-unknown --test components -- i18n_people::`.
//!
//! The test browser is English; each test sets German and resets it when it ends (also
//! when it fails).
#![cfg(target_arch = "wasm32")]

use crate::support::{dom, fixtures};

use chrono::{TimeZone, Utc};
use dom::{
    container, errors, find, settle, speak, stub_fetch, submit, text, texts, type_into, wait_for,
};
use kontor_app::api::client::{clear_key, error_from_body};
use kontor_app::api::session::retry_message;
use kontor_app::components::toast::Toasts;
use kontor_app::components::user_menu::{menu_label, PasswordDialog};
use kontor_app::i18n::{use_language, Lang};
use kontor_app::pages::admin::api_keys::{key_time, kind_label};
use kontor_app::pages::admin::UsersTable;
use kontor_app::pages::sign_in::SignIn;
use kontor_model::account::Session;
use leptos::prelude::*;
use leptos_router::components::Router;
use wasm_bindgen_test::*;

#[wasm_bindgen_test]
async fn the_sign_in_page_speaks_german_and_shows_the_servers_german_lockout() {
    let _reset = speak(Lang::De);
    clear_key();
    dom::forget_stored_server();
    stub_fetch(&[("/setup", 200, r#"{"needed": true}"#, None)]);
    let root = container();
    let handle = leptos::mount::mount_to(root.clone(), || {
        Toasts::provide();
        view! { <Router><SignIn /></Router> }
    });
    std::mem::forget(handle);
    let note = wait_for(&root, "#setup-note").await;
    assert_eq!(
        note.text_content().unwrap(),
        "Dieser Server hat noch keinen Administrator. Kontor einrichten"
    );
    assert_eq!(text(&root, "h1"), "Bei Kontor anmelden");
    assert!(text(&root, "label[for=email]").starts_with("E-Mail-Adresse"));
    assert!(text(&root, "label[for=password]").starts_with("Passwort"));
    assert_eq!(text(&root, "#another-server"), "Anderer Server…");
    assert_eq!(text(&root, "#sign-in-submit"), "Anmelden");
    assert_eq!(text(&root, "#sign-in-mode"), "Mit API-Schlüssel anmelden");
    submit(&root, "form");
    settle().await;
    assert_eq!(
        errors(&root),
        [
            "Bitte geben Sie Ihre E-Mail-Adresse ein.",
            "Bitte geben Sie Ihr Passwort ein."
        ]
    );

    // The server's lockout sentence (German for Accept-Language de) is what the page shows.
    stub_fetch(&[
        ("/setup", 200, r#"{"needed": false}"#, None),
        (
            "/session",
            429,
            r#"{"message": "Zu viele Anmeldeversuche. Bitte in 14 Minuten erneut versuchen."}"#,
            Some("840"),
        ),
    ]);
    type_into(&find(&root, "#email"), "anna@example.com");
    type_into(&find(&root, "#password"), "nicht das Passwort");
    submit(&root, "form");
    let error = wait_for(&root, "#sign-in-error").await;
    assert_eq!(
        error.text_content().unwrap(),
        "Zu viele Anmeldeversuche. Bitte in 14 Minuten erneut versuchen."
    );
    root.remove();
}

#[wasm_bindgen_test]
async fn the_password_dialog_and_the_users_table_speak_german() {
    let _reset = speak(Lang::De);
    let root = container();
    let open = RwSignal::new(true);
    let users = fixtures::team(Some("de"));
    let handle = leptos::mount::mount_to(root.clone(), move || {
        Toasts::provide();
        view! {
            <PasswordDialog open=open />
            <UsersTable users=Signal::derive(move || users.clone()) read_only=false
                on_role=Callback::new(|_| {}) on_active=Callback::new(|_| {}) on_link=Callback::new(|_| {}) />
        }
    });
    std::mem::forget(handle);
    let form = wait_for(&root, "#password-form").await;
    settle().await;
    assert!(text(&root, "label[for=current-password]").starts_with("Aktuelles Passwort"));
    assert_eq!(text(&root, "#password-save"), "Passwort ändern");
    type_into(&find(&form, "#new-password"), "kurz");
    submit(&root, "#password-form");
    settle().await;
    assert_eq!(
        errors(&root),
        [
            "ist erforderlich",
            "muss mindestens 12 Zeichen lang sein (es sind 4)"
        ]
    );
    assert!(text(&root, "#password-form").contains("Mindestens 12 Zeichen"));

    assert_eq!(
        texts(&root, "table thead th"),
        ["Name", "E-Mail-Adresse", "Rolle", "Status", "Aktionen"]
    );
    assert_eq!(
        texts(&root, "tr[data-user='2'] option"),
        ["Administrator", "Mitarbeiter", "Nur lesen"]
    );
    assert_eq!(
        texts(&root, "tbody .badge"),
        ["Aktiv", "Aktiv", "Deaktiviert"]
    );
    assert_eq!(
        text(&root, "tr[data-user='1'] [data-action=deactivate]"),
        "Deaktivieren"
    );
    assert_eq!(
        find(&root, "tr[data-user='2'] select")
            .get_attribute("aria-label")
            .unwrap(),
        "Rolle von Sven Staff"
    );
    root.remove();
}

#[wasm_bindgen_test]
fn labels_times_and_the_apps_own_error_texts_are_german() {
    let _reset = speak(Lang::De);
    let person = fixtures::anna_session(Some("de"));
    assert_eq!(menu_label(&person), "Anna Admin");
    let key = Session {
        name: String::new(),
        read_only: true,
        kind: Some("api".into()),
        ..person
    };
    assert_eq!(menu_label(&key), "API-Schlüssel (nur lesen)");
    assert_eq!(kind_label("session"), "Anmeldung");
    assert_eq!(kind_label("api"), "API-Schlüssel");
    let at = Utc.with_ymd_and_hms(2026, 11, 23, 14, 5, 0).unwrap();
    assert_eq!(key_time(Some(at)), "23.11.2026 14:05");
    assert_eq!(
        retry_message(Some(540)),
        "Zu viele fehlgeschlagene Anmeldungen. Bitte in 9 Minuten erneut versuchen."
    );
    assert_eq!(
        error_from_body(503, "Service Unavailable").message,
        "Auf dem Server ist ein Fehler aufgetreten. Bitte versuchen Sie es erneut."
    );
    // The server's message stays the server's.
    assert_eq!(
        error_from_body(
            401,
            r#"{"message": "E-Mail-Adresse oder Passwort ist falsch."}"#
        )
        .message,
        "E-Mail-Adresse oder Passwort ist falsch."
    );

    use_language(Some(Lang::En));
    assert_eq!(key_time(Some(at)), "23 Nov 2026 14:05");
    assert_eq!(menu_label(&key), "API key (read-only)");
    assert_eq!(
        error_from_body(503, "").message,
        "The server had a problem. Please try again."
    );
}
