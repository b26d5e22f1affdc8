//! Offers (quotes): representation, positions, creation body and status
//! (interface.md § Offer; `decisions.md` § Representations, § State rules).

use crate::party::{IdName, UserRef};
use crate::position::PositionType;
use crate::position_vat::{TaxBreakdown, TaxCategory};
use crate::totals::PositionAmounts;
use crate::wire::{date_option, decimal_option};
use chrono::{DateTime, NaiveDate, Utc};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Offer status: the six states; update_status may move between any of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum OfferStatus {
    /// Written, not yet sent.
    Created,
    /// Sent to the customer.
    Sent,
    /// Accepted by the customer.
    Accepted,
    /// Partly invoiced.
    PartiallyBilled,
    /// Fully invoiced.
    Billed,
    /// Put away.
    Archived,
}

impl OfferStatus {
    /// All six states in list-filter order.
    pub const ALL: [OfferStatus; 6] = [
        OfferStatus::Created,
        OfferStatus::Sent,
        OfferStatus::Accepted,
        OfferStatus::PartiallyBilled,
        OfferStatus::Billed,
        OfferStatus::Archived,
    ];

    /// Wire name (`"partially_billed"`).
    pub fn as_str(self) -> &'static str {
        match self {
            OfferStatus::Created => "created",
            OfferStatus::Sent => "sent",
            OfferStatus::Accepted => "accepted",
            OfferStatus::PartiallyBilled => "partially_billed",
            OfferStatus::Billed => "billed",
            OfferStatus::Archived => "archived",
        }
    }

    /// Parses a wire name.
    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.as_str() == text)
    }

    /// Label for people (`"Partially billed"`).
    pub fn label(self) -> &'static str {
        match self {
            OfferStatus::Created => "Created",
            OfferStatus::Sent => "Sent",
            OfferStatus::Accepted => "Accepted",
            OfferStatus::PartiallyBilled => "Partially billed",
            OfferStatus::Billed => "Billed",
            OfferStatus::Archived => "Archived",
        }
    }

    /// Whether an invoice can be created from an offer in this state (accepted, partially
    /// billed, or billed after a confirmation: see [`OfferStatus::bills_again`]).
    pub fn can_invoice(self) -> bool {
        matches!(
            self,
            OfferStatus::Accepted | OfferStatus::PartiallyBilled | OfferStatus::Billed
        )
    }

    /// Whether invoicing this offer bills it again, so the app asks first (`billed`).
    pub fn bills_again(self) -> bool {
        self == OfferStatus::Billed
    }

    /// The status once the offer was e-mailed (issue 34, as invoices do): `created`
    /// becomes `sent` — the dashboard counts it and it is no longer deleted as a draft;
    /// every later state (sent, accepted, billed, archived) stays.
    pub fn after_sending(self) -> OfferStatus {
        match self {
            OfferStatus::Created => OfferStatus::Sent,
            other => other,
        }
    }
}

#[cfg(test)]
mod after_sending_tests {
    use super::OfferStatus;

    #[test]
    fn only_a_created_offer_becomes_sent() {
        assert_eq!(OfferStatus::Created.after_sending(), OfferStatus::Sent);
        for later in [
            OfferStatus::Sent,
            OfferStatus::Accepted,
            OfferStatus::PartiallyBilled,
            OfferStatus::Billed,
            OfferStatus::Archived,
        ] {
            assert_eq!(later.after_sending(), later);
        }
    }
}

/// An offer's VAT block.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OfferVat {
    /// Tax rate in percent (0 with reverse charge).
    #[serde(with = "crate::wire::decimal")]
    pub tax: Decimal,
    /// Reverse charge.
    pub reverse_charge: bool,
    /// Intra-EU.
    pub intra_eu: bool,
    /// Tax is charged (false with reverse charge).
    pub active: bool,
    /// Print the gross total.
    pub print_gross_total: bool,
    /// Tax exemption notice (German), empty when none.
    pub notice_tax_exemption: String,
    /// Tax exemption notice (English), empty when none.
    pub notice_tax_exemption_en: String,
}

/// An offer position.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OfferItem {
    /// Record id.
    pub id: i64,
    /// Position type.
    #[serde(rename = "type")]
    pub kind: PositionType,
    /// Title.
    pub title: Option<String>,
    /// Description (sanitized HTML).
    pub description: Option<String>,
    /// Quantity.
    #[serde(with = "decimal_option")]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub quantity: Option<Decimal>,
    /// Unit.
    pub unit: Option<String>,
    /// Unit price, currency units.
    #[serde(with = "decimal_option")]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub unit_price: Option<Decimal>,
    /// Net total (running sum for subtotals).
    #[serde(with = "crate::wire::decimal")]
    pub net_total: Decimal,
    /// Optional: shown, not counted.
    pub optional: bool,
    /// The position's own VAT rate in percent; `null` when it inherits the document's
    /// `tax` (issue 10 contract § Per-position VAT).
    #[serde(default, with = "decimal_option")]
    pub tax: Option<Decimal>,
    /// The position's VAT category as stored; `null` when derived from the document.
    pub tax_category: Option<TaxCategory>,
    /// The position's exemption reason, if given.
    pub tax_exemption_reason: Option<String>,
}

impl OfferItem {
    /// The amounts the totals need ([`crate::totals::compute_document_totals`]): the
    /// stored net total as the lump sum; optional positions are shown, not counted.
    pub fn amounts(&self) -> PositionAmounts {
        PositionAmounts {
            kind: Some(self.kind),
            quantity: self.quantity,
            unit_price: self.unit_price,
            net_total: Some(self.net_total),
            optional: self.optional,
            tax: self.tax,
            tax_category: self.tax_category,
        }
    }
}

/// `offer_confirmation`: `{id, title, created_at, updated_at}` — the offer's order
/// confirmation (issue 31: `POST /offers/{id}/offer_confirmation`; `crate::confirmation`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OfferConfirmation {
    /// Record id.
    pub id: i64,
    /// Title.
    pub title: String,
    /// Creation time.
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
    /// Last change.
    #[serde(with = "crate::timestamp")]
    pub updated_at: DateTime<Utc>,
}

/// `customer_approval`: `{id, active, url}` (issue 31: `POST /offers/{id}/offer_confirmation`; `crate::confirmation`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CustomerApproval {
    /// Record id.
    pub id: i64,
    /// Active.
    pub active: bool,
    /// Approval page.
    pub url: String,
}

/// An invoice created from an offer, as the offer lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct InvoiceRef {
    /// The invoice's id.
    pub id: i64,
    /// Its number; `null` while it is a draft.
    pub identifier: Option<String>,
    /// Its kind: a down payment, a final invoice or a standard one (issue 33).
    #[serde(default)]
    pub kind: crate::down_payment::InvoiceKind,
}

/// An offer as GET /offers/{id} returns it; the list leaves out salutation, footer, items.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Offer {
    /// Record id.
    pub id: i64,
    /// Number `A<YYMM>-<NNN>`.
    pub identifier: String,
    /// Status.
    pub status: OfferStatus,
    /// Offer date.
    pub date: NaiveDate,
    /// Valid until.
    pub due_date: NaiveDate,
    /// Title.
    pub title: String,
    /// Recipient address lines.
    pub recipient_address: String,
    /// Currency.
    pub currency: String,
    /// Net total (optional positions not counted), currency units.
    #[serde(with = "crate::wire::decimal")]
    pub net_total: Decimal,
    /// Gross total, currency units.
    #[serde(with = "crate::wire::decimal")]
    pub gross_total: Decimal,
    /// Tax in percent.
    #[serde(with = "crate::wire::decimal")]
    pub tax: Decimal,
    /// VAT block.
    pub vat: OfferVat,
    /// The totals per VAT category and rate, ordered by category then rate descending;
    /// `[]` without counted items (issue 10 contract § Per-position VAT).
    #[serde(default)]
    pub tax_breakdown: Vec<TaxBreakdown>,
    /// Discount in percent.
    #[serde(with = "crate::wire::decimal")]
    pub discount: Decimal,
    /// Salutation (sanitized HTML); detail only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub salutation: Option<String>,
    /// Footer (sanitized HTML); detail only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub footer: Option<String>,
    /// Tags.
    pub tags: Vec<String>,
    /// Custom properties.
    pub custom_properties: BTreeMap<String, String>,
    /// Show quantity, unit and unit price in the PDF.
    pub print_detail_columns: bool,
    /// The customer company.
    pub company: Option<IdName>,
    /// The project.
    pub project: Option<IdName>,
    /// The deal.
    pub deal: Option<IdName>,
    /// The contact person at the customer (beyond the interface's fields).
    pub contact: Option<IdName>,
    /// The invoices created from this offer, oldest first (beyond the interface's fields;
    /// deleted invoices are left out).
    #[serde(default)]
    pub invoices: Vec<InvoiceRef>,
    /// The internal contact.
    pub user: Option<UserRef>,
    /// Offer confirmation, if any.
    pub offer_confirmation: Option<OfferConfirmation>,
    /// Customer approval, if any.
    pub customer_approval: Option<CustomerApproval>,
    /// Positions; detail only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub items: Option<Vec<OfferItem>>,
    /// Signed link to the PDF, valid for 15 minutes.
    pub file_url: Option<String>,
    /// Creation time.
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
    /// Last change.
    #[serde(with = "crate::timestamp")]
    pub updated_at: DateTime<Utc>,
}

/// One position of an offer creation body.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NewOfferItem {
    /// Required: position type.
    #[serde(default, rename = "type", skip_serializing_if = "Option::is_none")]
    pub kind: Option<PositionType>,
    /// Title; required for items and titles.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Description (HTML).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Quantity.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "decimal_option"
    )]
    pub quantity: Option<Decimal>,
    /// Unit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit: Option<String>,
    /// Unit price.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "decimal_option"
    )]
    pub unit_price: Option<Decimal>,
    /// Lump sum (net total without quantity and unit price).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "decimal_option"
    )]
    pub net_total: Option<Decimal>,
    /// Optional position: shown, not counted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub optional: Option<bool>,
    /// The position's VAT rate in percent (0–100); absent → the offer's `tax`
    /// (issue 10 contract § Per-position VAT). Only `item` positions carry VAT.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "decimal_option"
    )]
    pub tax: Option<Decimal>,
    /// The position's VAT category; absent → derived from the offer
    /// ([`crate::position_vat::effective_vat`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tax_category: Option<TaxCategory>,
    /// Why the position is exempt (≤ 500 characters); required for `exempt`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tax_exemption_reason: Option<String>,
}

impl NewOfferItem {
    /// The amounts the totals need.
    pub fn amounts(&self) -> PositionAmounts {
        PositionAmounts {
            kind: self.kind,
            quantity: self.quantity,
            unit_price: self.unit_price,
            net_total: self.net_total,
            optional: self.optional.unwrap_or(false),
            tax: self.tax,
            tax_category: self.tax_category,
        }
    }
}

/// POST /offers body. Explicit nulls read as absent.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NewOffer {
    /// Customer company (one of company, deal, project is required).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub company_id: Option<i64>,
    /// Deal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deal_id: Option<i64>,
    /// Project (its company wins over `company_id`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub project_id: Option<i64>,
    /// Required: recipient address.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recipient_address: Option<String>,
    /// Required: offer date.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "date_option")]
    pub date: Option<NaiveDate>,
    /// Required: valid until (not before `date`).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "date_option")]
    pub due_date: Option<NaiveDate>,
    /// Required: title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Required: tax in percent.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "decimal_option"
    )]
    pub tax: Option<Decimal>,
    /// Currency; absent → project, deal, company, account default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub currency: Option<String>,
    /// Required: positions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub items: Option<Vec<NewOfferItem>>,
    /// `offer` (default) or `customer`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub change_address: Option<String>,
    /// Salutation (HTML).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub salutation: Option<String>,
    /// Footer (HTML).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub footer: Option<String>,
    /// Discount in percent.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "decimal_option"
    )]
    pub discount: Option<Decimal>,
    /// Contact person at the customer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contact_id: Option<i64>,
    /// Internal contact (user).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub internal_contact_id: Option<i64>,
    /// Tags.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<String>>,
    /// Custom properties.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub custom_properties: Option<BTreeMap<String, String>>,
    /// Show quantity, unit and price columns (default: the account's layout setting).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub print_detail_columns: Option<bool>,
    /// VAT flags; absent → the company's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vat: Option<crate::invoice_input::VatInput>,
}

/// An offer attachment (`decisions.md`: attachment record).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Attachment {
    /// Record id.
    pub id: i64,
    /// File name as uploaded.
    pub filename: String,
    /// Always `application/pdf`.
    pub content_type: String,
    /// Decoded size in bytes.
    pub byte_size: i64,
    /// Signed link, valid for 15 minutes.
    pub file_url: String,
    /// Upload time.
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
    /// Last change.
    #[serde(with = "crate::timestamp")]
    pub updated_at: DateTime<Utc>,
}

/// A file in a request body: `{filename, base64}`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FileUpload {
    /// Required: file name.
    pub filename: Option<String>,
    /// Required: base64-encoded content.
    pub base64: Option<String>,
}

/// POST /offers/{id}/attachments body: `{attachment: {filename, base64}}`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NewAttachment {
    /// Required: the file.
    pub attachment: Option<FileUpload>,
}
