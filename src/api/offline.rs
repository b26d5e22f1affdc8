//! What the app knows about being offline (issue 37, `docs/decisions.md` § Offline): the
//! service worker (`public/sw.js`) answers an API GET from its store when the network
//! fails, with the header `X-Kontor-Stored-At` (milliseconds since 1970, when that answer
//! was stored). [`note_answer`] is called by the fetch layer for every successful answer;
//! the frame's banner shows "Offline — as of 14:32" while the latest answer came from the
//! store, and hides it with the next answer from the server.

use leptos::prelude::*;
use wasm_bindgen::JsValue;

/// Response header the service worker adds to answers it serves from its store.
pub const STORED_AT_HEADER: &str = "x-kontor-stored-at";

thread_local! {
    static STORED_AT: ArcRwSignal<Option<f64>> = ArcRwSignal::new(None);
}

/// When the answer shown was stored (milliseconds since 1970), while the app reads from
/// the service worker's store; `None` online.
pub fn stored_at() -> ArcRwSignal<Option<f64>> {
    STORED_AT.with(Clone::clone)
}

/// Records whether a successful answer came from the store (`stored_at` is the header's
/// value, if any: whole milliseconds, as the worker writes `Date.now()`; anything else
/// counts as no header). Changes the signal only when the state changes. (Read as an
/// integer: a float parser would put `core`'s decimal tables into the main module.)
pub fn note_answer(stored_at_header: Option<String>) {
    let value = stored_at_header
        .and_then(|v| v.trim().parse::<i64>().ok())
        .map(|millis| millis as f64);
    let signal = stored_at();
    if signal.get_untracked() != value {
        signal.set(value);
    }
}

/// Deletes every API answer the service worker stored in this browser (sign-out and an
/// ended session: the next person on a shared computer reads nothing of the last one's).
/// A bundle without the worker (debug builds) has nothing to delete.
pub fn wipe_stored_answers() {
    let window = window();
    if let Ok(wipe) = js_sys::Reflect::get(&window, &JsValue::from_str("kontorWipeOffline")) {
        if let Some(wipe) = wasm_bindgen::JsCast::dyn_ref::<js_sys::Function>(&wipe) {
            let _ = wipe.call0(&window);
        }
    }
    stored_at().set(None);
}

/// `14:32` when `millis` is today (local time), else the date too (`28.11.2026 14:32` in
/// German, `2026-11-28 14:32` in English).
pub fn time_of(millis: f64) -> String {
    let then = js_sys::Date::new(&JsValue::from_f64(millis));
    let now = js_sys::Date::new_0();
    let clock = format!("{:02}:{:02}", then.get_hours(), then.get_minutes());
    let same_day = then.get_full_year() == now.get_full_year()
        && then.get_month() == now.get_month()
        && then.get_date() == now.get_date();
    let (year, month, day) = (then.get_full_year(), then.get_month() + 1, then.get_date());
    if same_day {
        clock
    } else if crate::i18n::language().code() == "de" {
        format!("{day:02}.{month:02}.{year:04} {clock}")
    } else {
        format!("{year:04}-{month:02}-{day:02} {clock}")
    }
}
