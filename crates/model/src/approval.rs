//! Online offer approval (issue 31 "The customer says yes online"; MOCO's
//! `offer_customer_approval`; `docs/decisions.md` § Online approval): the staff object of
//! an offer's approval, what the public approval page may show, the customer's signing
//! and declining bodies and their checks, and which offers can still be signed.
//!
//! Pure: the server keeps the token (≥ 128 random bits, stored as a hash), the signature
//! image and the transaction; the browser's public page and the server both use
//! [`totals_with_options`] and [`signing_refusal`], so what the customer sees is what is
//! recorded.

use crate::error::message::Text;
use crate::error::{messages, push_error, FieldErrors};
use crate::offer::{OfferItem, OfferStatus};
use crate::position::PositionType;
use crate::position_vat::{TaxBreakdown, TaxCategory};
use crate::totals::{compute_document_totals, DocumentTotals, TotalsError};
use crate::vat::VatChoice;
use chrono::{DateTime, NaiveDate, Utc};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// Longest signer name (characters).
pub const MAX_SIGNER_NAME: usize = 200;
/// Longest decline reason (characters).
pub const MAX_DECLINE_REASON: usize = 2_000;
/// Largest signature drawing, decoded PNG bytes (200 kB, issue 31).
pub const MAX_SIGNATURE_BYTES: usize = 200 * 1024;
/// Widest and highest signature drawing (pixels).
pub const MAX_SIGNATURE_SIDE: u32 = 4_000;
/// How an inline signature starts: a PNG as a data URL.
pub const SIGNATURE_DATA_URL_PREFIX: &str = "data:image/png;base64,";

/// `GET /offers/{id}/customer_approval` (staff): the offer's online approval. Both URLs
/// are absolute (the server's public origin); `signature_url` is a signed file link valid
/// for 15 minutes, `null` until signed (or signed without a drawing).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CustomerApprovalDetail {
    /// Record id.
    pub id: i64,
    /// The page the customer opens (`{origin}/approval/{token}`).
    pub approval_url: String,
    /// The offer's PDF for the customer (`{origin}/api/v1/customer_approvals/{token}/document.pdf`).
    pub offer_document_url: String,
    /// Whether the link works; deactivating stops it at once.
    pub active: bool,
    /// The signer's name, once signed.
    pub customer_full_name: Option<String>,
    /// The signer's e-mail address, once signed.
    pub customer_email: Option<String>,
    /// Signed link to the signature drawing (PNG), once signed with one.
    pub signature_url: Option<String>,
    /// When the customer signed (UTC).
    #[serde(default, with = "crate::timestamp::option")]
    pub signed_at: Option<DateTime<Utc>>,
    /// The optional positions the customer took (ids of the offer's items; beyond MOCO).
    #[serde(default)]
    pub optional_item_ids: Vec<i64>,
    /// When the customer declined (UTC), if so (beyond MOCO).
    #[serde(default, with = "crate::timestamp::option")]
    pub declined_at: Option<DateTime<Utc>>,
    /// The decliner's name and reason, if declined (beyond MOCO).
    pub decline_reason: Option<String>,
    /// Creation time.
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
    /// Last change.
    #[serde(with = "crate::timestamp")]
    pub updated_at: DateTime<Utc>,
}

/// Where an approval stands, as the public page shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum ApprovalState {
    /// Waiting for the customer.
    Open,
    /// Signed: the offer is accepted.
    Signed,
    /// Declined: the offer stays as it was.
    Declined,
}

/// The sender as the public page shows it: the account's name, postal address lines and
/// logo (a link on the same token, `null` without a logo).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PublicSender {
    /// The account's name.
    pub name: String,
    /// The account's postal address, one line per element.
    pub address: Vec<String>,
    /// The logo (`/api/v1/customer_approvals/{token}/logo`), `null` without one.
    pub logo_url: Option<String>,
}

/// One position of the offer as the customer sees it: no internal field.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PublicOfferItem {
    /// The position's id (what `optional_item_ids` names).
    pub id: i64,
    /// Position type.
    #[serde(rename = "type")]
    pub kind: PositionType,
    /// Title.
    pub title: Option<String>,
    /// Description (sanitized HTML).
    pub description: Option<String>,
    /// Quantity.
    #[serde(with = "crate::wire::decimal_option")]
    pub quantity: Option<Decimal>,
    /// Unit.
    pub unit: Option<String>,
    /// Unit price, currency units.
    #[serde(with = "crate::wire::decimal_option")]
    pub unit_price: Option<Decimal>,
    /// Net total, currency units (running sum for subtotals).
    #[serde(with = "crate::wire::decimal")]
    pub net_total: Decimal,
    /// An optional position: the customer may take it while signing.
    pub optional: bool,
    /// The position's own VAT rate in percent, `null` when it inherits the offer's.
    #[serde(default, with = "crate::wire::decimal_option")]
    pub tax: Option<Decimal>,
    /// The position's VAT category as stored, `null` when derived.
    #[serde(default)]
    pub tax_category: Option<TaxCategory>,
}

impl PublicOfferItem {
    /// The customer's view of `item`.
    pub fn of(item: &OfferItem) -> Self {
        PublicOfferItem {
            id: item.id,
            kind: item.kind,
            title: item.title.clone(),
            description: item.description.clone(),
            quantity: item.quantity,
            unit: item.unit.clone(),
            unit_price: item.unit_price,
            net_total: item.net_total,
            optional: item.optional,
            tax: item.tax,
            tax_category: item.tax_category,
        }
    }
}

/// `GET /api/v1/customer_approvals/{token}`: what the customer may see and nothing else
/// (issue 31): the sender, the offer's printed content and the approval's state — never
/// tags, custom properties, internal contact, user, deal, project or other offers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PublicApproval {
    /// The sender.
    pub account: PublicSender,
    /// Offer number.
    pub identifier: String,
    /// Title.
    pub title: String,
    /// Offer date.
    pub date: NaiveDate,
    /// Valid until.
    pub due_date: NaiveDate,
    /// Recipient address lines.
    pub recipient_address: String,
    /// Salutation (sanitized HTML).
    pub salutation: Option<String>,
    /// Footer (sanitized HTML).
    pub footer: Option<String>,
    /// Currency (ISO 4217).
    pub currency: String,
    /// The offer's VAT rate in percent (0 with reverse charge).
    #[serde(with = "crate::wire::decimal")]
    pub tax: Decimal,
    /// Reverse charge: the recipient owes the tax.
    pub reverse_charge: bool,
    /// Intra-EU supply.
    pub intra_eu: bool,
    /// Discount in percent.
    #[serde(with = "crate::wire::decimal")]
    pub discount: Decimal,
    /// Show quantity, unit and unit price.
    pub print_detail_columns: bool,
    /// Positions, optional ones marked.
    pub items: Vec<PublicOfferItem>,
    /// Totals per VAT category and rate (optional positions not counted).
    pub tax_breakdown: Vec<TaxBreakdown>,
    /// Net total, currency units (optional positions not counted).
    #[serde(with = "crate::wire::decimal")]
    pub net_total: Decimal,
    /// Gross total, currency units.
    #[serde(with = "crate::wire::decimal")]
    pub gross_total: Decimal,
    /// The customer's correspondence language (`de` or `en`): the page's first language.
    pub language: String,
    /// Where the approval stands.
    pub state: ApprovalState,
    /// When it was signed (UTC).
    #[serde(default, with = "crate::timestamp::option")]
    pub signed_at: Option<DateTime<Utc>>,
    /// Who signed or declined.
    pub customer_full_name: Option<String>,
    /// The optional positions taken when signing.
    #[serde(default)]
    pub optional_item_ids: Vec<i64>,
    /// Why the offer can no longer be signed (English; the page says it in its own
    /// words by `signing_refusal_code`), `null` while it can.
    pub signing_refusal: Option<String>,
    /// The message code of `signing_refusal`.
    pub signing_refusal_code: Option<String>,
    /// The offer's PDF (`/api/v1/customer_approvals/{token}/document.pdf`, relative).
    pub document_url: String,
}

impl PublicApproval {
    /// The items as the totals need them (ids and amounts; nothing else is read).
    pub fn offer_items(&self) -> Vec<OfferItem> {
        self.items
            .iter()
            .map(|i| OfferItem {
                id: i.id,
                kind: i.kind,
                title: i.title.clone(),
                description: None,
                quantity: i.quantity,
                unit: None,
                unit_price: i.unit_price,
                net_total: i.net_total,
                optional: i.optional,
                tax: i.tax,
                tax_category: i.tax_category,
                tax_exemption_reason: None,
            })
            .collect()
    }

    /// The document VAT of the offer.
    pub fn vat(&self) -> VatChoice {
        VatChoice {
            tax: self.tax,
            reverse_charge: self.reverse_charge,
            intra_eu: self.intra_eu,
        }
    }
}

/// `POST /api/v1/customer_approvals/{token}/sign`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SignApproval {
    /// Required: the signer's full name (1–200 characters).
    #[serde(default)]
    pub customer_full_name: Option<String>,
    /// Required: the signer's e-mail address (the confirmation goes there).
    #[serde(default)]
    pub customer_email: Option<String>,
    /// Required, `true`: the signer accepts the offer's terms.
    #[serde(default)]
    pub accepted_terms: Option<bool>,
    /// A drawing, `data:image/png;base64,…` (≤ 200 kB decoded, a PNG by content); without
    /// it the typed name is the signature.
    #[serde(default)]
    pub signature: Option<String>,
    /// The optional positions the customer takes (ids of the offer's optional items;
    /// default none).
    #[serde(default)]
    pub optional_item_ids: Option<Vec<i64>>,
}

/// A sign body that passed [`SignApproval::check`]: trimmed name and address, the chosen
/// optional positions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckedSigning {
    /// The signer's name.
    pub customer_full_name: String,
    /// The signer's e-mail address.
    pub customer_email: String,
    /// The optional positions taken.
    pub optional_item_ids: BTreeSet<i64>,
}

impl SignApproval {
    /// Checks the body against the offer's `items`. Errors (field → messages):
    /// `customer_full_name` missing or longer than [`MAX_SIGNER_NAME`],
    /// `customer_email` missing or no address, `accepted_terms` not `true`,
    /// `signature` not a PNG data URL (its content is the server's check),
    /// `optional_item_ids` naming a position that is not one of the offer's optional items.
    pub fn check(&self, items: &[OfferItem]) -> Result<CheckedSigning, FieldErrors> {
        let mut errors = FieldErrors::new();
        let name = signer_name(&mut errors, self.customer_full_name.as_deref());
        let email = self.customer_email.as_deref().map(str::trim).unwrap_or("");
        if email.is_empty() {
            push_error(&mut errors, "customer_email", messages::IS_REQUIRED);
        } else if !crate::email::is_address(email) {
            push_error(
                &mut errors,
                "customer_email",
                messages::IS_NOT_E_MAIL_ADDRESS,
            );
        }
        if self.accepted_terms != Some(true) {
            push_error(&mut errors, "accepted_terms", messages::MUST_BE_ACCEPTED);
        }
        if let Some(signature) = &self.signature {
            if !signature.starts_with(SIGNATURE_DATA_URL_PREFIX) {
                push_error(&mut errors, "signature", messages::MUST_BE_PNG_DATA_URL);
            }
        }
        let chosen: BTreeSet<i64> = self.optional_item_ids.iter().flatten().copied().collect();
        let optional: BTreeSet<i64> = items.iter().filter(|i| i.optional).map(|i| i.id).collect();
        if let Some(id) = chosen.iter().find(|id| !optional.contains(id)) {
            push_error(
                &mut errors,
                "optional_item_ids",
                messages::IS_NO_OPTIONAL_POSITION_N.with([id]),
            );
        }
        if errors.is_empty() {
            Ok(CheckedSigning {
                customer_full_name: name,
                customer_email: email.to_string(),
                optional_item_ids: chosen,
            })
        } else {
            Err(errors)
        }
    }
}

/// `POST /api/v1/customer_approvals/{token}/decline`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DeclineApproval {
    /// Required: who declines (1–200 characters).
    #[serde(default)]
    pub customer_full_name: Option<String>,
    /// Why (up to 2,000 characters; may be empty).
    #[serde(default)]
    pub reason: Option<String>,
}

impl DeclineApproval {
    /// The trimmed name and reason. Errors: `customer_full_name` missing or too long,
    /// `reason` longer than [`MAX_DECLINE_REASON`].
    pub fn check(&self) -> Result<(String, String), FieldErrors> {
        let mut errors = FieldErrors::new();
        let name = signer_name(&mut errors, self.customer_full_name.as_deref());
        let reason = self.reason.as_deref().map(str::trim).unwrap_or("");
        if reason.chars().count() > MAX_DECLINE_REASON {
            push_error(
                &mut errors,
                "reason",
                messages::MUST_BE_AT_MOST_N_CHARACTERS.with([MAX_DECLINE_REASON]),
            );
        }
        if errors.is_empty() {
            Ok((name, reason.to_string()))
        } else {
            Err(errors)
        }
    }
}

/// The trimmed `customer_full_name`, its errors pushed.
fn signer_name(errors: &mut FieldErrors, name: Option<&str>) -> String {
    let name = name.map(str::trim).unwrap_or("");
    if name.is_empty() {
        push_error(errors, "customer_full_name", messages::IS_REQUIRED);
    } else if name.chars().count() > MAX_SIGNER_NAME {
        push_error(
            errors,
            "customer_full_name",
            messages::MUST_BE_AT_MOST_N_CHARACTERS.with([MAX_SIGNER_NAME]),
        );
    }
    name.to_string()
}

/// Why an offer of `status`, valid until `due_date`, can no longer be signed or declined
/// online on `today` (422), or `None` when it can: billed (wholly or partly), archived,
/// already accepted, or past its due date (the last day it is valid is `due_date`).
pub fn signing_refusal(status: OfferStatus, due_date: NaiveDate, today: NaiveDate) -> Option<Text> {
    match status {
        OfferStatus::Billed | OfferStatus::PartiallyBilled => Some(messages::OFFER_ALREADY_BILLED),
        OfferStatus::Archived => Some(messages::OFFER_ARCHIVED),
        OfferStatus::Accepted => Some(messages::OFFER_ALREADY_ACCEPTED),
        OfferStatus::Created | OfferStatus::Sent if due_date < today => {
            Some(messages::OFFER_EXPIRED)
        }
        OfferStatus::Created | OfferStatus::Sent => None,
    }
}

/// `items` with the optional positions in `chosen` taken: they count like any other
/// position (their `optional` flag cleared); the others stay optional and uncounted.
pub fn take_options(items: &[OfferItem], chosen: &BTreeSet<i64>) -> Vec<OfferItem> {
    items
        .iter()
        .map(|item| {
            let mut item = item.clone();
            item.optional = item.optional && !chosen.contains(&item.id);
            item
        })
        .collect()
}

/// The offer's totals with the optional positions in `chosen` taken (what the public
/// page shows while the customer ticks options, and what signing records). `discount` in
/// percent; amounts in `currency` units. Errors: a [`TotalsError`] naming the field when
/// a sum does not fit.
pub fn totals_with_options(
    items: &[OfferItem],
    chosen: &BTreeSet<i64>,
    discount: Decimal,
    vat: &VatChoice,
    currency: &str,
) -> Result<DocumentTotals, TotalsError> {
    let taken = take_options(items, chosen);
    let amounts: Vec<_> = taken.iter().map(OfferItem::amounts).collect();
    compute_document_totals(&amounts, discount, vat, currency)
}

#[cfg(test)]
mod tests;
