//! The keyboard shortcuts of every page (issue 34): `/` focuses the search (the top bar's
//! own listener), `n` follows the page's "New …" link or button (marked
//! `data-shortcut="new"`), `?` opens the sheet listing them all. A shortcut never fires
//! while someone types in a field or while a dialog is open.

use crate::components::dialog::Dialog;
use crate::i18n::t;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// True when the key went to a text field, a select or an editable element.
pub fn typing_in_field(ev: &web_sys::KeyboardEvent) -> bool {
    let Some(el) = ev
        .target()
        .and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok())
    else {
        return false;
    };
    matches!(el.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT") || el.is_content_editable()
}

/// True while a modal dialog is open (the page behind it is inert).
pub fn dialog_open() -> bool {
    document()
        .query_selector("dialog[open]")
        .ok()
        .flatten()
        .is_some()
}

/// Whether a key press may be a page shortcut: no Ctrl, Meta or Alt, not typed into a
/// field, no dialog open, not handled already.
fn free_key(ev: &web_sys::KeyboardEvent) -> bool {
    !ev.ctrl_key()
        && !ev.meta_key()
        && !ev.alt_key()
        && !ev.default_prevented()
        && !typing_in_field(ev)
        && !dialog_open()
}

/// The page's "New …" control (`main [data-shortcut="new"]`), if it has one.
fn new_control() -> Option<web_sys::HtmlElement> {
    document()
        .query_selector("main [data-shortcut=\"new\"]")
        .ok()
        .flatten()
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
}

/// The global listener for `n` and `?`, and the shortcut sheet. Mount once in the frame.
#[component]
pub fn ShortcutSheet() -> impl IntoView {
    let open = RwSignal::new(false);
    let handle = window_event_listener(leptos::ev::keydown, move |ev| {
        if !free_key(&ev) {
            return;
        }
        match ev.key().as_str() {
            "n" if !ev.shift_key() => {
                if let Some(control) = new_control() {
                    ev.prevent_default();
                    control.click();
                }
            }
            "?" => {
                ev.prevent_default();
                open.set(true);
            }
            _ => {}
        }
    });
    on_cleanup(move || handle.remove());
    let s = t().shortcuts();
    let rows = [
        ("/", s.search),
        ("n", s.new_record),
        ("Alt + Shift + I, T, D, S, P, L", s.add_position),
        ("Esc", s.close),
        ("?", s.this_sheet),
    ];
    view! {
        <Dialog open=open title=s.title class="dialog-wide">
            <table class="table shortcut-table" id="shortcut-sheet">
                <thead><tr><th scope="col">{s.key}</th><th scope="col">{s.does}</th></tr></thead>
                <tbody>
                    {rows.into_iter().map(|(key, does)| view! {
                        <tr><td><kbd>{key}</kbd></td><td>{does}</td></tr>
                    }).collect_view()}
                </tbody>
            </table>
            <div class="dialog-actions">
                <button type="button" class="btn btn-primary" autofocus on:click=move |_| open.set(false)>
                    {t().common().close}
                </button>
            </div>
        </Dialog>
    }
}
