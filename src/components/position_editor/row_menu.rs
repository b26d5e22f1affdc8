//! The row menu: move up/down, duplicate, insert an item below, remove.

use super::ops::{add_row, duplicate_row, focus_row_later, move_row, remove_row};
use super::row::PositionRow;
use kontor_model::position::PositionType;
use leptos::html;
use leptos::prelude::*;

/// The "⋯" menu at the end of a row.
#[component]
pub fn RowMenu(
    /// All rows (the menu changes the list).
    rows: RwSignal<Vec<PositionRow>>,
    /// The key of this menu's row.
    key: u64,
    /// The editor's owner: new rows belong to it, not to this row (which may be removed
    /// before its copy).
    owner: StoredValue<Owner>,
) -> impl IntoView {
    let details = NodeRef::<html::Details>::new();
    let close = move || {
        if let Some(d) = details.get_untracked() {
            d.set_open(false);
        }
    };
    let act = move |f: fn(RwSignal<Vec<PositionRow>>, u64)| {
        move |_| {
            close();
            owner.with_value(|o| o.with(|| f(rows, key)));
        }
    };
    view! {
        <details class="row-menu" node_ref=details>
            <summary aria-label="Row actions" title="Row actions">
                "⋯"
            </summary>
            <div class="row-menu-items" role="menu">
                <button type="button" role="menuitem" on:click=act(|r, k| { move_row(r, k, -1); })>
                    "Move up"
                </button>
                <button type="button" role="menuitem" on:click=act(|r, k| { move_row(r, k, 1); })>
                    "Move down"
                </button>
                <button
                    type="button"
                    role="menuitem"
                    on:click=act(|r, k| {
                        if let Some(copy) = duplicate_row(r, k) {
                            focus_row_later(copy);
                        }
                    })
                >
                    "Duplicate"
                </button>
                <button
                    type="button"
                    role="menuitem"
                    on:click=act(|r, k| focus_row_later(add_row(r, Some(k), PositionType::Item)))
                >
                    "Insert item below"
                </button>
                <button type="button" role="menuitem" class="danger" on:click=act(remove_row)>
                    "Remove"
                </button>
            </div>
        </details>
    }
}
