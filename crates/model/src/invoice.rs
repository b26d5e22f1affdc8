//! The invoice representation (interface.md § Invoice) and its items.

use crate::dunning::Reminder;
use crate::party::{IdName, UserRef};
use crate::payment::Payment;
use crate::position::PositionType;
use crate::position_vat::{TaxBreakdown, TaxCategory};
use crate::status::InvoiceStatus;
use crate::totals::PositionAmounts;
use crate::vat::VatChoice;
use chrono::{DateTime, NaiveDate, Utc};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// VAT treatment of an invoice: `{tax, reverse_charge, intra_eu}`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Vat {
    /// Tax rate in percent (0 with reverse charge).
    #[serde(with = "crate::wire::decimal")]
    pub tax: Decimal,
    /// Reverse charge: the recipient owes the tax; the invoice carries none.
    pub reverse_charge: bool,
    /// Intra-community (EU) supply.
    pub intra_eu: bool,
}

/// How an invoice is paid (BG-16 payment means; issue 10 contract § New fields for
/// e-invoices): `credit_transfer` (UNTDID 4461 code 58, SEPA credit transfer to the account's
/// IBAN) or `direct_debit` (code 59, SEPA direct debit with the customer's mandate).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum PaymentMeans {
    /// SEPA credit transfer (58).
    CreditTransfer,
    /// SEPA direct debit (59).
    DirectDebit,
}

impl PaymentMeans {
    /// Wire and column name (`credit_transfer`, `direct_debit`).
    pub fn as_str(self) -> &'static str {
        match self {
            PaymentMeans::CreditTransfer => "credit_transfer",
            PaymentMeans::DirectDebit => "direct_debit",
        }
    }

    /// Parses a wire name; `None` otherwise.
    pub fn parse(text: &str) -> Option<Self> {
        [PaymentMeans::CreditTransfer, PaymentMeans::DirectDebit]
            .into_iter()
            .find(|m| m.as_str() == text)
    }

    /// The payment means an invoice is paid by: its own `given` one, else direct debit when
    /// the customer has a SEPA mandate reference (`mandate`, blank = none), else credit
    /// transfer.
    pub fn effective(given: Option<PaymentMeans>, mandate: Option<&str>) -> PaymentMeans {
        given.unwrap_or(if mandate.is_some_and(|m| !m.trim().is_empty()) {
            PaymentMeans::DirectDebit
        } else {
            PaymentMeans::CreditTransfer
        })
    }
}

/// One row of the invoice list (GET /invoices): the columns a list shows, read from the
/// same JSON as [`Invoice`] (other fields are ignored). The browser's first screen decodes
/// these instead of whole invoices, so its main module carries no decoder for positions,
/// payments or reminders (issue 13 § Make the main module small).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct InvoiceRow {
    /// Record id.
    pub id: i64,
    /// The customer's company id.
    pub customer_id: i64,
    /// The customer's `{id, name}`; `None` when the server sent none.
    pub customer: Option<IdName>,
    /// The invoice number; `None` while it is a draft.
    pub identifier: Option<String>,
    /// Invoice date (`YYYY-MM-DD`).
    pub date: NaiveDate,
    /// Due date (`YYYY-MM-DD`).
    pub due_date: NaiveDate,
    /// Status as the API returns it.
    pub status: InvoiceStatus,
    /// Title.
    pub title: String,
    /// ISO 4217 currency code.
    pub currency: String,
    /// Gross total in the currency (a JSON number, e.g. `119.00`).
    #[serde(with = "crate::wire::decimal")]
    pub gross_total: Decimal,
    /// Amount still open in the currency (gross − payments).
    #[serde(default, with = "crate::wire::decimal")]
    pub open_amount: Decimal,
    /// True once it has been reversed: the list shows "Storniert" (issue 29).
    #[serde(default)]
    pub reversed: bool,
    /// `standard`, `down_payment` or `final` (issue 33).
    #[serde(default)]
    pub kind: crate::down_payment::InvoiceKind,
    /// A down payment: the final invoice deducting it, if any.
    #[serde(default)]
    pub final_invoice_id: Option<i64>,
    /// What it asks to be paid (gross − deducted down payments), currency units.
    #[serde(default, with = "crate::wire::decimal")]
    pub amount_due: Decimal,
}

/// An invoice as GET /invoices/{id} returns it. The list (GET /invoices) leaves out
/// `salutation`, `footer`, `items`, `payments` and `reminders` (they are `None` there and
/// not serialized).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Invoice {
    /// Record id.
    pub id: i64,
    /// The customer company's id.
    pub customer_id: i64,
    /// The customer company as `{id, name}` (issue 8: list rows name their customer, so
    /// clients need no extra company requests); `null` only where no record is read
    /// (the preview).
    pub customer: Option<IdName>,
    /// Project id, if any.
    pub project_id: Option<i64>,
    /// Invoice number `R<YYMM>-<NNN>`; `null` for drafts.
    pub identifier: Option<String>,
    /// The payment reference (issue 32): the ISO 11649 creditor reference of the invoice
    /// number (`RF38R2611001`, [`crate::payment_reference::payment_reference`]); `null` for
    /// drafts and reversals. Printed in the payment line and the GiroCode, carried as the
    /// e-invoice's BT-83.
    #[serde(default)]
    pub payment_reference: Option<String>,
    /// Invoice date.
    pub date: NaiveDate,
    /// Payment due date.
    pub due_date: NaiveDate,
    /// `MM/YYYY` from `service_period_from`; `null` without a service period.
    pub service_period: Option<String>,
    /// First day of the service period.
    pub service_period_from: Option<NaiveDate>,
    /// Last day of the service period.
    pub service_period_to: Option<NaiveDate>,
    /// Status.
    pub status: InvoiceStatus,
    /// True when this invoice has been reversed (canceled).
    pub reversed: bool,
    /// The reversal invoice's id when reversed.
    pub reversal_invoice_id: Option<i64>,
    /// True when this invoice is itself a reversal.
    pub reversal: bool,
    /// The reversed invoice's id when this is a reversal.
    pub reversed_invoice_id: Option<i64>,
    /// True when this invoice is a credit note (Rechnungskorrektur, issue 33): negative
    /// totals, its own number series, never reversed or credited itself.
    #[serde(default)]
    pub credit_note: bool,
    /// The credited invoice's id when this is a credit note.
    #[serde(default)]
    pub credited_invoice_id: Option<i64>,
    /// The credit notes of this invoice, oldest first; detail only (issue 33: "the
    /// invoice shows its credit notes").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub credit_notes: Option<Vec<CreditNoteRef>>,
    /// `standard`, `down_payment` or `final` (issue 33, [`crate::down_payment`]).
    #[serde(default)]
    pub kind: crate::down_payment::InvoiceKind,
    /// A final invoice: the down payments it deducts, each with its own net, VAT per rate
    /// and gross (§ 14 (5) UStG); `[]` for other kinds.
    #[serde(default)]
    pub deducted_down_payments: Vec<crate::down_payment::DeductedDownPayment>,
    /// What the invoice asks to be paid, currency units: `gross_total` minus the deducted
    /// down payments' gross ([`crate::down_payment::amount_due`]); `gross_total` for other
    /// kinds. The open amount, dunning and the GiroCode start from it.
    #[serde(default, with = "crate::wire::decimal")]
    pub amount_due: Decimal,
    /// A down payment: the final invoice deducting it, if any (it is deducted once).
    #[serde(default)]
    pub final_invoice_id: Option<i64>,
    /// The offer this invoice was created from, if any (beyond the interface's fields;
    /// `docs/decisions.md` § Rules in the model (issue 8)).
    pub offer_id: Option<i64>,
    /// Title.
    pub title: String,
    /// Recipient address, lines separated by `\n`.
    pub recipient_address: String,
    /// Currency code (one of the account's).
    pub currency: String,
    /// Net total after discount, currency units.
    #[serde(with = "crate::wire::decimal")]
    pub net_total: Decimal,
    /// Tax rate in percent.
    #[serde(with = "crate::wire::decimal")]
    pub tax: Decimal,
    /// VAT treatment.
    pub vat: Vat,
    /// The totals per VAT category and rate, ordered by category then rate descending;
    /// `[]` without counted items (issue 10 contract § Per-position VAT).
    #[serde(default)]
    pub tax_breakdown: Vec<TaxBreakdown>,
    /// Gross total, currency units.
    #[serde(with = "crate::wire::decimal")]
    pub gross_total: Decimal,
    /// What is still to be paid, currency units (issue 11 contract § Invoices:
    /// `open_amount`): gross − payments for finalized invoices, never below 0; 0 for
    /// drafts, `ignored` and reversed invoices ([`crate::dashboard::open_amount`]).
    /// Absent in older stored JSON → 0.
    #[serde(default, with = "crate::wire::decimal")]
    pub open_amount: Decimal,
    /// Discount in percent.
    #[serde(with = "crate::wire::decimal")]
    pub discount: Decimal,
    /// Cash discount in percent (a payment term; does not change the totals).
    #[serde(with = "crate::wire::decimal")]
    pub cash_discount: Decimal,
    /// Days within which the cash discount applies.
    pub cash_discount_days: i64,
    /// The customer's debtor number (the company's `debit_number`, an integer
    /// 10000–69999, as it is now; issue 31); `null` when the customer has none.
    pub debit_number: Option<i64>,
    /// Always `null`: an invoice books against the customer's debtor account only; the
    /// revenue side is the tax category's revenue account (`datev.revenue_accounts`),
    /// not a personal account (issue 31).
    pub credit_number: Option<i64>,
    /// True once sent or paid: it can then only be reversed, not deleted.
    pub locked: bool,
    /// Whether positions were changed so they no longer match the time sheet.
    pub activity_hours_modified: bool,
    /// Salutation (sanitized HTML); detail only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub salutation: Option<String>,
    /// Footer (sanitized HTML); detail only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub footer: Option<String>,
    /// Custom properties: string keys to string values.
    pub custom_properties: BTreeMap<String, String>,
    /// Tags.
    pub tags: Vec<String>,
    /// Buyer reference (BT-10) of this invoice, ≤ 200 characters; `null` → the customer's
    /// `buyer_reference`, else the customer's id (issue 10).
    pub buyer_reference: Option<String>,
    /// Payment means; `null` → [`PaymentMeans::effective`] (direct debit when the customer
    /// has a SEPA mandate reference, else credit transfer).
    pub payment_means: Option<PaymentMeans>,
    /// Signed link to the PDF, valid for 15 minutes.
    pub file_url: Option<String>,
    /// The internal contact (user) responsible.
    pub user: Option<UserRef>,
    /// Positions; detail only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub items: Option<Vec<InvoiceItem>>,
    /// Payments; detail only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payments: Option<Vec<Payment>>,
    /// Reminders (dunning); detail only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reminders: Option<Vec<Reminder>>,
    /// Creation time (UTC).
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
    /// Last change (UTC).
    #[serde(with = "crate::timestamp")]
    pub updated_at: DateTime<Utc>,
}

/// A credit note as its credited invoice lists it (issue 33).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CreditNoteRef {
    /// The credit note's id.
    pub id: i64,
    /// Its number (`G2611-001`).
    pub identifier: String,
    /// Its date.
    pub date: NaiveDate,
    /// Its gross total, negative, currency units.
    #[serde(with = "crate::wire::decimal")]
    pub gross_total: Decimal,
}

/// An invoice position as the server returns it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct InvoiceItem {
    /// Record id.
    pub id: i64,
    /// Position type.
    #[serde(rename = "type")]
    pub kind: PositionType,
    /// Title (empty for separators and page breaks).
    pub title: String,
    /// Description (sanitized HTML).
    pub description: Option<String>,
    /// Quantity; `null` for lump sums and non-item positions.
    #[serde(with = "crate::wire::decimal_option")]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub quantity: Option<Decimal>,
    /// Unit (`"h"`, `"pcs"`), if any.
    pub unit: Option<String>,
    /// Unit price in currency units; `null` for lump sums and non-item positions.
    #[serde(with = "crate::wire::decimal_option")]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub unit_price: Option<Decimal>,
    /// Net total of the position (the running sum for subtotals).
    #[serde(with = "crate::wire::decimal")]
    pub net_total: Decimal,
    /// Time sheet entries this position bills (beyond the interface's fields; omitted
    /// when none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub activity_ids: Vec<i64>,
    /// Project expenses this position bills (omitted when none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub expense_ids: Vec<i64>,
    /// The position's own VAT rate in percent; `null` when it inherits the document's
    /// `tax` (issue 10 contract § Per-position VAT).
    #[serde(default, with = "crate::wire::decimal_option")]
    pub tax: Option<Decimal>,
    /// The position's VAT category as stored; `null` when derived from the document.
    pub tax_category: Option<TaxCategory>,
    /// The position's exemption reason, if given.
    pub tax_exemption_reason: Option<String>,
}

impl Invoice {
    /// The document VAT the totals and the per-position VAT start from: the invoice's
    /// `tax` (percent) with the reverse-charge and intra-EU flags of `vat`.
    pub fn vat_choice(&self) -> VatChoice {
        VatChoice {
            tax: self.tax,
            reverse_charge: self.vat.reverse_charge,
            intra_eu: self.vat.intra_eu,
        }
    }
}

impl InvoiceItem {
    /// The amounts the totals need ([`crate::totals::compute_document_totals`]): the
    /// stored net total as the lump sum; invoice positions are never optional.
    pub fn amounts(&self) -> PositionAmounts {
        PositionAmounts {
            kind: Some(self.kind),
            quantity: self.quantity,
            unit_price: self.unit_price,
            net_total: Some(self.net_total),
            optional: false,
            tax: self.tax,
            tax_category: self.tax_category,
        }
    }
}

#[cfg(test)]
mod amounts_tests {
    use super::InvoiceItem;
    use crate::position::PositionType;
    use crate::position_vat::TaxCategory;
    use rust_decimal::Decimal;

    #[test]
    fn the_stored_net_total_is_the_lump_sum_and_nothing_is_optional() {
        let item = InvoiceItem {
            id: 1,
            kind: PositionType::Item,
            title: "Concept".into(),
            description: None,
            quantity: Some(Decimal::new(15, 1)),
            unit: Some("h".into()),
            unit_price: Some(Decimal::new(9533, 2)),
            net_total: Decimal::new(14300, 2),
            activity_ids: vec![],
            expense_ids: vec![],
            tax: Some(Decimal::new(7, 0)),
            tax_category: Some(TaxCategory::Standard),
            tax_exemption_reason: None,
        };
        let a = item.amounts();
        assert_eq!(a.kind, Some(PositionType::Item));
        assert_eq!(a.quantity, Some(Decimal::new(15, 1)));
        assert_eq!(a.unit_price, Some(Decimal::new(9533, 2)));
        assert_eq!(a.net_total, Some(Decimal::new(14300, 2)));
        assert!(!a.optional);
        assert_eq!(a.tax, Some(Decimal::new(7, 0)));
        assert_eq!(a.tax_category, Some(TaxCategory::Standard));
    }
}

#[cfg(test)]
mod payment_means_tests {
    use super::PaymentMeans;

    #[test]
    fn the_invoice_wins_then_the_mandate_decides() {
        let d = PaymentMeans::DirectDebit;
        let c = PaymentMeans::CreditTransfer;
        assert_eq!(PaymentMeans::effective(Some(c), Some("M-1")), c);
        assert_eq!(PaymentMeans::effective(Some(d), None), d);
        assert_eq!(PaymentMeans::effective(None, Some("M-1")), d);
        assert_eq!(PaymentMeans::effective(None, Some("  ")), c);
        assert_eq!(PaymentMeans::effective(None, None), c);
        assert_eq!(PaymentMeans::parse("direct_debit"), Some(d));
        assert_eq!(PaymentMeans::parse("cash"), None);
        assert_eq!(serde_json::to_string(&c).unwrap(), r#""credit_transfer""#);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_row_reads_the_columns_of_a_whole_invoice() {
        let json = r#"{"id": 7, "customer_id": 3, "customer": {"id": 3, "name": "Acme"},
            "identifier": "R2611-001", "date": "2026-11-02", "due_date": "2026-11-16",
            "status": "sent", "title": "Web", "currency": "EUR", "net_total": 100.00,
            "gross_total": 119.00, "open_amount": 19.00, "tags": ["a"],
            "items": [{"id": 1}], "payments": [], "reminders": null}"#;
        let row: InvoiceRow = serde_json::from_str(json).unwrap();
        assert_eq!(row.id, 7);
        assert_eq!(row.customer.unwrap().name, "Acme");
        assert_eq!(row.identifier.as_deref(), Some("R2611-001"));
        assert_eq!(row.due_date.to_string(), "2026-11-16");
        assert_eq!(row.status, InvoiceStatus::Sent);
        assert_eq!(row.gross_total.to_string(), "119.00");
        assert_eq!(row.open_amount.to_string(), "19.00");
        // A draft has no number; an amount must be a number.
        let draft = json.replace(r#""R2611-001""#, "null");
        assert!(serde_json::from_str::<InvoiceRow>(&draft)
            .unwrap()
            .identifier
            .is_none());
        let bad = json.replace("119.00", r#""119.00""#);
        assert!(serde_json::from_str::<InvoiceRow>(&bad).is_err());
    }
}
