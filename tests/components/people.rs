//! Component tests of people and sign-in in the app (issue 12) in headless Chromium: the
//! sign-in form's states (e-mail and password by default, "Another server…", the API key
//! link, missing fields), the server's 401 and 429 messages (the app's own "try again"
//! time when a 429 carries none), the
//! password dialog's length rule and the server's reasons at the fields, the users table
//! (roles, status, write buttons only when allowed), the user menu's label for a person
//! and for an API key, and the theme applied to `<html>`.
//! The server is replaced by a stub of `window.fetch` answering fixed responses.
//! `CHROMEDRIVER=/usr/bin/chromedriver cargo test -p kontor-app --target wasm32-unknown-unknown --test components -- people::`.
#![cfg(target_arch = "wasm32")]

use kontor_app::api::client::{clear_key, store_credentials};
use kontor_app::api::session::retry_message;
use kontor_app::components::prefs::{apply_theme, stored_theme};
use kontor_app::components::toast::Toasts;
use kontor_app::components::user_menu::{menu_label, PasswordDialog};
use kontor_app::pages::admin::UsersTable;
use kontor_app::pages::sign_in::SignIn;
use kontor_model::account::Session;
use kontor_model::users::User;
use kontor_model::users::{Role, Theme};
use leptos::prelude::*;
use leptos_router::components::Router;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::HtmlElement;

use crate::support::{dom, fixtures};

use dom::{container, errors, find, settle, stub_fetch, submit, text, texts, type_into, wait_for};

fn click(el: &HtmlElement) {
    el.click();
}

/// The sign-in page as on a first visit to this origin (no server stored by another test).
fn mount_sign_in() -> HtmlElement {
    crate::support::dom::forget_stored_server();
    let root = container();
    let handle = leptos::mount::mount_to(root.clone(), || {
        Toasts::provide();
        view! { <Router><SignIn /></Router> }
    });
    std::mem::forget(handle);
    root
}

#[wasm_bindgen_test]
async fn sign_in_asks_for_email_and_password_with_the_server_and_the_api_key_behind_links() {
    clear_key();
    stub_fetch(&[("/setup", 200, r#"{"needed": false}"#, None)]);
    let root = mount_sign_in();
    settle().await;
    // E-mail and password by default; the server address hidden behind "Another server…".
    find(&root, "#email");
    find(&root, "#password");
    assert!(root.query_selector("#server").unwrap().is_none());
    assert!(root.query_selector("#api-key").unwrap().is_none());
    assert!(root.query_selector("#setup-note").unwrap().is_none());
    click(&find(&root, "#another-server"));
    settle().await;
    let server: web_sys::HtmlInputElement = find(&root, "#server").unchecked_into();
    assert_eq!(server.value(), window().location().origin().unwrap());
    // Nothing typed: both fields say what is missing, nothing is sent.
    js_sys::eval("window.__lastFetch = null").unwrap();
    submit(&root, "form");
    settle().await;
    assert_eq!(
        errors(&root),
        ["Enter your e-mail address.", "Enter your password."]
    );
    assert!(js_sys::eval("window.__lastFetch").unwrap().is_null());
    // The API key link swaps the password for the key.
    click(&find(&root, "#sign-in-mode"));
    settle().await;
    find(&root, "#api-key");
    assert!(root.query_selector("#password").unwrap().is_none());
    assert_eq!(
        text(&root, "#sign-in-mode"),
        "Sign in with e-mail and password"
    );
    submit(&root, "form");
    settle().await;
    assert_eq!(errors(&root), ["Enter your API key."]);
    root.remove();
}

#[wasm_bindgen_test]
async fn a_server_without_an_admin_links_to_the_first_run_page() {
    clear_key();
    stub_fetch(&[("/setup", 200, r#"{"needed": true}"#, None)]);
    let root = mount_sign_in();
    let note = wait_for(&root, "#setup-note").await;
    assert!(find(&note, "a")
        .get_attribute("href")
        .unwrap()
        .ends_with("/setup"));
    root.remove();
}

#[wasm_bindgen_test]
async fn a_wrong_password_shows_the_servers_message_and_a_lockout_when_to_try_again() {
    clear_key();
    stub_fetch(&[
        ("/setup", 200, r#"{"needed": false}"#, None),
        (
            "/session",
            401,
            r#"{"message": "E-mail or password is wrong."}"#,
            None,
        ),
    ]);
    let root = mount_sign_in();
    settle().await;
    type_into(&find(&root, "#email"), "anna@example.com");
    type_into(&find(&root, "#password"), "not the password");
    submit(&root, "form");
    let error = wait_for(&root, "#sign-in-error").await;
    assert_eq!(
        error.text_content().unwrap(),
        "E-mail or password is wrong."
    );
    assert!(js_sys::eval("window.__lastFetch")
        .unwrap()
        .as_string()
        .unwrap()
        .starts_with("POST "));

    // The lockout: the server's own sentence (in the language asked for) is shown.
    stub_fetch(&[
        ("/setup", 200, r#"{"needed": false}"#, None),
        (
            "/session",
            429,
            r#"{"message": "Too many sign-in attempts. Try again in 9 minutes."}"#,
            Some("540"),
        ),
    ]);
    submit(&root, "form");
    for _ in 0..60 {
        if text(&root, "#sign-in-error").contains("9 minutes") {
            break;
        }
        settle().await;
    }
    assert_eq!(
        text(&root, "#sign-in-error"),
        "Too many sign-in attempts. Try again in 9 minutes."
    );
    // A 429 without the server's message (e.g. from a proxy): the app's own sentence from
    // Retry-After.
    stub_fetch(&[
        ("/setup", 200, r#"{"needed": false}"#, None),
        ("/session", 429, "Slow down", Some("120")),
    ]);
    submit(&root, "form");
    for _ in 0..60 {
        if text(&root, "#sign-in-error").contains("2 minutes") {
            break;
        }
        settle().await;
    }
    assert_eq!(
        text(&root, "#sign-in-error"),
        "Too many failed sign-ins. Try again in 2 minutes."
    );
    root.remove();
}

#[wasm_bindgen_test]
fn retry_after_is_said_in_whole_minutes() {
    assert_eq!(
        retry_message(Some(30)),
        "Too many failed sign-ins. Try again in a minute."
    );
    assert_eq!(
        retry_message(Some(61)),
        "Too many failed sign-ins. Try again in 2 minutes."
    );
    assert_eq!(
        retry_message(Some(900)),
        "Too many failed sign-ins. Try again in 15 minutes."
    );
    assert!(retry_message(None).contains("a few minutes"));
}

#[wasm_bindgen_test]
async fn the_password_dialog_checks_the_length_and_shows_the_servers_reasons_at_the_fields() {
    store_credentials(&window().location().origin().unwrap(), "kontor_test");
    stub_fetch(&[(
        "/users/me/password",
        422,
        r#"{"message": "Please check the fields.", "errors": {"password": ["is too easy to guess: This is similar to a commonly used password. Add another word or two."], "current_password": ["is wrong"]}}"#,
        None,
    )]);
    let root = container();
    let open = RwSignal::new(true);
    let handle = leptos::mount::mount_to(root.clone(), move || {
        Toasts::provide();
        view! { <PasswordDialog open=open /> }
    });
    std::mem::forget(handle);
    let form = wait_for(&root, "#password-form").await;
    settle().await;
    type_into(&find(&form, "#current-password"), "old password here");
    type_into(&find(&form, "#new-password"), "short");
    submit(&root, "#password-form");
    settle().await;
    assert_eq!(
        errors(&root),
        ["must be at least 12 characters long (it has 5)"]
    );
    js_sys::eval("window.__lastFetch = null").unwrap();
    type_into(&find(&form, "#new-password"), "password1234");
    type_into(&find(&form, "#repeat-password"), "password1234");
    submit(&root, "#password-form");
    for _ in 0..60 {
        if errors(&root).len() == 2 {
            break;
        }
        settle().await;
    }
    assert_eq!(
        errors(&root),
        [
            "is wrong",
            "is too easy to guess: This is similar to a commonly used password. Add another word or two."
        ]
    );
    assert!(js_sys::eval("window.__lastFetch")
        .unwrap()
        .as_string()
        .unwrap()
        .starts_with("PUT "));
    assert!(open.get_untracked(), "the dialog stays open");
    clear_key();
    root.remove();
}

#[wasm_bindgen_test]
async fn the_users_table_shows_roles_and_status_and_offers_changes_only_when_allowed() {
    let users = fixtures::team(None);
    let roles = RwSignal::new(Vec::<(i64, Role)>::new());
    let actives = RwSignal::new(Vec::<(i64, bool)>::new());
    let links = RwSignal::new(Vec::<i64>::new());
    let root = container();
    let list = users.clone();
    let handle = leptos::mount::mount_to(root.clone(), move || {
        view! {
            <UsersTable users=Signal::derive(move || list.clone()) read_only=false
                on_role=Callback::new(move |c| roles.update(|r| r.push(c)))
                on_active=Callback::new(move |(u, a): (User, bool)| actives.update(|v| v.push((u.id, a))))
                on_link=Callback::new(move |u: User| links.update(|l| l.push(u.id))) />
        }
    });
    std::mem::forget(handle);
    settle().await;
    assert_eq!(
        texts(&root, "tbody .cell-name"),
        ["Anna Admin", "Sven Staff", "Rita Reader"]
    );
    assert_eq!(
        texts(&root, "tbody .badge"),
        ["Active", "Active", "Deactivated"]
    );
    let select: web_sys::HtmlSelectElement =
        find(&root, "tr[data-user='2'] select").unchecked_into();
    assert_eq!(select.value(), "staff");
    select.set_value("read_only");
    select
        .dispatch_event(&web_sys::Event::new("change").unwrap())
        .unwrap();
    click(&find(&root, "tr[data-user='2'] [data-action=deactivate]"));
    click(&find(&root, "tr[data-user='3'] [data-action=reactivate]"));
    click(&find(&root, "tr[data-user='3'] [data-action=link]"));
    settle().await;
    assert_eq!(roles.get_untracked(), [(2, Role::ReadOnly)]);
    assert_eq!(actives.get_untracked(), [(2, false), (3, true)]);
    assert_eq!(links.get_untracked(), [3]);
    root.remove();

    // Without write access: the same rows, no controls.
    let root = container();
    let handle = leptos::mount::mount_to(root.clone(), move || {
        view! {
            <UsersTable users=Signal::derive(move || users.clone()) read_only=true
                on_role=Callback::new(|_| {}) on_active=Callback::new(|_| {}) on_link=Callback::new(|_| {}) />
        }
    });
    std::mem::forget(handle);
    settle().await;
    assert_eq!(texts(&root, "tbody tr").len(), 3);
    assert!(root.query_selector("select, button").unwrap().is_none());
    assert!(text(&root, "tr[data-user='3']").contains("Read-only"));
    root.remove();
}

#[wasm_bindgen_test]
fn the_menu_names_the_person_or_the_api_key() {
    let person = fixtures::anna_session(None);
    assert_eq!(menu_label(&person), "Anna Admin");
    let key = Session {
        name: "Accounting export".into(),
        read_only: true,
        kind: Some("api".into()),
        ..person
    };
    assert_eq!(menu_label(&key), "Accounting export (read-only)");
}

#[wasm_bindgen_test]
fn the_theme_is_set_on_html_and_remembered() {
    let html = document().document_element().unwrap();
    apply_theme(Theme::Dark);
    assert_eq!(html.get_attribute("data-theme").as_deref(), Some("dark"));
    assert_eq!(stored_theme(), Theme::Dark);
    apply_theme(Theme::Light);
    assert_eq!(html.get_attribute("data-theme").as_deref(), Some("light"));
    apply_theme(Theme::System);
    assert_eq!(html.get_attribute("data-theme"), None);
    assert_eq!(stored_theme(), Theme::System);
}
