//! The time sheet and expenses tabs: what the invoice billed. The time sheet shows its
//! total hours and offers its PDF; without billed hours it says so.

use crate::api::invoice_documents::{
    get_invoice_expenses, get_invoice_timesheet, get_invoice_timesheet_pdf,
};
use crate::components::date::format_date;
use crate::components::error_panel::ErrorPanel;
use crate::components::locale::format_input;
use crate::components::money::format_money;
use crate::components::pdf_preview::{PdfDoc, PdfDownload, PdfFrame};
use crate::components::skeleton::SkeletonBlock;
use crate::components::task::load_once;
use crate::i18n::{fill, t};
use kontor_model::billing::{Activity, Expense};
use kontor_model::Decimal;
use leptos::prelude::*;

/// The total hours of `activities`.
pub fn total_hours(activities: &[Activity]) -> Decimal {
    activities.iter().map(|a| a.hours).sum()
}

/// `1,5 h` (German `1,5 Std.`): the hours as the user writes numbers.
fn hours(d: Decimal) -> String {
    fill(
        t().invoice_detail_billed().hours_value,
        &[("hours", &format_input(d.normalize()))],
    )
}

fn activity_rows(list: &[Activity], currency: &str) -> impl IntoView {
    list.iter()
        .map(|a| {
            let who = a
                .user
                .as_ref()
                .map(|u| format!("{} {}", u.firstname, u.lastname))
                .unwrap_or_default();
            view! {
                <tr>
                    <td class="cell-date">{format_date(a.date)}</td>
                    <td>{a.description.clone()}</td>
                    <td>{who}</td>
                    <td class="num">{hours(a.hours)}</td>
                    <td class="num money">{format_money(a.hourly_rate, currency)}</td>
                    <td class="num money">{a.hours.checked_mul(a.hourly_rate).map(|v| format_money(v, currency)).unwrap_or_else(|| "—".into())}</td>
                </tr>
            }
        })
        .collect_view()
}

/// The activities billed by the invoice, their total and the time sheet PDF.
#[component]
pub fn TimeSheetTab(
    /// The invoice id.
    invoice_id: i64,
    /// The invoice's currency.
    currency: String,
    /// The invoice number for the file name.
    identifier: Option<String>,
) -> impl IntoView {
    let sheet = load_once(get_invoice_timesheet(invoice_id));
    let doc = PdfDoc::new();
    let shown = RwSignal::new(false);
    let show_pdf = move |_| {
        shown.set(true);
        doc.load(Box::pin(get_invoice_timesheet_pdf(invoice_id)));
    };
    let texts = t().invoice_detail_billed();
    let file_name = StoredValue::new(fill(
        texts.pdf_file,
        &[(
            "name",
            &identifier.unwrap_or_else(|| t().invoice_detail().draft_name.into()),
        )],
    ));
    let currency = StoredValue::new(currency);
    view! {
        {move || {
                match sheet.get() {
                    None => view! { <SkeletonBlock lines=4 /> }.into_any(),
                    Some(Err(e)) => view! { <ErrorPanel error=e /> }.into_any(),
                    Some(Ok(list)) if list.is_empty() => view! { <p class="muted">{texts.no_hours}</p> }.into_any(),
                    Some(Ok(list)) => {
                        let total = total_hours(&list);
                        view! {
                            <table class="table">
                                <thead><tr>
                                    <th scope="col">{texts.date}</th><th scope="col">{texts.description}</th><th scope="col">{texts.who}</th>
                                    <th scope="col" class="num">{texts.hours}</th><th scope="col" class="num">{texts.rate}</th><th scope="col" class="num">{texts.amount}</th>
                                </tr></thead>
                                <tbody>{currency.with_value(|c| activity_rows(&list, c))}</tbody>
                                <tfoot><tr class="total-row">
                                    <th scope="row" colspan="3">{texts.total}</th>
                                    <td class="num" data-total="hours">{hours(total)}</td>
                                    <td colspan="2"></td>
                                </tr></tfoot>
                            </table>
                            <div class="doc-toolbar">
                                <Show when=move || !shown.get()>
                                    <button type="button" class="btn" on:click=show_pdf>{texts.show_pdf}</button>
                                </Show>
                                <PdfDownload doc=doc file_name=file_name.get_value() label=texts.download_pdf />
                            </div>
                            <Show when=move || shown.get()>
                                <PdfFrame doc=doc title=texts.pdf_title.to_string() />
                            </Show>
                        }
                        .into_any()
                    }
                }
            }}
    }
}

fn expense_row(e: &Expense) -> impl IntoView {
    view! {
        <tr>
            <td class="cell-date">{format_date(e.date)}</td>
            <td>{e.title.clone()}</td>
            <td class="num">{format_input(e.quantity.normalize())}</td>
            <td>{e.unit.clone()}</td>
            <td class="num money">{format_money(e.unit_price, &e.currency)}</td>
            <td class="num money">{format_money(e.price, &e.currency)}</td>
        </tr>
    }
}

/// The project expenses billed by the invoice.
#[component]
pub fn ExpensesTab(
    /// The invoice id.
    invoice_id: i64,
) -> impl IntoView {
    let expenses = load_once(get_invoice_expenses(invoice_id));
    let texts = t().invoice_detail_billed();
    view! {
        {move || {
                match expenses.get() {
                    None => view! { <SkeletonBlock lines=4 /> }.into_any(),
                    Some(Err(e)) => view! { <ErrorPanel error=e /> }.into_any(),
                    Some(Ok(list)) if list.is_empty() => view! { <p class="muted">{texts.no_expenses}</p> }.into_any(),
                    Some(Ok(list)) => view! {
                        <table class="table">
                            <thead><tr>
                                <th scope="col">{texts.date}</th><th scope="col">{texts.expense}</th><th scope="col" class="num">{texts.quantity}</th>
                                <th scope="col">{texts.unit}</th><th scope="col" class="num">{texts.unit_price}</th><th scope="col" class="num">{texts.price}</th>
                            </tr></thead>
                            <tbody>{list.iter().map(expense_row).collect_view()}</tbody>
                        </table>
                    }
                    .into_any(),
                }
            }}
    }
}
