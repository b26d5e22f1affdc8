//! The recurring invoice form's state: the invoice fields (the shared
//! [`InvoiceFormState`]) plus the schedule (interval, next date, end date, payment term,
//! mode), turned into a [`NewRecurringInvoice`] body; and where each error of a 422 or of
//! validation is shown.
//!
//! The template carries no dates: each run sets the invoice date, the due date (after the
//! customer's payment term) and the service period (the run's period), so the form shows
//! the schedule instead of the invoice form's dates (`docs/decisions.md` § Recurring
//! invoices in the app). Validation is the model's [`validate_recurring`].

use crate::api::recurring::{Interval, NewRecurringInvoice, RecurringInvoice, RecurringMode};
use crate::components::date::{iso, parse_iso};
use crate::components::form_summary::{summarize, Form, SummaryEntry};
use crate::components::invoice_form_state::{InvoiceFormState, TypedInvoice};
use crate::components::locale::format_input;
use crate::components::position_editor::{split_row_errors, PositionRow};
use crate::i18n::t;
use kontor_model::error::{push_error, FieldErrors};
use kontor_model::invoice_input::{NewInvoice, NewInvoiceItem};
use kontor_model::position::PositionType;
use kontor_model::recurring::validate_recurring;
use kontor_model::status::InvoiceStatus;
use kontor_model::Decimal;
use leptos::prelude::*;
use std::collections::HashMap;

/// All fields of the recurring invoice form (Copy: signal handles).
#[derive(Clone, Copy)]
pub struct RecurringFormState {
    /// The invoice template's fields (its dates are not shown: the schedule sets them).
    pub invoice: InvoiceFormState,
    /// Interval.
    pub interval: RwSignal<Interval>,
    /// Next invoice date `YYYY-MM-DD` as typed.
    pub next_date: RwSignal<String>,
    /// Last invoice date `YYYY-MM-DD` as typed (empty: no end).
    pub end_date: RwSignal<String>,
    /// What the job does with each invoice.
    pub mode: RwSignal<RecurringMode>,
}

impl RecurringFormState {
    /// A new schedule: monthly, next date the first of next month, drafts, one empty item.
    pub fn blank(currency: &str, today: chrono::NaiveDate) -> Self {
        let invoice = InvoiceFormState::blank(currency);
        let next = first_of_next_month(today).map(iso).unwrap_or_default();
        RecurringFormState {
            invoice,
            interval: RwSignal::new(Interval::Monthly),
            next_date: RwSignal::new(next),
            end_date: RwSignal::new(String::new()),
            mode: RwSignal::new(RecurringMode::Draft),
        }
    }

    /// The state of a stored schedule.
    pub fn from_record(record: &RecurringInvoice) -> Self {
        let t = &record.template;
        let s = Self::blank(t.currency.as_deref().unwrap_or("EUR"), record.next_date);
        fill_from_template(&s.invoice, t);
        s.interval.set(record.interval);
        s.next_date.set(iso(record.next_date));
        s.end_date.set(record.end_date.map(iso).unwrap_or_default());
        s.mode.set(record.mode);
        s
    }

    /// The creation body, plus errors for texts that are not numbers or dates (keyed like
    /// the form's fields: `tax`, `items[0].quantity`, `next_date`).
    pub fn body(&self) -> (NewRecurringInvoice, FieldErrors) {
        let (mut template, mut errors) = self.invoice.body(InvoiceStatus::Created);
        let next = self.next_date.with_untracked(|t| parse_iso(t));
        let end_text = self.end_date.get_untracked();
        let end = parse_iso(&end_text);
        if !end_text.trim().is_empty() && end.is_none() {
            push_error(
                &mut errors,
                "end_date",
                kontor_model::error::Message::verbatim(t().recurring_form().must_be_date),
            );
        }
        template.status = None;
        template.date = None;
        template.due_date = None;
        template.service_period_from = None;
        template.service_period_to = None;
        let body = NewRecurringInvoice {
            template: Some(template),
            interval: Some(self.interval.get_untracked()),
            next_date: next,
            end_date: end,
            mode: Some(self.mode.get_untracked()),
        };
        (body, errors)
    }

    /// Everything wrong with the form before it is sent, keyed like the form's fields:
    /// what was typed but is no number or date, and the model's [`validate_recurring`] (the
    /// invoice creation rules on the template, the schedule's fields).
    pub fn validate(&self, currencies: &[String]) -> (NewRecurringInvoice, FieldErrors) {
        let (body, mut errors) = self.body();
        for (path, messages) in form_errors(validate_recurring(&body, currencies)) {
            for m in messages {
                push_error(&mut errors, &path, m);
            }
        }
        (body, errors)
    }

    /// A fingerprint of everything typed, to tell whether the form has unsaved changes.
    pub fn snapshot(&self) -> String {
        let (body, _) = self.body();
        serde_json::to_string(&body).unwrap_or_default()
    }
}

/// Errors keyed by the API (`template.items[0].title`, `template.date`, `next_date`)
/// moved to the form's fields: the template's fields lose the `template.` prefix; the
/// template's invoice and due dates are the run's, so their errors show at the next date;
/// `template` itself (missing) at the positions.
pub fn form_errors(errors: FieldErrors) -> FieldErrors {
    let mut out = FieldErrors::new();
    for (path, messages) in errors {
        let path = path.strip_prefix("template.").unwrap_or(&path).to_string();
        let path = match path.as_str() {
            "date" => "next_date".to_string(),
            "due_date" | "service_period_from" | "service_period_to" => "next_date".to_string(),
            "template" => "items".to_string(),
            _ => path,
        };
        for m in messages {
            push_error(&mut out, &path, m);
        }
    }
    out
}

/// Splits form errors into the document's fields and the positions' rows, and writes the
/// summary lines in the recurring form's words (`kontor_model::error::labels`,
/// [`Form::Recurring`]).
pub fn split_and_summarize(
    all: &FieldErrors,
    rows: &[PositionRow],
) -> (FieldErrors, HashMap<u64, FieldErrors>, Vec<SummaryEntry>) {
    let (fields, by_row) = split_row_errors(all, rows);
    let entries = summarize(Form::Recurring, &fields, &by_row, rows);
    (fields, by_row, entries)
}

/// The first day of the month after `date`.
pub fn first_of_next_month(date: chrono::NaiveDate) -> Option<chrono::NaiveDate> {
    use chrono::Datelike;
    let (y, m) = if date.month() == 12 {
        (date.year() + 1, 1)
    } else {
        (date.year(), date.month() + 1)
    };
    chrono::NaiveDate::from_ymd_opt(y, m, 1)
}

/// Fills the invoice fields from a stored template (a creation body).
fn fill_from_template(s: &InvoiceFormState, t: &NewInvoice) {
    let text = |v: &Option<String>| v.clone().unwrap_or_default();
    let num = |d: Option<Decimal>| {
        d.filter(|d| !d.is_zero())
            .map(|d| format_input(d.normalize()))
            .unwrap_or_default()
    };
    s.customer_id.set(t.customer_id);
    s.project_id.set(t.project_id);
    s.recipient_address.set(text(&t.recipient_address));
    s.title.set(text(&t.title));
    if let Some(tax) = t.tax {
        s.tax.set(format_input(tax.normalize()));
    }
    if let Some(c) = &t.currency {
        s.currency.set(c.clone());
    }
    s.reverse_charge.set(
        t.vat
            .as_ref()
            .and_then(|v| v.reverse_charge)
            .unwrap_or(false),
    );
    s.discount.set(num(t.discount));
    s.cash_discount.set(num(t.cash_discount));
    s.cash_discount_days.set(
        t.cash_discount_days
            .filter(|d| *d != 0)
            .map(|d| d.to_string())
            .unwrap_or_default(),
    );
    s.salutation.set(text(&t.salutation));
    s.footer.set(text(&t.footer));
    s.tags.set(t.tags.clone().unwrap_or_default().join(", "));
    let rows: Vec<PositionRow> = t.items.iter().flatten().map(row_from_template).collect();
    s.rows.set(rows);
    s.custom_properties
        .set(t.custom_properties.clone().unwrap_or_default());
    s.buyer_reference.set(text(&t.buyer_reference));
    s.payment_means.set(t.payment_means);
}

/// An editor row from a template position.
pub fn row_from_template(item: &NewInvoiceItem) -> PositionRow {
    let kind = item.kind.unwrap_or(PositionType::Item);
    let row = PositionRow::new(kind);
    let dec = |d: Option<Decimal>| d.map(|d| format_input(d.normalize())).unwrap_or_default();
    row.title.set(item.title.clone().unwrap_or_default());
    row.description
        .set(item.description.clone().unwrap_or_default());
    row.quantity.set(dec(item.quantity));
    row.unit.set(item.unit.clone().unwrap_or_default());
    row.unit_price.set(dec(item.unit_price));
    if kind == PositionType::Item && item.quantity.is_none() && item.unit_price.is_none() {
        row.net_total.set(dec(item.net_total));
    }
    row.set_vat(
        item.tax,
        item.tax_category,
        item.tax_exemption_reason.as_deref(),
    );
    row
}

/// The recurring invoice form as typed, for its local draft
/// ([`crate::components::local_draft`], issue 37 "Drafts never lost"): the template's
/// fields as the invoice form keeps them and the schedule as typed.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct TypedRecurring {
    /// The template's fields.
    pub invoice: TypedInvoice,
    /// Interval.
    pub interval: Option<Interval>,
    /// Next invoice date `YYYY-MM-DD` as typed.
    pub next_date: String,
    /// Last invoice date `YYYY-MM-DD` as typed.
    pub end_date: String,
    /// What the job does with each invoice.
    pub mode: Option<RecurringMode>,
}

impl RecurringFormState {
    /// Everything as typed.
    pub fn typed(&self) -> TypedRecurring {
        TypedRecurring {
            invoice: self.invoice.typed(),
            interval: Some(self.interval.get_untracked()),
            next_date: self.next_date.get_untracked(),
            end_date: self.end_date.get_untracked(),
            mode: Some(self.mode.get_untracked()),
        }
    }

    /// Fills every field from `typed` (a restored local draft).
    pub fn restore_typed(&self, typed: &TypedRecurring) {
        self.invoice.restore_typed(&typed.invoice);
        if let Some(interval) = typed.interval {
            self.interval.set(interval);
        }
        self.next_date.set(typed.next_date.clone());
        self.end_date.set(typed.end_date.clone());
        if let Some(mode) = typed.mode {
            self.mode.set(mode);
        }
    }
}
