//! The row menu: move up/down, duplicate, insert an item below, remove — a menu button
//! after the WAI-ARIA Authoring Practices "menu button" pattern (issue 11 § Polish):
//! Enter, Space or ↓ on the button open the menu on its first item, ↑ on its last; in the
//! menu ↑/↓ move (wrapping), Home/End go to the first/last item, Esc closes it and returns
//! the focus to the button, Tab closes it and moves on; a click outside closes it.

use super::ops::{add_row, duplicate_row, focus_row_later, move_row, remove_row};
use super::row::PositionRow;
use crate::i18n::t;
use kontor_model::position::PositionType;
use leptos::html;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// Which item a key moves the focus to among `count` items from `current` (`None`: none
/// focused yet), or `None` for a key the menu does not handle. Pure, for the tests.
pub fn menu_target(key: &str, current: Option<usize>, count: usize) -> Option<usize> {
    if count == 0 {
        return None;
    }
    let last = count - 1;
    match key {
        "ArrowDown" => Some(match current {
            Some(i) if i < last => i + 1,
            _ => 0,
        }),
        "ArrowUp" => Some(match current {
            Some(i) if i > 0 => i - 1,
            _ => last,
        }),
        "Home" | "PageUp" => Some(0),
        "End" | "PageDown" => Some(last),
        _ => None,
    }
}

/// The menu items of `menu` (buttons with `role="menuitem"`).
fn items(menu: &web_sys::HtmlElement) -> Vec<web_sys::HtmlElement> {
    let Ok(list) = menu.query_selector_all("[role=menuitem]") else {
        return Vec::new();
    };
    (0..list.length())
        .filter_map(|i| list.item(i))
        .filter_map(|n| n.dyn_into::<web_sys::HtmlElement>().ok())
        .collect()
}

/// The "⋯" menu button at the end of a row and its menu.
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
    let open = RwSignal::new(false);
    let button = NodeRef::<html::Button>::new();
    let menu = NodeRef::<html::Div>::new();
    let menu_id = format!("row-menu-{key}");
    let button_id = format!("row-menu-button-{key}");
    // Opens the menu and focuses item `pick(count)` once it is shown.
    let open_at = move |pick: fn(usize) -> usize| {
        open.set(true);
        request_animation_frame(move || {
            if let Some(m) = menu.get_untracked() {
                let all = items(&m);
                if !all.is_empty() {
                    let _ = all[pick(all.len()).min(all.len() - 1)].focus();
                }
            }
        });
    };
    let close = move |refocus: bool| {
        open.set(false);
        if refocus {
            if let Some(b) = button.get_untracked() {
                let _ = b.focus();
            }
        }
    };
    let act = move |f: fn(RwSignal<Vec<PositionRow>>, u64)| {
        move |_| {
            close(false);
            owner.with_value(|o| o.with(|| f(rows, key)));
        }
    };
    // A menu item: `label`, doing `f` when chosen.
    let item = move |label: &'static str, f: fn(RwSignal<Vec<PositionRow>>, u64)| {
        view! { <button type="button" role="menuitem" tabindex="-1" on:click=act(f)>{label}</button> }
    };
    let on_button_key = move |ev: leptos::ev::KeyboardEvent| {
        let pick: fn(usize) -> usize = match ev.key().as_str() {
            "ArrowDown" | "Enter" | " " => |_| 0,
            "ArrowUp" => |n| n.saturating_sub(1),
            _ => return,
        };
        ev.prevent_default();
        ev.stop_propagation();
        open_at(pick);
    };
    let on_menu_key = move |ev: leptos::ev::KeyboardEvent| {
        let key = ev.key();
        match key.as_str() {
            "Escape" => {
                ev.prevent_default();
                ev.stop_propagation();
                close(true);
            }
            "Tab" => close(false),
            _ => {
                let Some(m) = menu.get_untracked() else {
                    return;
                };
                let all = items(&m);
                let active = document().active_element();
                let current = all.iter().position(|i| {
                    active
                        .as_ref()
                        .is_some_and(|a| a == i.unchecked_ref::<web_sys::Element>())
                });
                if let Some(next) = menu_target(&key, current, all.len()) {
                    ev.prevent_default();
                    ev.stop_propagation();
                    let _ = all[next].focus();
                }
            }
        }
    };
    // A focus leaving the button and the menu (a click elsewhere, Tab) closes it.
    let on_focus_out = move |ev: leptos::ev::FocusEvent| {
        let to = ev
            .related_target()
            .and_then(|t| t.dyn_into::<web_sys::Node>().ok());
        let inside = |n: &web_sys::Node| {
            let in_menu = menu.get_untracked().is_some_and(|m| m.contains(Some(n)));
            let on_button = button.get_untracked().is_some_and(|b| b.contains(Some(n)));
            in_menu || on_button
        };
        if !to.as_ref().is_some_and(inside) {
            open.set(false);
        }
    };
    view! {
        <div class="row-menu" class:is-open=move || open.get() on:focusout=on_focus_out>
            <button type="button" class="row-menu-button" id=button_id.clone() node_ref=button
                aria-label=t().position_editor().row_actions title=t().position_editor().row_actions aria-haspopup="menu"
                aria-controls=menu_id.clone() aria-expanded=move || if open.get() { "true" } else { "false" }
                on:click=move |_| if open.get_untracked() { close(false) } else { open_at(|_| 0) }
                on:keydown=on_button_key>
                "⋯"
            </button>
            <div class="row-menu-items" role="menu" id=menu_id aria-labelledby=button_id node_ref=menu
                hidden=move || !open.get() on:keydown=on_menu_key>
                {item(t().position_editor().move_up, |r, k| { move_row(r, k, -1); })}
                {item(t().position_editor().move_down, |r, k| { move_row(r, k, 1); })}
                {item(t().position_editor().duplicate, |r, k| {
                    if let Some(copy) = duplicate_row(r, k) {
                        focus_row_later(copy);
                    }
                })}
                {item(t().position_editor().insert_item, |r, k| focus_row_later(add_row(r, Some(k), PositionType::Item)))}
                <button type="button" role="menuitem" tabindex="-1" class="danger" on:click=act(remove_row)>
                    {t().position_editor().remove}
                </button>
            </div>
        </div>
    }
}
