//! Keyboard focus as a keyboard or screen-reader user needs it (issue 34): the skip link
//! moves focus to the page's content without navigating, and after every route change
//! focus moves to the new page's heading (so it is announced) — unless the person has
//! already put focus somewhere else (typing in a field, a dialog).

use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// Focuses `el`, made focusable by script (`tabindex="-1"`) when it is not already.
fn focus_element(el: &web_sys::Element) {
    if let Ok(el) = el.clone().dyn_into::<web_sys::HtmlElement>() {
        if !el.has_attribute("tabindex") {
            let _ = el.set_attribute("tabindex", "-1");
        }
        let _ = el.focus();
    }
}

/// The skip link's click: focus the main content. The default is prevented — the router
/// would take `#main` for a route.
pub fn skip_to_main(ev: leptos::ev::MouseEvent) {
    ev.prevent_default();
    if let Some(main) = document().get_element_by_id("main") {
        focus_element(&main);
    }
}

/// Whether focus may be moved: nothing is focused, or what is focused is the link or
/// button just followed outside the page's content (the navigation). A link or button
/// inside the content that is still there (a tab whose panel is a route) keeps it.
fn focus_is_free() -> bool {
    match document().active_element() {
        None => true,
        Some(e) => match e.tag_name().as_str() {
            "BODY" => true,
            "A" | "BUTTON" => e.closest("main").ok().flatten().is_none(),
            _ => false,
        },
    }
}

/// Whether nothing holds focus (a focused element that was removed leaves it on `<body>`).
fn focus_fell_to_body() -> bool {
    document()
        .active_element()
        .is_none_or(|e| e.tag_name() == "BODY")
}

/// Focuses the page's heading (`main h1`) while focus is free, for `frames` animation
/// frames, else (no heading ever showed) the main content. It keeps watching because the
/// page that was left may still be shown while the next one loads its code: its heading,
/// focused first, is then removed with it (focus falls to `<body>`) and the new page's
/// heading takes focus when it appears. Once a heading had focus, only focus that fell to
/// `<body>` is taken back — a menu opened meanwhile keeps it.
fn focus_heading(frames: u32, focused_once: bool) {
    request_animation_frame(move || {
        let mut focused_once = focused_once;
        let free = if focused_once {
            focus_fell_to_body()
        } else {
            focus_is_free()
        };
        if free {
            if let Some(heading) = document().query_selector("main h1").ok().flatten() {
                focus_element(&heading);
                focused_once = true;
            } else if frames == 0 && !focused_once {
                if let Some(main) = document().get_element_by_id("main") {
                    focus_element(&main);
                }
            }
        }
        if frames > 0 {
            focus_heading(frames - 1, focused_once);
        }
    });
}

/// After every route change (not the first page shown) focus moves to the new page's
/// heading. Call once inside the router (the frame).
pub fn focus_heading_on_route_change() {
    let location = leptos_router::hooks::use_location();
    let first = StoredValue::new(true);
    Effect::new(move |_| {
        location.pathname.track();
        if first.get_value() {
            first.set_value(false);
            return;
        }
        focus_heading(180, false);
    });
}
