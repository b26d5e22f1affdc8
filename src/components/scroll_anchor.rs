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
/// `top` pixels below the window's top (nothing once it left the page).
pub fn hold_anchor(anchor: Option<(SendWrapper<web_sys::Element>, f64)>, frames: u32) {
    let Some((el, top)) = anchor else { return };
    request_animation_frame(move || {
        if !el.is_connected() {
            return;
        }
        let drift = el.get_bounding_client_rect().top() - top;
        if drift.abs() >= 1.0 {
            window().scroll_by_with_x_and_y(0.0, drift);
        }
        if frames > 0 {
            hold_anchor(Some((el, top)), frames - 1);
        }
    });
}
