//! A list row that opens its record on a click anywhere in it, while the links inside it
//! (the number, the name) open their own targets (the invoice, purchase, company and
//! recurring invoice lists alike).

use leptos_router::NavigateOptions;
use wasm_bindgen::JsCast;

/// True when `ev` (a click in a row) landed on a link or inside one.
fn on_link(ev: &web_sys::MouseEvent) -> bool {
    ev.target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .and_then(|e| e.closest("a").ok().flatten())
        .is_some()
}

/// The click handler of a list row: goes to the in-app `path` with `navigate` (from
/// `use_navigate`), unless the click was on a link inside the row.
pub fn open_row<N>(navigate: N, path: String) -> impl Fn(web_sys::MouseEvent) + 'static
where
    N: Fn(&str, NavigateOptions) + 'static,
{
    move |ev| {
        if !on_link(&ev) {
            navigate(&path, Default::default());
        }
    }
}
