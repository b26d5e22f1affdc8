//! The purchase table: one row per purchase; the whole row opens it, and the number cell
//! is a real link for the keyboard. Headers sort the list (`sort`/`order` in the URL).

use crate::components::date::{format_date, format_opt_date};
use crate::components::money::format_money;
use crate::components::row_link::open_row;
use crate::components::sort_header::{Column, ListHead, ListSort};
use crate::components::status_badge::Badge;
use crate::i18n::{status_label, t};
use crate::paths::href;
use kontor_model::purchase::{Purchase, PurchaseStatus};
use leptos::prelude::*;
use leptos_router::hooks::use_navigate;

/// The columns; the sortable ones carry their key of
/// `kontor_model::query::PURCHASE_SORTS`.
pub fn columns() -> Vec<Column> {
    let l = t().list();
    vec![
        Column::sorted(l.number, "identifier", "col-number"),
        Column::plain(l.receipt_no, "col-receipt"),
        Column::sorted(l.supplier, "supplier", "col-party"),
        Column::plain(l.title, "col-title"),
        Column::sorted(l.date, "date", "col-date"),
        Column::plain(l.due, "col-date"),
        Column::plain(l.status, "col-status"),
        Column::amount(l.gross_total, "gross_total", "col-amount"),
    ]
}

/// Column headings in the user's language (also used by the loading skeleton).
pub fn headings() -> Vec<&'static str> {
    columns().into_iter().map(|c| c.label).collect()
}

/// The badge of a purchase status (pending amber, approved green).
#[component]
pub fn PurchaseBadge(
    /// The status shown.
    status: PurchaseStatus,
) -> impl IntoView {
    view! { <Badge tone=status.as_str().to_string() label=status_label(status.as_str()) /> }
}

/// The table of `purchases`.
#[component]
pub fn PurchaseTable(
    /// The purchases of this page.
    purchases: Vec<Purchase>,
    /// The sort in effect (from the URL).
    #[prop(into)]
    sort: Signal<Option<ListSort>>,
    /// Called with the sort a header click asks for.
    on_sort: Callback<ListSort>,
) -> impl IntoView {
    let navigate = use_navigate();
    let rows = purchases
        .into_iter()
        .map(|p| {
            let path = format!("/purchases/{}", p.id);
            let link = href(&path);
            let open = open_row(navigate.clone(), path);
            let supplier = p
                .company
                .as_ref()
                .map(|c| c.name.clone())
                .unwrap_or_else(|| "–".into());
            view! {
                <tr on:click=open data-id=p.id.to_string()>
                    <td class="cell-number"><a href=link>{p.identifier.clone()}</a></td>
                    <td class="cell-receipt">{p.receipt_identifier.clone()}</td>
                    <td class="cell-customer" title=supplier.clone()>
                        <span class="cell-main">{supplier.clone()}</span>
                        <span class="cell-sub">{p.title.clone()}</span>
                    </td>
                    <td class="cell-title" title=p.title.clone()>{p.title.clone()}</td>
                    <td class="cell-date">{format_date(p.date)}</td>
                    <td class="cell-date">{format_opt_date(p.due_date)}</td>
                    <td><PurchaseBadge status=p.status /></td>
                    <td class="num money" data-cell="gross">{format_money(p.gross_total, &p.currency)}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <div class="table-wrap">
            <table class="table table-links list-table purchases-table">
                <ListHead columns=columns() current=sort on_sort=on_sort />
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
}
