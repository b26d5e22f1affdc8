//! The invoice before it is stored (issue 30: one constructor): what a creation body will
//! become, for the preview PDF (POST /invoices/preview.pdf), the e-invoice check before
//! finalizing, and creation itself — the customer's default texts, terms and VAT applied,
//! the recipient address defaulting to the customer's, the totals computed.

use crate::http::error::ApiResult;
use crate::state::AppState;
use kontor_model::account::DocumentKind;
use kontor_model::down_payment::InvoiceKind;
use kontor_model::invoice::{Invoice, InvoiceItem, Vat};
use kontor_model::invoice_input::NewInvoice;
use kontor_model::party::{Company, Language};
use kontor_model::status::InvoiceStatus;
use kontor_model::validation::position_input_totals;
use kontor_model::vat::{resolve_vat, VatChoice};

/// Fills an absent (or null) `salutation` / `footer` of `body` with the account's default
/// invoice texts in `language`, the customer's correspondence language (`docs/decisions.md`
/// § Default document texts (issue 9)); an explicit `""` stays empty. Used on creation,
/// on draft edits and by the preview, so the preview shows what is stored.
/// Errors: 500 when the account settings cannot be read.
pub async fn fill_default_texts(
    state: &AppState,
    body: &mut NewInvoice,
    language: Language,
) -> ApiResult<()> {
    if body.salutation.is_some() && body.footer.is_some() {
        return Ok(());
    }
    let settings = crate::account::repo::load(&state.pool).await?;
    let (salutation, footer) = settings
        .account
        .document_texts
        .defaults_for(language, DocumentKind::Invoice);
    body.salutation.get_or_insert(salutation);
    body.footer.get_or_insert(footer);
    Ok(())
}

/// Whether the customer's terms (payment days, payment means, discount — `docs/decisions.md`
/// § Books that stay whole (issue 29)) are applied to a body: only a new invoice gets them;
/// a draft edit keeps what its author set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CustomerTerms {
    /// A new invoice: absent terms come from the customer.
    Apply,
    /// A draft edit: the body's terms stand as sent.
    Keep,
}

/// The representation creation body `body` will have: the customer's default texts (and,
/// with [`CustomerTerms::Apply`], terms) applied to `body` (so the caller stores what was
/// shown), then [`unsaved`]. Errors: 422 when totals overflow; 500 on database failure.
pub async fn unsaved_invoice(
    state: &AppState,
    body: &mut NewInvoice,
    terms: CustomerTerms,
) -> ApiResult<Invoice> {
    let customer = match body.customer_id {
        Some(id) => crate::master_data::companies::find(&state.pool, id).await?,
        None => None,
    };
    if let Some(c) = &customer {
        fill_default_texts(state, body, c.language).await?;
        if terms == CustomerTerms::Apply {
            body.apply_customer_defaults(&c.invoice_defaults());
        }
    }
    let default_currency = crate::account::default_currency(&state.pool).await?;
    let mut invoice = unsaved(body.clone(), default_currency, customer.as_ref())?;
    // A final invoice shows the down payments it would deduct (issue 33); ones it may not
    // deduct leave the preview as it is (creation answers them with a 422).
    if let (Some(InvoiceKind::Final), Some(ids)) =
        (body.kind, body.down_payment_invoice_ids.as_deref())
    {
        let (customer_id, currency) = (invoice.customer_id, invoice.currency.clone());
        if let Ok(deductions) =
            super::down_payments::resolve(&state.pool, ids, customer_id, &currency, None).await
        {
            invoice.amount_due =
                kontor_model::down_payment::amount_due(invoice.gross_total, &deductions)
                    .unwrap_or(invoice.gross_total);
            invoice.deducted_down_payments = deductions;
        }
    }
    Ok(invoice)
}

/// The representation an unsaved creation body would get (for the preview and the
/// e-invoice finalize check); VAT flags the body leaves out come from the customer
/// (`customer_vat`), as on creation.
pub fn unsaved(
    body: NewInvoice,
    default_currency: String,
    customer: Option<&Company>,
) -> ApiResult<Invoice> {
    let currency = body.currency.clone().unwrap_or(default_currency);
    let document = resolve_vat(
        body.tax,
        body.vat.as_ref(),
        customer.map(|c| &c.customer_vat),
    );
    let VatChoice {
        tax,
        reverse_charge,
        intra_eu,
    } = document;
    let items = body.items.clone().unwrap_or_default();
    let totals = position_input_totals(&items, body.discount, &document, &currency)?;
    let today = crate::store::db::now();
    let date = body.date.unwrap_or(today.date_naive());
    Ok(Invoice {
        id: 0,
        customer_id: body.customer_id.unwrap_or_default(),
        customer: None,
        project_id: body.project_id,
        identifier: None,
        date,
        due_date: body.due_date.unwrap_or(date),
        service_period: None,
        service_period_from: body.service_period_from,
        service_period_to: body.service_period_to,
        status: InvoiceStatus::Draft,
        reversed: false,
        reversal_invoice_id: None,
        reversal: false,
        reversed_invoice_id: None,
        credit_note: false,
        credited_invoice_id: None,
        credit_notes: None,
        kind: body.kind.unwrap_or_default(),
        deducted_down_payments: Vec::new(),
        amount_due: totals.gross_total,
        final_invoice_id: None,
        offer_id: body.offer_id,
        title: body.title.unwrap_or_default(),
        recipient_address: body
            .recipient_address
            .or_else(|| customer.map(Company::recipient_address))
            .unwrap_or_default(),
        currency,
        net_total: totals.net_total,
        tax,
        vat: Vat {
            tax,
            reverse_charge,
            intra_eu,
        },
        tax_breakdown: totals.tax_breakdown(),
        gross_total: totals.gross_total,
        open_amount: kontor_model::Decimal::ZERO,
        discount: body.discount.unwrap_or_default(),
        cash_discount: body.cash_discount.unwrap_or_default(),
        cash_discount_days: body.cash_discount_days.unwrap_or_default(),
        debit_number: None,
        payment_reference: None,
        credit_number: None,
        locked: false,
        activity_hours_modified: false,
        salutation: body.salutation.map(|s| crate::input::sanitize::html(&s)),
        footer: body.footer.map(|s| crate::input::sanitize::html(&s)),
        custom_properties: Default::default(),
        tags: Vec::new(),
        buyer_reference: body
            .buyer_reference
            .as_deref()
            .and_then(kontor_model::account::clean),
        payment_means: body.payment_means,
        file_url: None,
        user: None,
        items: Some(
            items
                .into_iter()
                .zip(totals.positions)
                .map(|(i, net)| InvoiceItem {
                    id: 0,
                    tax: i.tax,
                    tax_category: i.tax_category,
                    tax_exemption_reason: i.tax_exemption_reason,
                    kind: i.kind.unwrap_or(kontor_model::position::PositionType::Item),
                    title: i.title.unwrap_or_default(),
                    description: i.description.map(|d| crate::input::sanitize::html(&d)),
                    quantity: i.quantity,
                    unit: i.unit,
                    unit_price: i.unit_price,
                    net_total: net,
                    activity_ids: i.activity_ids.unwrap_or_default(),
                    expense_ids: i.expense_ids.unwrap_or_default(),
                })
                .collect(),
        ),
        payments: None,
        reminders: None,
        created_at: today,
        updated_at: today,
    })
}
