//! The invoice form's kind — invoice, down-payment invoice or final invoice — and, for a
//! final invoice, the customer's down payments it deducts (issue 33; the rules are
//! `kontor_model::down_payment`'s, checked again by the server).

use crate::api::invoices::list_invoices;
use crate::components::date::format_date;
use crate::components::invoice_form_state::InvoiceFormState;
use crate::components::money::format_money;
use crate::i18n::{fill, t};
use kontor_model::down_payment::InvoiceKind;
use kontor_model::error::FieldErrors;
use kontor_model::invoice::InvoiceRow;
use kontor_model::query::{InvoiceFilter, Paging};
use kontor_model::status::InvoiceStatus;
use kontor_model::Decimal;
use leptos::prelude::*;

/// The words of an invoice kind.
pub fn kind_label(kind: InvoiceKind) -> &'static str {
    let f = t().invoice_form();
    match kind {
        InvoiceKind::Standard => f.kind_standard,
        InvoiceKind::DownPayment => f.kind_down_payment,
        InvoiceKind::Final => f.kind_final,
    }
}

/// The down payments of `customer` a final invoice (`editing`, when it is a stored
/// draft) may deduct: finalized, not reversed, not deducted by another final invoice
/// (the first 100, newest first; none when loading fails).
async fn deductible(customer: i64, editing: Option<i64>) -> Vec<InvoiceRow> {
    let filter = InvoiceFilter {
        company_id: Some(customer),
        paging: Paging {
            per_page: Some(100),
            ..Default::default()
        },
        ..Default::default()
    };
    list_invoices::<InvoiceRow>(&filter)
        .await
        .map(|p| p.items)
        .unwrap_or_default()
        .into_iter()
        .filter(|r| {
            r.kind == InvoiceKind::DownPayment
                && r.status != InvoiceStatus::Draft
                && !r.reversed
                && r.final_invoice_id.is_none_or(|f| Some(f) == editing)
        })
        .collect()
}

/// The kind select and, for a final invoice, the down payments to deduct with the sum
/// deducted.
#[component]
pub fn KindFields(
    /// The form state.
    state: InvoiceFormState,
    /// Field errors by path.
    errors: RwSignal<FieldErrors>,
    /// The draft being edited, if any (its own down payments stay pickable).
    editing: Option<i64>,
) -> impl IntoView {
    let candidates = LocalResource::new(move || {
        let (customer, kind) = (state.customer_id.get(), state.kind.get());
        async move {
            match customer {
                Some(id) if kind == InvoiceKind::Final => deductible(id, editing).await,
                _ => Vec::new(),
            }
        }
    });
    let on_kind = move |ev: leptos::ev::Event| {
        let kind = InvoiceKind::parse(&event_target_value(&ev)).unwrap_or_default();
        state.kind.set(kind);
        if kind != InvoiceKind::Final {
            state.down_payment_ids.set(Vec::new());
        }
    };
    let error = move || {
        errors.with(|e| {
            e.iter()
                .filter(|(k, _)| k.starts_with("down_payment_invoice_ids"))
                .flat_map(|(_, v)| v.iter().map(|m| m.to_string()))
                .collect::<Vec<_>>()
                .join(" ")
        })
    };
    let picks = move || {
        let rows = candidates.get().unwrap_or_default();
        if state.customer_id.get().is_none() {
            return view! { <p class="muted">{t().invoice_form().pick_customer_first}</p> }
                .into_any();
        }
        if rows.is_empty() {
            return view! { <p class="muted" id="no-down-payments">{t().invoice_form().no_down_payments}</p> }.into_any();
        }
        let sum: Decimal = rows
            .iter()
            .filter(|r| state.down_payment_ids.with(|ids| ids.contains(&r.id)))
            .map(|r| r.gross_total)
            .sum();
        let currency = rows[0].currency.clone();
        view! {
            <ul class="down-payment-picks">
                {rows.into_iter().map(|r| {
                    let id = r.id;
                    let label = format!(
                        "{} · {} · {}",
                        r.identifier.clone().unwrap_or_default(),
                        format_date(r.date),
                        format_money(r.gross_total, &r.currency)
                    );
                    view! {
                        <li><label class="choice">
                            <input type="checkbox" data-down-payment=id.to_string()
                                prop:checked=move || state.down_payment_ids.with(|ids| ids.contains(&id))
                                on:change=move |ev| {
                                    let on = event_target_checked(&ev);
                                    state.down_payment_ids.update(|ids| {
                                        ids.retain(|i| *i != id);
                                        if on { ids.push(id); }
                                    });
                                } />
                            <span class="choice-text">{label}</span>
                        </label></li>
                    }
                }).collect_view()}
            </ul>
            <p class="field-hint" id="deducted-sum">
                {fill(t().invoice_form().deducted_sum, &[("amount", &format_money(sum, &currency))])}
            </p>
        }
        .into_any()
    };
    view! {
        <section class="form-section" aria-labelledby="sec-kind">
            <h2 class="section-title" id="sec-kind">{t().invoice_form().kind}</h2>
            <div class="field">
                <label for="f-kind">{t().invoice_form().kind}</label>
                <select id="f-kind" on:change=on_kind>
                    {InvoiceKind::ALL.into_iter().map(|k| view! {
                        <option value=k.as_str() selected=move || state.kind.get() == k>{kind_label(k)}</option>
                    }).collect_view()}
                </select>
            </div>
            {move || (state.kind.get() == InvoiceKind::Final).then(|| view! {
                <fieldset class="field choice-group" id="f-down_payment_invoice_ids" tabindex="-1">
                    <legend>{t().invoice_form().deduct_down_payments}</legend>
                    <Transition fallback=|| ()>{picks}</Transition>
                    <p class="field-error">{error}</p>
                </fieldset>
            })}
        </section>
    }
}
