//! The logic behind the payment and reminder dialogs, without any view: the open amount,
//! when reminders are offered, and turning the typed texts into request bodies (or field
//! errors named like the server's).

use crate::components::date::parse_iso;
use kontor_model::error::{push_error, FieldErrors};
use kontor_model::invoice::Invoice;
use kontor_model::money::{minor_units, parse_amount, round_money};
use kontor_model::payment::{NewPayment, NewReminder};
use kontor_model::status::{can_record_payment, InvoiceStatus};
use kontor_model::Decimal;

/// The sum of the invoice's payments.
pub fn paid_amount(invoice: &Invoice) -> Decimal {
    invoice
        .payments
        .iter()
        .flatten()
        .map(|p| p.paid_total)
        .sum()
}

/// What is still to be paid: gross total − payments, at the currency's places, never
/// below zero (`119.00` gross, `50` paid → `69.00`).
pub fn open_amount(invoice: &Invoice) -> Decimal {
    let open = round_money(
        invoice.gross_total - paid_amount(invoice),
        &invoice.currency,
    );
    open.max(round_money(Decimal::ZERO, &invoice.currency))
}

/// Whether a reminder makes sense: a final invoice that is not paid, reversed or itself
/// a reversal.
pub fn can_remind(invoice: &Invoice) -> bool {
    can_record_payment(invoice.status)
        && invoice.status != InvoiceStatus::Paid
        && !invoice.reversed
        && !invoice.reversal
}

fn amount(
    errors: &mut FieldErrors,
    field: &str,
    text: &str,
    currency: &str,
    positive: bool,
) -> Option<Decimal> {
    let Some(value) = parse_amount(text) else {
        let message = if text.trim().is_empty() {
            "is required"
        } else {
            "must be a number"
        };
        push_error(errors, field, message);
        return None;
    };
    let places = minor_units(currency);
    if positive && value <= Decimal::ZERO {
        push_error(errors, field, "must be greater than 0");
    } else if value < Decimal::ZERO {
        push_error(errors, field, "must not be negative");
    } else if value.normalize().scale() > places {
        push_error(
            errors,
            field,
            format!("must have at most {places} decimal places in {currency}"),
        );
    }
    Some(value)
}

fn parse_date(errors: &mut FieldErrors, field: &str, text: &str) -> Option<chrono::NaiveDate> {
    let parsed = parse_iso(text);
    if parsed.is_none() {
        push_error(errors, field, "is required");
    }
    parsed
}

/// The payment body from the dialog's texts, or the field errors (`date`, `paid_total`).
pub fn payment_body(
    invoice_id: i64,
    currency: &str,
    date_text: &str,
    amount_text: &str,
) -> Result<NewPayment, FieldErrors> {
    let mut errors = FieldErrors::new();
    let date = parse_date(&mut errors, "date", date_text);
    let paid_total = amount(&mut errors, "paid_total", amount_text, currency, true);
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(NewPayment {
        invoice_id: Some(invoice_id),
        date,
        paid_total,
        currency: Some(currency.to_string()),
    })
}

/// The reminder body from the dialog's texts (plain text becomes simple HTML), or the
/// field errors (`date`, `due_date`, `fee`).
pub fn reminder_body(
    invoice_id: i64,
    currency: &str,
    date_text: &str,
    due_text: &str,
    fee_text: &str,
    text: &str,
) -> Result<NewReminder, FieldErrors> {
    let mut errors = FieldErrors::new();
    let date = parse_date(&mut errors, "date", date_text);
    let due_date = parse_date(&mut errors, "due_date", due_text);
    if let (Some(d), Some(due)) = (date, due_date) {
        if due < d {
            push_error(
                &mut errors,
                "due_date",
                "must not be before the reminder date",
            );
        }
    }
    let fee = if fee_text.trim().is_empty() {
        Some(Decimal::ZERO)
    } else {
        amount(&mut errors, "fee", fee_text, currency, false)
    };
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(NewReminder {
        invoice_id: Some(invoice_id),
        date,
        due_date,
        fee,
        text: Some(text_to_html(text)),
    })
}

/// Plain text as simple HTML: special characters escaped, blank lines separate
/// paragraphs, single line breaks become `<br>`.
pub fn text_to_html(text: &str) -> String {
    let escaped = text
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace("\r\n", "\n");
    escaped
        .split("\n\n")
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|p| format!("<p>{}</p>", p.replace('\n', "<br>")))
        .collect()
}
