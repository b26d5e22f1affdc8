//! One row of the position editor. Each cell binds to its own signal, so a keystroke
//! updates that cell, this row's net total and the totals, and nothing else.

use super::ops::{
    add_row, focus_row_later, focused_element, is_last, move_row, move_to, refocus_later,
};
use super::row::PositionRow;
use super::row_menu::RowMenu;
use super::vat::PositionVat;
use crate::components::field::{field_message, localized_message};
use crate::components::locale::parse_typed;
use crate::components::money::format_money;
use crate::i18n::t;
use kontor_model::error::FieldErrors;
use kontor_model::position::PositionType;
use kontor_model::totals::item_net_total;
use kontor_model::vat::VatChoice;
use kontor_model::Decimal;
use leptos::prelude::*;
use std::collections::HashMap;
use wasm_bindgen::JsCast;
use web_sys::{DragEvent, KeyboardEvent};

/// What every row needs from the editor.
#[derive(Clone, Copy)]
pub struct EditorState {
    /// All rows, in order.
    pub rows: RwSignal<Vec<PositionRow>>,
    /// Currency code for rounding and display.
    pub currency: Signal<String>,
    /// Running sums of subtotal rows by key.
    pub subtotals: Memo<HashMap<u64, Decimal>>,
    /// Field errors by row key.
    pub row_errors: Signal<HashMap<u64, FieldErrors>>,
    /// The row being dragged.
    pub dragging: RwSignal<Option<u64>>,
    /// The row under the pointer while dragging.
    pub drop_target: RwSignal<Option<u64>>,
    /// Whether rows show the "optional" checkbox (offers).
    pub allow_optional: bool,
    /// The document's VAT (what "Default" means).
    pub document_vat: Signal<VatChoice>,
    /// The editor's owner, which owns every row it adds (a row's own owner goes away
    /// with the row).
    pub owner: StoredValue<Owner>,
}

/// A table row for `row`.
#[component]
pub fn PositionRowView(
    /// The row model.
    row: PositionRow,
    /// The editor's shared state.
    state: EditorState,
) -> impl IntoView {
    let key = row.key;
    let errors = Memo::new(move |_| {
        state
            .row_errors
            .with(|m| m.get(&key).cloned().unwrap_or_default())
    });
    let initial_kind = row.kind.get_untracked();
    let class = move || {
        let mut c = format!("pe-row pe-row-{}", row.kind.get().as_str());
        if state.dragging.get() == Some(key) {
            c.push_str(" is-dragging");
        }
        if state.drop_target.get() == Some(key) && state.dragging.get() != Some(key) {
            c.push_str(" is-drop-target");
        }
        c
    };
    let on_keydown = move |ev: KeyboardEvent| {
        let delta = match ev.key().as_str() {
            "ArrowUp" if ev.alt_key() => -1,
            "ArrowDown" if ev.alt_key() => 1,
            "Enter"
                if !ev.shift_key()
                    && !ev.alt_key()
                    && is_last_cell(&ev)
                    && is_last(state.rows, key) =>
            {
                ev.prevent_default();
                let added = state
                    .owner
                    .with_value(|o| o.with(|| add_row(state.rows, Some(key), PositionType::Item)));
                focus_row_later(added);
                return;
            }
            _ => return,
        };
        ev.prevent_default();
        let focused = focused_element();
        if move_row(state.rows, key, delta) {
            refocus_later(focused);
        }
    };
    let on_dragover = move |ev: DragEvent| {
        if state.dragging.get_untracked().is_some() {
            ev.prevent_default();
            if let Some(dt) = ev.data_transfer() {
                dt.set_drop_effect("move");
            }
            if state.drop_target.get_untracked() != Some(key) {
                state.drop_target.set(Some(key));
            }
        }
    };
    let on_drop = move |ev: DragEvent| {
        ev.prevent_default();
        if let Some(from) = state.dragging.get_untracked() {
            move_to(state.rows, from, key);
        }
        state.dragging.set(None);
        state.drop_target.set(None);
    };
    let on_dragstart = move |ev: DragEvent| {
        state.dragging.set(Some(key));
        if let Some(dt) = ev.data_transfer() {
            let _ = dt.set_data("text/plain", &key.to_string());
            dt.set_effect_allowed("move");
            let tr = ev
                .target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                .and_then(|e| e.closest("tr").ok().flatten());
            if let Some(tr) = tr {
                dt.set_drag_image(&tr, 16, 16);
            }
        }
    };
    let on_dragend = move |_: DragEvent| {
        state.dragging.set(None);
        state.drop_target.set(None);
    };
    view! {
        <tr data-row-key=key.to_string() class=class on:keydown=on_keydown on:dragover=on_dragover on:drop=on_drop>
            <td
                class="pe-handle"
                draggable="true"
                title=t().position_editor().drag
                on:dragstart=on_dragstart
                on:dragend=on_dragend
            >
                <span aria-hidden="true">"⠿"</span>
            </td>
            <td class="pe-type">
                <select
                    aria-label=t().position_editor().position_type
                    on:change=move |ev| {
                        if let Some(kind) = PositionType::parse(&event_target_value(&ev)) {
                            row.kind.set(kind);
                        }
                    }
                >
                    {PositionType::ALL
                        .into_iter()
                        .map(|t| view! { <option value=t.as_str() selected=t == initial_kind>{super::type_label(t)}</option> })
                        .collect_view()}
                </select>
            </td>
            {move || cells(row, state, errors, row.kind.get())}
            {state
                .allow_optional
                .then(|| {
                    view! {
                        <td class="pe-optional">
                            <input type="checkbox" aria-label=t().position_editor().optional_position bind:checked=row.optional />
                        </td>
                    }
                })}
            <td class="pe-menu">
                <RowMenu rows=state.rows key=key owner=state.owner />
            </td>
        </tr>
    }
}

fn is_last_cell(ev: &KeyboardEvent) -> bool {
    ev.target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .is_some_and(|e| e.has_attribute("data-last-cell"))
}

fn cells(
    row: PositionRow,
    state: EditorState,
    errors: Memo<FieldErrors>,
    kind: PositionType,
) -> AnyView {
    let err = move |field: &'static str| move || errors.with(|e| field_message(e, field));
    let invalid =
        move |field: &'static str| move || errors.with(|e| e.contains_key(field)).then_some("true");
    match kind {
        PositionType::Item => item_cells(row, state, errors).into_any(),
        PositionType::Title => view! {
            <td class="pe-text" colspan="6">
                <input class="pe-title-input" aria-label=t().position_editor().section_title placeholder=t().position_editor().section_title data-field="title" data-first-cell data-last-cell bind:value=row.title aria-invalid=invalid("title") />
                <p class="cell-error">{err("title")}</p>
            </td>
        }
        .into_any(),
        PositionType::Description => view! {
            <td class="pe-text" colspan="6">
                <input class="pe-title" aria-label=t().position_editor().heading placeholder=t().position_editor().heading_placeholder data-field="title" data-first-cell bind:value=row.title />
                <textarea class="pe-desc" rows="2" aria-label=t().position_editor().body_text placeholder=t().position_editor().body_text data-field="description" bind:value=row.description></textarea>
                <p class="cell-error">{err("description")}</p>
            </td>
        }
        .into_any(),
        PositionType::Subtotal => {
            let sum = move || state.subtotals.with(|m| m.get(&row.key).copied()).map(|s| state.currency.with(|c| format_money(s, c)));
            view! {
                <td class="pe-text" colspan="5">
                    <input class="pe-subtotal-label" aria-label=t().position_editor().subtotal_label placeholder=t().position_editor().subtotal data-first-cell data-last-cell bind:value=row.title />
                </td>
                <td class="pe-net money pe-subtotal-sum" data-cell="net">{sum}</td>
            }
            .into_any()
        }
        PositionType::PageBreak => view! {
            <td class="pe-rule" colspan="6"><span class="pe-rule-label">{t().position_editor().page_break}</span></td>
        }
        .into_any(),
        PositionType::Separator => view! {
            <td class="pe-rule" colspan="6"><span class="pe-rule-line" role="separator"></span></td>
        }
        .into_any(),
    }
}

fn item_cells(row: PositionRow, state: EditorState, errors: Memo<FieldErrors>) -> impl IntoView {
    // A number that is not a number in the user's locale is an error at once, at the field.
    let typed = move |field: &str| match field {
        "quantity" => Some(row.quantity),
        "unit_price" => Some(row.unit_price),
        "net_total" => Some(row.net_total),
        _ => None,
    };
    let live = move |field: &'static str| {
        typed(field).and_then(|s| s.with(|t| parse_typed(t).err().map(|e| localized_message(&e))))
    };
    let err = move |field: &'static str| {
        move || {
            errors
                .with(|e| field_message(e, field))
                .or_else(|| live(field))
        }
    };
    let invalid = move |field: &'static str| {
        move || (errors.with(|e| e.contains_key(field)) || live(field).is_some()).then_some("true")
    };
    let lump = Memo::new(move |_| row.is_lump_sum());
    let net = Memo::new(move |_| state.currency.with(|c| item_net_total(&row.amounts(), c)));
    let net_cell = move || {
        if lump.get() {
            view! {
                <input class="pe-number" inputmode="decimal" aria-label=t().position_editor().lump_sum placeholder=t().position_editor().lump_sum data-field="net_total" data-last-cell bind:value=row.net_total aria-invalid=invalid("net_total") />
                <p class="cell-error">{err("net_total")}</p>
            }
            .into_any()
        } else {
            // `None`: quantity × unit price does not fit a number (too large to show).
            view! { <span>{move || state.currency.with(|c| net.get().map(|n| format_money(n, c)).unwrap_or_else(|| "—".into()))}</span> }
                .into_any()
        }
    };
    view! {
        <td class="pe-text">
            <input class="pe-title" list="pe-articles" autocomplete="off" aria-label=t().position_editor().title placeholder=t().position_editor().title data-field="title" data-first-cell bind:value=row.title aria-invalid=invalid("title") />
            <textarea class="pe-desc" rows="1" aria-label=t().position_editor().description placeholder=t().position_editor().description data-field="description" bind:value=row.description></textarea>
            <p class="cell-error">{err("title")}</p>
            <p class="pe-billed">{move || row.billed_note()}</p>
            <p class="cell-error">{err("activity_ids")}{err("expense_ids")}</p>
        </td>
        <td class="pe-qty">
            <input class="pe-number" inputmode="decimal" aria-label=t().position_editor().quantity data-field="quantity" bind:value=row.quantity aria-invalid=invalid("quantity") />
            <p class="cell-error">{err("quantity")}</p>
        </td>
        <td class="pe-unit">
            <input aria-label=t().position_editor().unit placeholder=t().position_editor().unit_placeholder data-field="unit" bind:value=row.unit />
        </td>
        <td class="pe-price">
            <input class="pe-number" inputmode="decimal" aria-label=t().position_editor().unit_price data-field="unit_price" data-last-cell bind:value=row.unit_price aria-invalid=invalid("unit_price") />
            <p class="cell-error">{err("unit_price")}</p>
        </td>
        <td class="pe-vat">
            <VatCell row=row document=state.document_vat />
            <p class="cell-error">{err("tax")}{err("tax_category")}</p>
            <Show when=move || row.vat.with(PositionVat::needs_reason)>
                <input class="pe-reason" aria-label=t().position_editor().exemption_reason placeholder=t().position_editor().reason title=t().position_editor().exemption_reason_required data-field="tax_exemption_reason"
                    bind:value=row.exemption_reason aria-invalid=invalid("tax_exemption_reason") />
            </Show>
            <p class="cell-error">{err("tax_exemption_reason")}</p>
        </td>
        <td class="pe-net money" data-cell="net">{net_cell}</td>
    }
}

/// The VAT menu of an item row. The options are built once; only the default's label
/// follows the document's VAT. A stored rate that is no menu choice (e.g. 16 %) is an
/// extra option.
#[component]
fn VatCell(
    /// The row.
    row: PositionRow,
    /// The document's VAT.
    document: Signal<VatChoice>,
) -> impl IntoView {
    let initial = row.vat.get_untracked();
    let mut choices = PositionVat::choices().to_vec();
    if !choices.contains(&initial) {
        choices.push(initial);
    }
    view! {
        <select
            class="pe-vat-select"
            aria-label=t().position_editor().vat
            data-field="tax"
            // Follows the row when it is set from elsewhere (an article picked, issue 33).
            prop:value=move || row.vat.with(PositionVat::value)
            on:change=move |ev| {
                if let Some(vat) = PositionVat::parse(&event_target_value(&ev)) {
                    row.vat.set(vat);
                }
            }
        >
            {choices
                .into_iter()
                .map(|c| {
                    let label = move || document.with(|d| c.label(d));
                    view! { <option value=c.value() selected=c == initial>{label}</option> }
                })
                .collect_view()}
        </select>
    }
}
