//! Operations on the row list (add, remove, move, duplicate) and keeping focus on the
//! moved row. Each changes the list once; rows keep their signals, so nothing is rebuilt.

use super::row::PositionRow;
use kontor_model::position::PositionType;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

fn index_of(rows: &[PositionRow], key: u64) -> Option<usize> {
    rows.iter().position(|r| r.key == key)
}

/// Inserts `row` after the row `after` (at the end when `None` or not found).
pub fn insert_after(rows: RwSignal<Vec<PositionRow>>, after: Option<u64>, row: PositionRow) {
    rows.update(|list| {
        let at = after
            .and_then(|k| index_of(list, k))
            .map(|i| i + 1)
            .unwrap_or(list.len());
        list.insert(at, row);
    });
}

/// Adds a new row of `kind` after `after` (or at the end) and returns its key.
pub fn add_row(rows: RwSignal<Vec<PositionRow>>, after: Option<u64>, kind: PositionType) -> u64 {
    let row = PositionRow::new(kind);
    insert_after(rows, after, row);
    row.key
}

/// Removes the row `key`.
pub fn remove_row(rows: RwSignal<Vec<PositionRow>>, key: u64) {
    rows.update(|list| list.retain(|r| r.key != key));
}

/// Inserts a copy of row `key` right after it; returns the copy's key.
pub fn duplicate_row(rows: RwSignal<Vec<PositionRow>>, key: u64) -> Option<u64> {
    let original = rows.with_untracked(|list| list.iter().find(|r| r.key == key).copied())?;
    let copy = original.duplicate();
    insert_after(rows, Some(key), copy);
    Some(copy.key)
}

/// Moves row `key` by `delta` places (−1 up, +1 down); false when it cannot move.
pub fn move_row(rows: RwSignal<Vec<PositionRow>>, key: u64, delta: isize) -> bool {
    let mut moved = false;
    rows.update(|list| {
        let Some(from) = index_of(list, key) else {
            return;
        };
        let to = from as isize + delta;
        if to < 0 || to as usize >= list.len() {
            return;
        }
        let row = list.remove(from);
        list.insert(to as usize, row);
        moved = true;
    });
    moved
}

/// Moves row `key` to where row `target` is (drag and drop): dragged down it lands after
/// the target, dragged up before it.
pub fn move_to(rows: RwSignal<Vec<PositionRow>>, key: u64, target: u64) {
    if key == target {
        return;
    }
    rows.update(|list| {
        let (Some(from), Some(to)) = (index_of(list, key), index_of(list, target)) else {
            return;
        };
        let row = list.remove(from);
        list.insert(to, row);
    });
}

/// True when `key` is the last row.
pub fn is_last(rows: RwSignal<Vec<PositionRow>>, key: u64) -> bool {
    rows.with_untracked(|list| list.last().map(|r| r.key) == Some(key))
}

/// Focuses `element` again after the list re-rendered (a moved node loses focus).
pub fn refocus_later(element: Option<web_sys::HtmlElement>) {
    if let Some(el) = element {
        request_animation_frame(move || {
            let _ = el.focus();
        });
    }
}

/// The focused element, if it is an HTML element.
pub fn focused_element() -> Option<web_sys::HtmlElement> {
    document()
        .active_element()?
        .dyn_into::<web_sys::HtmlElement>()
        .ok()
}

/// Focuses the first input of row `key` once it is on screen.
pub fn focus_row_later(key: u64) {
    request_animation_frame(move || {
        let row = format!("tr[data-row-key=\"{key}\"]");
        let first = document()
            .query_selector(&format!("{row} [data-first-cell]"))
            .ok()
            .flatten();
        let target = first.or_else(|| {
            document()
                .query_selector(&format!("{row} select"))
                .ok()
                .flatten()
        });
        if let Some(el) = target {
            if let Ok(el) = el.dyn_into::<web_sys::HtmlElement>() {
                let _ = el.focus();
            }
        }
    });
}
