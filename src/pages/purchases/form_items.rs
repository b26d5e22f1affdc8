//! The positions editor of the purchase form: a table with title, total, tax %, a
//! "tax included" toggle and the live net / tax / gross of every row and of the sum
//! (`purchase_position_totals` / `sum_purchase_totals` through the form state). Enter in
//! the last cell adds a row.

use super::form_state::{PurchaseFormState, PurchaseRow};
use crate::components::field::field_message;
use crate::components::locale::parse_typed;
use crate::components::money::format_money;
use crate::i18n::t;
use kontor_model::error::FieldErrors;
use leptos::prelude::*;

/// The positions table with its totals.
#[component]
pub fn PurchaseItems(
    /// The form state (rows and currency).
    state: PurchaseFormState,
    /// Field errors (`items[i].total`, ...).
    errors: RwSignal<FieldErrors>,
) -> impl IntoView {
    let tx = t().purchase_items();
    let money = move |amount| state.currency.with(|c| format_money(amount, c));
    let add_after_enter = move |ev: web_sys::KeyboardEvent, key: u64| {
        let last = state.rows.with_untracked(|r| r.last().map(|l| l.key)) == Some(key);
        if ev.key() == "Enter" && last {
            ev.prevent_default();
            let new_key = state.add_row();
            request_animation_frame(move || {
                if let Some(el) = document().get_element_by_id(&format!("item-title-{new_key}")) {
                    let _ =
                        wasm_bindgen::JsCast::unchecked_into::<web_sys::HtmlElement>(el).focus();
                }
            });
        }
    };
    let row_view = move |row: PurchaseRow| {
        let key = row.key;
        let index = move || {
            state
                .rows
                .with(|r| r.iter().position(|x| x.key == key).unwrap_or(0))
        };
        // A number not written as the user's locale writes numbers is an error at once.
        let live = move |name: &str| match name {
            "total" => row
                .total
                .with(|t| parse_typed(t).err())
                .map(|e| crate::components::field::localized_message(&e)),
            "tax" => row
                .tax
                .with(|t| parse_typed(t).err())
                .map(|e| crate::components::field::localized_message(&e)),
            _ => None,
        };
        let err = move |name: &'static str| {
            move || {
                errors
                    .with(|e| field_message(e, &format!("items[{}].{name}", index())))
                    .or_else(|| live(name))
            }
        };
        let cell = move |f: fn(
            &kontor_model::purchase_totals::PurchaseAmounts,
        ) -> kontor_model::Decimal| {
            move || {
                state
                    .currency
                    .with(|c| row.amounts(c))
                    .map(|a| money(f(&a)))
                    .unwrap_or_else(|| "–".into())
            }
        };
        view! {
            <tr class="purchase-row" data-key=key.to_string()>
                <td>
                    <input id=format!("item-title-{key}") class="item-title" aria-label=tx.title bind:value=row.title />
                    <span class="field-error">{err("title")}</span>
                </td>
                <td>
                    <input class="input-number item-total" inputmode="decimal" aria-label=tx.amount bind:value=row.total />
                    <span class="field-error">{err("total")}</span>
                </td>
                <td>
                    <input class="input-number item-tax" inputmode="decimal" aria-label=tx.vat_rate bind:value=row.tax />
                    <span class="field-error">{err("tax")}</span>
                </td>
                <td class="center">
                    <input type="checkbox" class="item-included" aria-label=tx.incl_vat_label bind:checked=row.tax_included
                        on:keydown=move |ev| add_after_enter(ev, key) />
                </td>
                <td class="num money item-net">{cell(|a| a.net_total)}</td>
                <td class="num money item-tax-total">{cell(|a| a.tax_total)}</td>
                <td class="num money item-gross">{cell(|a| a.gross_total)}</td>
                <td class="num">
                    <button type="button" class="btn btn-small btn-quiet" aria-label=tx.remove
                        disabled=move || state.rows.with(|r| r.len() <= 1)
                        on:click=move |_| state.remove_row(key)>"×"</button>
                </td>
            </tr>
        }
    };
    view! {
        <table class="table purchase-editor">
            <thead><tr>
                <th scope="col">{tx.title}</th><th scope="col">{tx.amount}</th><th scope="col">{tx.vat_rate}</th>
                <th scope="col">{tx.incl_vat}</th><th scope="col" class="num">{tx.net}</th><th scope="col" class="num">{tx.vat}</th>
                <th scope="col" class="num">{tx.gross}</th><th scope="col"><span class="visually-hidden">{tx.actions}</span></th>
            </tr></thead>
            <tbody>
                <For each=move || state.rows.get() key=|r| r.key children=row_view />
            </tbody>
            <tfoot><tr>
                <th scope="row" colspan="4">
                    <button type="button" class="btn btn-small" id="add-item" on:click=move |_| { state.add_row(); }>{tx.add}</button>
                </th>
                <td class="num money" id="sum-net">{move || state.totals().map(|t| money(t.net_total)).unwrap_or_else(|| "—".into())}</td>
                <td class="num money" id="sum-tax">{move || state.totals().map(|t| money(t.tax_total)).unwrap_or_else(|| "—".into())}</td>
                <td class="num money" id="sum-gross"><strong>{move || state.totals().map(|t| money(t.gross_total)).unwrap_or_else(|| "—".into())}</strong></td>
                <td></td>
            </tr></tfoot>
        </table>
    }
}
