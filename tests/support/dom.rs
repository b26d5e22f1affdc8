//! DOM helpers for the component tests: mount points, queries and typing as a user would,
//! and the app's language for one test.

use kontor_app::components::locale::set_locale;
use kontor_app::i18n::{use_language, Lang};
use kontor_model::Decimal;
use leptos::prelude::{document, window};
use std::str::FromStr;
use wasm_bindgen::JsCast;
use web_sys::{Event, EventInit, EventTarget, HtmlElement, HtmlInputElement, HtmlSelectElement};

/// The decimal written as `s` (panics on a malformed literal).
pub fn d(s: &str) -> Decimal {
    Decimal::from_str(s).unwrap()
}

/// Waits `ms` milliseconds (effects, timers and the fake fetch run meanwhile).
pub async fn wait(ms: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let _ = window().set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms);
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// Lets effects and animation frames run (waits 30 ms).
pub async fn settle() {
    wait(30).await;
}

/// Stores test credentials and replaces `window.fetch`: every request is answered with
/// `status` and `body` (JSON, `Content-Type: application/json` plus `extra_headers`, JS
/// object entries each starting with a comma, e.g. `", 'X-Total': '3'"`); the URLs asked
/// for are collected in `window.__fetched` ([`fetched`]).
pub fn fake_fetch(status: u16, body: &serde_json::Value, extra_headers: &str) {
    kontor_app::api::client::store_credentials("http://kontor.test", "test-key");
    let keep = KEEP_REAL_FETCH;
    let script = format!(
        "window.__fetched = [];
         {keep} window.fetch = (req) => {{
           window.__fetched.push(req.url || String(req));
           return Promise.resolve(new Response({body}, {{status: {status},
             headers: {{'Content-Type': 'application/json'{extra_headers}}}}}));
         }};",
        body = serde_json::to_string(&body.to_string()).unwrap()
    );
    js_sys::eval(&script).unwrap();
}

/// JavaScript that keeps the browser's own `window.fetch` in `window.__realFetch` (the
/// first time): every fake fetch of the component tests runs it before it replaces
/// `window.fetch`, so that [`real_fetch`] can put the original back.
pub const KEEP_REAL_FETCH: &str = "window.__realFetch = window.__realFetch || window.fetch;";

/// Puts the browser's own `window.fetch` back. Every test that replaces it ([`fake_fetch`],
/// [`stub_fetch`] and the tests' own fakes) keeps the original in `window.__realFetch`
/// first; a test that needs the network as it is (object URLs, a closed port) calls this,
/// since all component tests share one page and an earlier test's fake would answer.
pub fn real_fetch() {
    js_sys::eval("if (window.__realFetch) { window.fetch = window.__realFetch; }").unwrap();
}

/// Forgets the server address an earlier test stored with its credentials
/// (`kontor.server`): the sign-in page then offers this page's own origin, as on a first
/// visit.
pub fn forget_stored_server() {
    let storage = window().local_storage().unwrap().unwrap();
    storage
        .remove_item(kontor_app::api::client::SERVER_STORAGE_KEY)
        .unwrap();
}

/// The URLs the fake fetch ([`fake_fetch`]) was asked for.
pub fn fetched() -> Vec<String> {
    let list = js_sys::eval("window.__fetched || []").unwrap();
    js_sys::Array::from(&list)
        .iter()
        .filter_map(|v| v.as_string())
        .collect()
}

/// Back to the default language and locale when dropped: when the test that holds it ends,
/// also when it fails (the test browser is English).
pub struct Reset;

impl Drop for Reset {
    fn drop(&mut self) {
        use_language(None);
        set_locale(None);
    }
}

/// Speaks `lang` (the app's language) until the returned guard is dropped ([`Reset`]).
pub fn speak(lang: Lang) -> Reset {
    let reset = Reset;
    use_language(Some(lang));
    reset
}

/// Closes every `<dialog>` an earlier test left open. All component tests share one page
/// (one test binary), and an open modal dialog makes the rest of the page inert: no focus,
/// no clicks, and `dialog[open]` would find the earlier test's dialog.
pub fn close_open_dialogs() {
    let open = document().query_selector_all("dialog[open]").unwrap();
    for i in 0..open.length() {
        if let Some(dialog) = open
            .item(i)
            .and_then(|node| node.dyn_into::<web_sys::HtmlDialogElement>().ok())
        {
            dialog.close();
        }
    }
}

/// A fresh element in the body to mount into (after [`close_open_dialogs`]).
pub fn container() -> HtmlElement {
    close_open_dialogs();
    let el: HtmlElement = document().create_element("div").unwrap().unchecked_into();
    document().body().unwrap().append_child(&el).unwrap();
    el
}

/// The first element under `root` matching `selector` (panics when there is none).
pub fn find(root: &HtmlElement, selector: &str) -> HtmlElement {
    root.query_selector(selector)
        .unwrap()
        .unwrap_or_else(|| panic!("no {selector}"))
        .unchecked_into()
}

/// The text of the first element under `root` matching `selector`.
pub fn text(root: &HtmlElement, selector: &str) -> String {
    find(root, selector).text_content().unwrap_or_default()
}

/// The texts of every element under `root` matching `selector`, in document order.
pub fn texts(root: &HtmlElement, selector: &str) -> Vec<String> {
    let list = root.query_selector_all(selector).unwrap();
    (0..list.length())
        .map(|i| list.item(i).unwrap().text_content().unwrap_or_default())
        .collect()
}

/// Types `text` into the input as a user would (value + input event).
pub fn type_into(input: &HtmlElement, text: &str) {
    let input: &HtmlInputElement = input.unchecked_ref();
    input.set_value(text);
    fire(input, "input");
}

/// Sends `target` a bubbling `kind` event (`input`, `change`, …).
pub fn fire(target: &EventTarget, kind: &str) {
    let init = EventInit::new();
    init.set_bubbles(true);
    target
        .dispatch_event(&Event::new_with_event_init_dict(kind, &init).unwrap())
        .unwrap();
}

/// Sends `target` a bubbling, cancelable `kind` event (`mousedown`, `input`, …).
pub fn dispatch(target: &EventTarget, kind: &str) {
    let init = EventInit::new();
    init.set_bubbles(true);
    init.set_cancelable(true);
    target
        .dispatch_event(&Event::new_with_event_init_dict(kind, &init).unwrap())
        .unwrap();
}

/// Picks `value` in the `<select>` at `selector` below `root` as a user would (sets it,
/// fires `change`).
pub fn choose(root: &HtmlElement, selector: &str, value: &str) {
    let select: HtmlSelectElement = find(root, selector).unchecked_into();
    select.set_value(value);
    fire(&select, "change");
}

/// The input element matching `selector` below `root` (panics when there is none).
pub fn input(root: &HtmlElement, selector: &str) -> HtmlInputElement {
    find(root, selector).unchecked_into()
}

/// Sets `input` to `value` with a (non-bubbling) `input` event, then clicks the submit
/// button of the dialog's form below `root`; lets effects run after each.
pub async fn submit_dialog_with(root: &HtmlElement, input: &HtmlInputElement, value: &str) {
    input.set_value(value);
    input
        .dispatch_event(&web_sys::Event::new("input").unwrap())
        .unwrap();
    settle().await;
    find(root, "dialog form button[type=submit]").click();
    settle().await;
}

/// Replaces `window.fetch`: a URL containing a key of `routes` answers that status, body
/// and `Retry-After` (when given); anything else 404. The last request's method and URL
/// are kept in `window.__lastFetch`.
pub fn stub_fetch(routes: &[(&str, u16, &str, Option<&str>)]) {
    let table: Vec<String> = routes
        .iter()
        .map(|(part, status, body, retry)| {
            format!(
                "[{}, {status}, {}, {}]",
                serde_json::to_string(part).unwrap(),
                serde_json::to_string(body).unwrap(),
                retry
                    .map(|r| format!("\"{r}\""))
                    .unwrap_or_else(|| "null".into())
            )
        })
        .collect();
    let keep = KEEP_REAL_FETCH;
    let script = format!(
        "const routes = [{}];
         {keep} window.fetch = function(input, init) {{
           const url = typeof input === 'string' ? input : input.url;
           const method = (init && init.method) || (input && input.method) || 'GET';
           window.__lastFetch = method + ' ' + url;
           for (const [part, status, body, retry] of routes) {{
             if (url.includes(part)) {{
               const headers = {{'Content-Type': 'application/json'}};
               if (retry) headers['Retry-After'] = retry;
               return Promise.resolve(new Response(status === 204 ? null : body, {{status, headers}}));
             }}
           }}
           return Promise.resolve(new Response('{{\"message\":\"Not found.\"}}', {{status: 404}}));
         }};",
        table.join(",")
    );
    js_sys::eval(&script).unwrap();
}

/// Waits (up to 60 [`settle`]s) until `selector` matches below `root`; panics when it never
/// does.
pub async fn wait_for(root: &HtmlElement, selector: &str) -> HtmlElement {
    for _ in 0..60 {
        if let Some(el) = root.query_selector(selector).unwrap() {
            return el.unchecked_into();
        }
        settle().await;
    }
    panic!("{selector} never appeared");
}

/// The field errors shown (every field has an empty error element).
pub fn errors(root: &HtmlElement) -> Vec<String> {
    texts(root, ".field-error")
        .into_iter()
        .filter(|t| !t.trim().is_empty())
        .collect()
}

/// Clicks the submit button of the form `form` (a selector) below `root`.
pub fn submit(root: &HtmlElement, form: &str) {
    find(root, &format!("{form} button[type=submit]")).click();
}
