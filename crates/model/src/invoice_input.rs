//! The invoice creation body (interface.md § POST /invoices) and the other invoice
//! request bodies.
//!
//! Every field is optional in the Rust type so that a form can hold a half-written invoice
//! and the server can answer a missing field with a 422 naming it
//! ([`crate::validation::validate_new_invoice`]) rather than a parse error. An explicit
//! JSON `null` reads as absent.

use crate::position::PositionType;
use crate::position_vat::TaxCategory;
use crate::status::InvoiceStatus;
use crate::totals::PositionAmounts;
use crate::wire::{date_option, decimal_option};
use chrono::NaiveDate;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The VAT flags of a creation body (defined with the VAT rules).
pub use crate::vat::VatInput;

/// POST /invoices (and PUT /invoices/{id} for drafts) body.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NewInvoice {
    /// Required: the customer company's id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub customer_id: Option<i64>,
    /// Required: recipient address, lines separated by `\n`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recipient_address: Option<String>,
    /// Required: invoice date.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "date_option")]
    pub date: Option<NaiveDate>,
    /// Required: due date (not before `date`).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "date_option")]
    pub due_date: Option<NaiveDate>,
    /// Required: title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Required: tax rate in percent (0–100).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "decimal_option"
    )]
    pub tax: Option<Decimal>,
    /// Required: one of the account's currencies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub currency: Option<String>,
    /// Required: positions (at least one unless the invoice is a draft).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub items: Option<Vec<NewInvoiceItem>>,
    /// Service period start; give both or neither.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "date_option")]
    pub service_period_from: Option<NaiveDate>,
    /// Service period end (not before the start).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "date_option")]
    pub service_period_to: Option<NaiveDate>,
    /// `created` (default) or `draft`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<InvoiceStatus>,
    /// `invoice` (default), `project` or `customer`: where the address is also stored.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub change_address: Option<String>,
    /// Salutation (HTML, sanitized by the server).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub salutation: Option<String>,
    /// Footer (HTML, sanitized by the server).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub footer: Option<String>,
    /// Discount in percent (0–100), default 0.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "decimal_option"
    )]
    pub discount: Option<Decimal>,
    /// Cash discount in percent (0–100), default 0.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "decimal_option"
    )]
    pub cash_discount: Option<Decimal>,
    /// Cash discount period in days (≥ 0), default 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cash_discount_days: Option<i64>,
    /// Project id (must belong to the customer).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub project_id: Option<i64>,
    /// Internal contact: a user id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub internal_contact_id: Option<i64>,
    /// Custom properties (string values).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub custom_properties: Option<BTreeMap<String, String>>,
    /// Tags.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<String>>,
    /// VAT flags; absent → the customer's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vat: Option<VatInput>,
    /// The offer this invoice is created from (creation only; `docs/decisions.md` § Rules
    /// in the model (issue 8)): the invoice links to it and the offer becomes billed or
    /// partially billed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offer_id: Option<i64>,
    /// Buyer reference (BT-10), ≤ 200 characters; blank or absent → none (the customer's
    /// is used for the e-invoice; issue 10 contract § New fields for e-invoices).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub buyer_reference: Option<String>,
    /// `credit_transfer` or `direct_debit`; absent → derived from the customer's mandate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payment_means: Option<crate::invoice::PaymentMeans>,
    /// `standard` (default), `down_payment` or `final` (issue 33,
    /// [`crate::down_payment`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<crate::down_payment::InvoiceKind>,
    /// A final invoice: the ids of the down-payment invoices it deducts (1–100, each
    /// once; a draft may name none yet). Each must be a finalized down payment of the same
    /// customer and currency, not reversed and not deducted by another final invoice.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub down_payment_invoice_ids: Option<Vec<i64>>,
}

/// One position of a creation body.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NewInvoiceItem {
    /// Required: position type.
    #[serde(default, rename = "type", skip_serializing_if = "Option::is_none")]
    pub kind: Option<PositionType>,
    /// Title; required for `item` and `title` positions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Description (HTML, sanitized by the server).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Quantity (with `unit_price`).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "decimal_option"
    )]
    pub quantity: Option<Decimal>,
    /// Unit, e.g. `h`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit: Option<String>,
    /// Unit price in currency units (with `quantity`).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "decimal_option"
    )]
    pub unit_price: Option<Decimal>,
    /// Lump sum: net total without quantity and unit price.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "decimal_option"
    )]
    pub net_total: Option<Decimal>,
    /// Time-sheet entries billed by this item.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub activity_ids: Option<Vec<i64>>,
    /// Project expenses billed by this item.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expense_ids: Option<Vec<i64>>,
    /// The position's VAT rate in percent (0–100); absent → the document's `tax`
    /// (issue 10 contract § Per-position VAT). Only `item` positions carry VAT.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "decimal_option"
    )]
    pub tax: Option<Decimal>,
    /// The position's VAT category; absent → derived from the document
    /// ([`crate::position_vat::effective_vat`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tax_category: Option<TaxCategory>,
    /// Why the position is exempt (≤ 500 characters); required for `exempt`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tax_exemption_reason: Option<String>,
}

impl NewInvoiceItem {
    /// The amounts the totals need.
    pub fn amounts(&self) -> PositionAmounts {
        PositionAmounts {
            kind: self.kind,
            quantity: self.quantity,
            unit_price: self.unit_price,
            net_total: self.net_total,
            optional: false,
            tax: self.tax,
            tax_category: self.tax_category,
        }
    }
}

/// PUT /invoices/{id}/update_status body: `{"status": "sent"}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct StatusChange {
    /// Target status.
    pub status: String,
    /// Purchases only (issue 36): an admin's reason for approving a purchase whose
    /// e-invoice has a formal or content defect (at most
    /// [`crate::einvoice_check::MAX_OVERRIDE_REASON`] characters; recorded on the
    /// `approved` event). Ignored everywhere else.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub override_reason: Option<String>,
}

/// DELETE /invoices/{id} body: `{"reason": "..."}` (may be omitted for drafts).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DeleteReason {
    /// Why the invoice is deleted; required unless it is a draft.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

impl NewInvoice {
    /// Fills what the body leaves out from the customer's `defaults` (issue 29): the
    /// discount, the cash discount and its days, and — when `due_date` is absent and the
    /// customer has a payment term — the due date (`date` plus the term). A value the body
    /// gives always wins; an explicit `0` too.
    pub fn apply_customer_defaults(&mut self, defaults: &crate::party::InvoiceDefaults) {
        if self.discount.is_none() {
            self.discount = defaults.discount;
        }
        if self.cash_discount.is_none() {
            self.cash_discount = defaults.cash_discount;
        }
        if self.cash_discount_days.is_none() {
            self.cash_discount_days = defaults.cash_discount_days;
        }
        if self.due_date.is_none() {
            if let (Some(date), Some(days)) = (self.date, defaults.due_days) {
                self.due_date = u64::try_from(days)
                    .ok()
                    .and_then(|d| date.checked_add_days(chrono::Days::new(d)));
            }
        }
    }
}

#[cfg(test)]
mod customer_defaults_tests {
    use super::*;
    use crate::party::InvoiceDefaults;

    #[test]
    fn absent_values_come_from_the_customer_and_given_ones_win() {
        let defaults = InvoiceDefaults {
            due_days: Some(30),
            discount: Some(Decimal::new(5, 0)),
            cash_discount: Some(Decimal::new(2, 0)),
            cash_discount_days: Some(10),
        };
        let mut body = NewInvoice {
            date: NaiveDate::from_ymd_opt(2026, 11, 10),
            ..Default::default()
        };
        body.apply_customer_defaults(&defaults);
        assert_eq!(body.due_date, NaiveDate::from_ymd_opt(2026, 12, 10));
        assert_eq!(body.discount, Some(Decimal::new(5, 0)));
        assert_eq!(body.cash_discount, Some(Decimal::new(2, 0)));
        assert_eq!(body.cash_discount_days, Some(10));
        let mut given = NewInvoice {
            date: NaiveDate::from_ymd_opt(2026, 11, 10),
            due_date: NaiveDate::from_ymd_opt(2026, 11, 24),
            cash_discount: Some(Decimal::ZERO),
            ..Default::default()
        };
        given.apply_customer_defaults(&defaults);
        assert_eq!(given.due_date, NaiveDate::from_ymd_opt(2026, 11, 24));
        assert_eq!(
            given.cash_discount,
            Some(Decimal::ZERO),
            "an explicit 0 wins"
        );
        assert_eq!(given.cash_discount_days, Some(10));
    }
}
