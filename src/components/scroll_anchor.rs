//! Keeps what the person looks at in place while the page around it re-renders (issue 34:
//! "Settings keeps its scroll position after a section saves"): the element that had focus
//! when the save started (its Save button) stays at the same height in the window while
//! the saved account is loaded again and the page settles.

use leptos::prelude::*;
use send_wrapper::SendWrapper;

/// The focused element and its distance from the window's top (CSS pixels), taken now.
pub fn take_anchor() -> Option<(SendWrapper<web_sys::Element>, f64)> {
    let el = document().active_element()?;
    let top = el.get_bounding_client_rect().top();
    Some((SendWrapper::new(el), top))
}

/// For the next `frames` animation frames, scrolls so that the anchor's element stays
/// `top` pixels below the window's top (nothing once it left the page). Lets go as soon as
/// anyone else scrolls the window (the person, a script bringing another control into view,
/// or the browser's own scroll anchoring, which already keeps the element in place): the
/// anchor never fights a scroll it did not make.
pub fn hold_anchor(anchor: Option<(SendWrapper<web_sys::Element>, f64)>, frames: u32) {
    let Some((el, top)) = anchor else { return };
    let scrolled = window().scroll_y().unwrap_or(0.0);
    hold_from(el, top, scrolled, frames);
}

/// One frame of [`hold_anchor`]; `scrolled` is the window's scroll offset (CSS pixels) this
/// anchor left it at.
fn hold_from(el: SendWrapper<web_sys::Element>, top: f64, scrolled: f64, frames: u32) {
    request_animation_frame(move || {
        if !el.is_connected() {
            return;
        }
        let now = window().scroll_y().unwrap_or(0.0);
        if (now - scrolled).abs() >= 1.0 {
            return;
        }
        let drift = el.get_bounding_client_rect().top() - top;
        if drift.abs() >= 1.0 {
            window().scroll_by_with_x_and_y(0.0, drift);
        }
        if frames > 0 {
            hold_from(el, top, window().scroll_y().unwrap_or(0.0), frames - 1);
        }
    });
}
