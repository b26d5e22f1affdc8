//! The invoice table: one row per invoice; the whole row opens the invoice, and the
//! number cell is a real link for the keyboard. Headers sort the list (`sort`/`order` in
//! the URL); the open amount is the server's `open_amount`.

use crate::components::date::format_date;
use crate::components::money::format_money;
use crate::components::row_link::open_row;
use crate::components::sort_header::{Column, ListHead, ListSort};
use crate::components::status_badge::StatusBadge;
use crate::i18n::t;
use crate::paths::href;
use kontor_model::invoice::InvoiceRow;
use leptos::prelude::*;
use leptos_router::hooks::use_navigate;

/// The columns in the user's language; the sortable ones carry their key of
/// `kontor_model::query::INVOICE_SORTS`.
pub fn columns() -> Vec<Column> {
    let l = t().list();
    vec![
        Column::sorted(l.number, "identifier", "col-number"),
        Column::sorted(l.customer, "customer", "col-party"),
        Column::plain(l.title, "col-title"),
        Column::sorted(l.date, "date", "col-date"),
        Column::sorted(l.due, "due_date", "col-date"),
        Column::plain(l.status, "col-status"),
        Column::amount(l.gross_total, "gross_total", "col-amount"),
        Column::amount(l.open, "open_amount", "col-amount"),
    ]
}

/// Column headings (also used by the loading skeleton).
pub fn headings() -> Vec<&'static str> {
    columns().into_iter().map(|c| c.label).collect()
}

/// The table of `invoices`; each row names its customer (`customer.name` from the list).
#[component]
pub fn InvoiceTable(
    /// The invoices of this page.
    invoices: Vec<InvoiceRow>,
    /// The sort in effect (from the URL).
    #[prop(into)]
    sort: Signal<Option<ListSort>>,
    /// Called with the sort a header click asks for.
    on_sort: Callback<ListSort>,
) -> impl IntoView {
    let navigate = use_navigate();
    view! {
        <div class="table-wrap">
            <table class="table table-links list-table invoices-table">
                <ListHead columns=columns() current=sort on_sort=on_sort />
                <tbody>
                    {invoices
                        .into_iter()
                        .map(|invoice| {
                            let path = format!("/invoices/{}", invoice.id);
                            let open = open_row(navigate.clone(), path);
                            let customer = invoice.customer.as_ref().map(|c| c.name.clone()).unwrap_or_else(|| format!("#{}", invoice.customer_id));
                            let customer_title = customer.clone();
                            let number = invoice.identifier.clone().unwrap_or_else(|| t().status().draft.into());
                            let status = invoice.status;
                            let is_draft = invoice.identifier.is_none();
                            view! {
                                <tr on:click=open data-id=invoice.id.to_string()>
                                    <td class="cell-number">
                                        <a href=href(&format!("/invoices/{}", invoice.id)) class:is-draft=is_draft>{number}</a>
                                    </td>
                                    <td class="cell-customer" title=customer_title>
                                        <span class="cell-main">{customer}</span>
                                        <span class="cell-sub">{invoice.title.clone()}</span>
                                    </td>
                                    <td class="cell-title" title=invoice.title.clone()>{invoice.title.clone()}</td>
                                    <td class="cell-date">{format_date(invoice.date)}</td>
                                    <td class="cell-date">{format_date(invoice.due_date)}</td>
                                    <td>
                                        <StatusBadge status=status reversed=invoice.reversed />
                                    </td>
                                    <td class="num money" data-cell="gross">{format_money(invoice.gross_total, &invoice.currency)}</td>
                                    <td class="num money" data-cell="open">{format_money(invoice.open_amount, &invoice.currency)}</td>
                                </tr>
                            }
                        })
                        .collect_view()}
                </tbody>
            </table>
        </div>
    }
}
