//! Purchases (supplier receipts): representation, positions, creation body, status,
//! payment methods, categories and payments (interface.md § Purchase;
//! `decisions.md` § Totals, § State rules).

use crate::offer::FileUpload;
use chrono::{DateTime, NaiveDate, Utc};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Purchase status: `pending` or `approved` (`archived` is read as `approved`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum PurchaseStatus {
    /// Filed, not yet approved; can be deleted while it has no payments.
    Pending,
    /// Approved for payment and bookkeeping.
    Approved,
}

impl PurchaseStatus {
    /// Wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            PurchaseStatus::Pending => "pending",
            PurchaseStatus::Approved => "approved",
        }
    }

    /// Parses `pending`, `approved` or `archived` (another name for approved).
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "pending" => Some(PurchaseStatus::Pending),
            "approved" | "archived" => Some(PurchaseStatus::Approved),
            _ => None,
        }
    }

    /// Label for people.
    pub fn label(self) -> &'static str {
        match self {
            PurchaseStatus::Pending => "Pending",
            PurchaseStatus::Approved => "Approved",
        }
    }
}

impl<'de> Deserialize<'de> for PurchaseStatus {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        PurchaseStatus::parse(&text)
            .ok_or_else(|| serde::de::Error::custom("expected pending or approved"))
    }
}

/// How a purchase is paid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum PaymentMethod {
    /// Bank transfer.
    BankTransfer,
    /// Direct debit.
    DirectDebit,
    /// Credit card.
    CreditCard,
    /// PayPal.
    Paypal,
    /// Cash.
    Cash,
}

impl PaymentMethod {
    /// All methods.
    pub const ALL: [PaymentMethod; 5] = [
        PaymentMethod::BankTransfer,
        PaymentMethod::DirectDebit,
        PaymentMethod::CreditCard,
        PaymentMethod::Paypal,
        PaymentMethod::Cash,
    ];

    /// Wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            PaymentMethod::BankTransfer => "bank_transfer",
            PaymentMethod::DirectDebit => "direct_debit",
            PaymentMethod::CreditCard => "credit_card",
            PaymentMethod::Paypal => "paypal",
            PaymentMethod::Cash => "cash",
        }
    }

    /// Parses a wire name.
    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|m| m.as_str() == text)
    }

    /// Label for people.
    pub fn label(self) -> &'static str {
        match self {
            PaymentMethod::BankTransfer => "Bank transfer",
            PaymentMethod::DirectDebit => "Direct debit",
            PaymentMethod::CreditCard => "Credit card",
            PaymentMethod::Paypal => "PayPal",
            PaymentMethod::Cash => "Cash",
        }
    }
}

/// A purchase category: `{id, name, credit_account, created_at, updated_at}` (timestamps
/// like every other record, `docs/decisions.md` § Server hardening).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PurchaseCategory {
    /// Record id.
    pub id: i64,
    /// Name.
    pub name: String,
    /// Bookkeeping account.
    pub credit_account: String,
    /// Creation time (UTC, `YYYY-MM-DDTHH:MM:SSZ`).
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
    /// Last change (UTC, `YYYY-MM-DDTHH:MM:SSZ`).
    #[serde(with = "crate::timestamp")]
    pub updated_at: DateTime<Utc>,
}

/// POST /purchases/categories body.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NewPurchaseCategory {
    /// Required: name.
    pub name: Option<String>,
    /// Bookkeeping account.
    pub credit_account: Option<String>,
}

/// A purchase position's VAT: `{tax, reverse_charge, intra_eu, active}`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PurchaseVat {
    /// Tax rate in percent.
    #[serde(with = "crate::wire::decimal")]
    pub tax: Decimal,
    /// Reverse charge.
    pub reverse_charge: bool,
    /// Intra-EU.
    pub intra_eu: bool,
    /// Tax applies (rate above 0).
    pub active: bool,
}

/// A purchase position.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PurchaseItem {
    /// Record id.
    pub id: i64,
    /// Title.
    pub title: String,
    /// Net amount, currency units.
    #[serde(with = "crate::wire::decimal")]
    pub net_total: Decimal,
    /// Tax amount, currency units.
    #[serde(with = "crate::wire::decimal")]
    pub tax_total: Decimal,
    /// Tax rate in percent.
    #[serde(with = "crate::wire::decimal")]
    pub tax: Decimal,
    /// VAT block.
    pub vat: PurchaseVat,
    /// Whether the given total included the tax.
    pub tax_included: bool,
    /// Gross amount, currency units.
    #[serde(with = "crate::wire::decimal")]
    pub gross_total: Decimal,
    /// Category, if any.
    pub category: Option<PurchaseCategory>,
    /// The supplier's creditor number (`credit_number` of the purchase's company, an
    /// integer 70000–99999; issue 31); `null` without a supplier or without a number.
    pub supplier_credit_number: Option<i64>,
    /// The project expense created from it; none yet.
    pub expense: Option<serde_json::Value>,
}

/// The supplier of a purchase: `{id, name, iban}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Supplier {
    /// Company id.
    pub id: i64,
    /// Name.
    pub name: String,
    /// IBAN.
    pub iban: Option<String>,
}

/// The user of a purchase: `{id, firstname, name}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PurchaseUser {
    /// User id.
    pub id: i64,
    /// First name.
    pub firstname: String,
    /// Last name.
    pub name: String,
}

/// A payment made for a purchase.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PurchasePayment {
    /// Record id.
    pub id: i64,
    /// The purchase.
    pub purchase_id: i64,
    /// Date paid.
    pub date: NaiveDate,
    /// Amount paid, currency units.
    #[serde(with = "crate::wire::decimal")]
    pub total: Decimal,
    /// Creation time.
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
    /// Last change.
    #[serde(with = "crate::timestamp")]
    pub updated_at: DateTime<Utc>,
}

/// POST /purchases/payments body.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NewPurchasePayment {
    /// Required: the purchase.
    pub purchase_id: Option<i64>,
    /// Required: date paid.
    #[serde(default, with = "crate::wire::date_option")]
    pub date: Option<NaiveDate>,
    /// Required: amount (> 0).
    #[serde(default, with = "crate::wire::decimal_option")]
    pub total: Option<Decimal>,
}

/// What a purchase imported from an e-invoice records about the document (issue 10
/// contract § Import).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PurchaseEInvoice {
    /// `cii` (UN/CEFACT CII) or `ubl` (OASIS UBL 2.1).
    pub syntax: String,
    /// `xrechnung` (an XRechnung XML), `factur-x` (a Factur-X / ZUGFeRD PDF) or `en16931`
    /// (any other EN 16931 XML).
    pub format: String,
    /// The seller's name (BT-27) as the document writes it; `null` for purchases imported
    /// before it was kept. When it differs from the supplier's name (the supplier was
    /// matched by VAT ID or IBAN), the app says so and offers to take it (issue 34).
    #[serde(default)]
    pub seller_name: Option<String>,
}

/// A purchase as GET /purchases/{id} returns it (the list has the same shape).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Purchase {
    /// Record id.
    pub id: i64,
    /// Number `E<YYMM>-<NNNN>`.
    pub identifier: String,
    /// The supplier's receipt number.
    pub receipt_identifier: String,
    /// Title (the first position's title unless given).
    pub title: String,
    /// Free text.
    pub info: Option<String>,
    /// IBAN to pay to.
    pub iban: String,
    /// Payment reference.
    pub reference: Option<String>,
    /// Receipt date.
    pub date: NaiveDate,
    /// Due date.
    pub due_date: Option<NaiveDate>,
    /// Service period start.
    pub service_period_from: Option<NaiveDate>,
    /// Service period end.
    pub service_period_to: Option<NaiveDate>,
    /// Status.
    pub status: PurchaseStatus,
    /// Payment method.
    pub payment_method: PaymentMethod,
    /// Net total, currency units.
    #[serde(with = "crate::wire::decimal")]
    pub net_total: Decimal,
    /// Gross total, currency units.
    #[serde(with = "crate::wire::decimal")]
    pub gross_total: Decimal,
    /// Currency.
    pub currency: String,
    /// Signed link to the stored document (15 minutes), `null` without one.
    pub file_url: Option<String>,
    /// MIME type of the stored document (beyond the interface's fields).
    pub file_content_type: Option<String>,
    /// The stored document's file name as it was uploaded, cleaned of folders and control
    /// characters (`receipt.pdf`; issue 11 § Polish), `null` without a document.
    pub file_name: Option<String>,
    /// Custom properties.
    pub custom_properties: BTreeMap<String, String>,
    /// Tags.
    pub tags: Vec<String>,
    /// The supplier, `null` without one.
    pub company: Option<Supplier>,
    /// Payments made.
    pub payments: Vec<PurchasePayment>,
    /// The responsible user.
    pub user: Option<PurchaseUser>,
    /// Positions.
    pub items: Vec<PurchaseItem>,
    /// The e-invoice the purchase was imported from (`POST /purchases/import`), `null` for
    /// purchases entered by hand; its readable view is `GET /purchases/{id}/e_invoice.html`.
    pub e_invoice: Option<PurchaseEInvoice>,
    /// Kontor's EN 16931 check of the e-invoice the purchase was made from (issue 36:
    /// `{valid, class, findings}`), `null` for purchases entered by hand and for imports
    /// made before the check existed. A `formal` or `content` class holds approval up
    /// ([`crate::einvoice_check::approval_refusal`]).
    #[serde(default)]
    pub einvoice_check: Option<crate::einvoice_check::EinvoiceCheck>,
    /// Creation time.
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
    /// Last change.
    #[serde(with = "crate::timestamp")]
    pub updated_at: DateTime<Utc>,
}

/// One position of a purchase creation body.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NewPurchaseItem {
    /// Required: title.
    pub title: Option<String>,
    /// Required: the amount (gross with `tax_included`, else net).
    #[serde(default, with = "crate::wire::decimal_option")]
    pub total: Option<Decimal>,
    /// Required: tax rate in percent.
    #[serde(default, with = "crate::wire::decimal_option")]
    pub tax: Option<Decimal>,
    /// Whether `total` includes the tax (default false).
    pub tax_included: Option<bool>,
    /// Category (wins over the purchase's).
    pub category_id: Option<i64>,
}

/// POST /purchases body.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NewPurchase {
    /// Required: receipt date.
    #[serde(default, with = "crate::wire::date_option")]
    pub date: Option<NaiveDate>,
    /// Required: one of the account's currencies.
    pub currency: Option<String>,
    /// Required: payment method.
    pub payment_method: Option<PaymentMethod>,
    /// Required: at least one position.
    pub items: Option<Vec<NewPurchaseItem>>,
    /// Default category of every position.
    pub category_id: Option<i64>,
    /// Due date.
    #[serde(default, with = "crate::wire::date_option")]
    pub due_date: Option<NaiveDate>,
    /// Service period start.
    #[serde(default, with = "crate::wire::date_option")]
    pub service_period_from: Option<NaiveDate>,
    /// Service period end.
    #[serde(default, with = "crate::wire::date_option")]
    pub service_period_to: Option<NaiveDate>,
    /// `pending` (default) or `approved` (`archived` = approved).
    pub status: Option<PurchaseStatus>,
    /// Supplier company id.
    pub company_id: Option<i64>,
    /// Responsible user id.
    pub user_id: Option<i64>,
    /// Supplier's receipt number.
    pub receipt_identifier: Option<String>,
    /// Title (default: the first position's).
    pub title: Option<String>,
    /// Free text.
    pub info: Option<String>,
    /// IBAN (checked with its checksum).
    pub iban: Option<String>,
    /// Payment reference.
    pub reference: Option<String>,
    /// Custom property values.
    pub custom_property_values: Option<BTreeMap<String, String>>,
    /// Custom properties (merged with `custom_property_values`).
    pub custom_properties: Option<BTreeMap<String, String>>,
    /// The receipt document.
    pub file: Option<FileUpload>,
    /// Tags.
    pub tags: Option<Vec<String>>,
    /// Save even when the supplier already has a purchase with this receipt number
    /// (otherwise 409, [`duplicate_key`]; issue 11 § Polish). Default false.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allow_duplicate: Option<bool>,
}

/// The key under which two purchases are the same receipt (issue 11 § Polish,
/// `docs/decisions.md` § Polish (issue 11)): the supplier's id and the receipt number,
/// trimmed and compared without ASCII case (`RE-17` = ` re-17 `). `None` — nothing to
/// compare, never a duplicate — without a supplier or with a blank receipt number.
pub fn duplicate_key(
    company_id: Option<i64>,
    receipt_identifier: Option<&str>,
) -> Option<(i64, String)> {
    let receipt = receipt_identifier?.trim();
    if receipt.is_empty() {
        return None;
    }
    Some((company_id?, receipt.to_ascii_lowercase()))
}

/// The sentence of the 409 for a purchase that repeats purchase `identifier`
/// (`E2611-0012`) of the same supplier and receipt number.
pub fn duplicate_message(identifier: &str) -> String {
    format!("A purchase with this receipt number from this supplier exists ({identifier}).")
}

/// One line of `GET /purchases/totals` (issue 8): the sums of the purchases a filter
/// matches, per currency (amounts in that currency's units).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PurchaseTotal {
    /// ISO currency code.
    pub currency: String,
    /// Sum of the purchases' `net_total`.
    #[serde(with = "crate::wire::decimal")]
    pub net_total: Decimal,
    /// Sum of the purchases' `gross_total`.
    #[serde(with = "crate::wire::decimal")]
    pub gross_total: Decimal,
    /// Number of purchases in this currency.
    pub count: u64,
}

/// Sums `(currency, net_total, gross_total)` per currency, ordered by currency code.
/// Errors: `None` when a sum leaves the decimal type's range (checked, never saturating).
pub fn totals_per_currency(
    rows: impl IntoIterator<Item = (String, Decimal, Decimal)>,
) -> Option<Vec<PurchaseTotal>> {
    let mut sums: BTreeMap<String, PurchaseTotal> = BTreeMap::new();
    for (currency, net, gross) in rows {
        let line = sums.entry(currency.clone()).or_insert(PurchaseTotal {
            currency,
            net_total: Decimal::ZERO,
            gross_total: Decimal::ZERO,
            count: 0,
        });
        line.net_total = line.net_total.checked_add(net)?;
        line.gross_total = line.gross_total.checked_add(gross)?;
        line.count = line.count.checked_add(1)?;
    }
    Some(sums.into_values().collect())
}

/// The new name an imported e-invoice gives its supplier (issue 34): the seller's name
/// (BT-27) as the document writes it, when it differs from the supplier's stored name —
/// the supplier was found by VAT ID or IBAN under another name, e.g. after a renaming.
/// Names that differ only in case or spacing are the same name (`None`); so is a
/// document without a name.
pub fn new_supplier_name(supplier_name: &str, seller_name: Option<&str>) -> Option<String> {
    let normal = |s: &str| {
        s.split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase()
    };
    let seller = seller_name?
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    (!seller.is_empty() && normal(&seller) != normal(supplier_name)).then_some(seller)
}

#[cfg(test)]
mod supplier_name_tests {
    use super::new_supplier_name;

    #[test]
    fn a_renamed_seller_is_offered_and_the_same_name_is_not() {
        assert_eq!(
            new_supplier_name(
                "Müller Bürobedarf GmbH",
                Some("Müller Office Supplies GmbH")
            ),
            Some("Müller Office Supplies GmbH".into())
        );
        assert_eq!(
            new_supplier_name("Müller Bürobedarf GmbH", Some("  müller  bürobedarf gmbh ")),
            None
        );
        assert_eq!(new_supplier_name("Müller", None), None);
        assert_eq!(new_supplier_name("Müller", Some("   ")), None);
        assert_eq!(
            new_supplier_name("Old", Some(" New \n Name ")),
            Some("New Name".into())
        );
    }
}

#[cfg(test)]
mod duplicate_tests {
    use super::*;

    #[test]
    fn the_same_supplier_and_receipt_number_are_one_key() {
        assert_eq!(
            duplicate_key(Some(3), Some(" RE-17 ")),
            Some((3, "re-17".into()))
        );
        assert_eq!(
            duplicate_key(Some(3), Some("re-17")),
            duplicate_key(Some(3), Some("RE-17"))
        );
        assert_ne!(
            duplicate_key(Some(4), Some("RE-17")),
            duplicate_key(Some(3), Some("RE-17"))
        );
    }

    #[test]
    fn without_supplier_or_receipt_number_nothing_is_a_duplicate() {
        assert_eq!(duplicate_key(None, Some("RE-17")), None);
        assert_eq!(duplicate_key(Some(3), Some("  ")), None);
        assert_eq!(duplicate_key(Some(3), None), None);
    }

    #[test]
    fn the_message_names_the_existing_purchase() {
        assert_eq!(
            duplicate_message("E2611-0012"),
            "A purchase with this receipt number from this supplier exists (E2611-0012)."
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn archived_reads_as_approved() {
        assert_eq!(
            PurchaseStatus::parse("archived"),
            Some(PurchaseStatus::Approved)
        );
        let s: PurchaseStatus = serde_json::from_str("\"archived\"").unwrap();
        assert_eq!(serde_json::to_string(&s).unwrap(), "\"approved\"");
    }

    #[test]
    fn totals_are_summed_per_currency() {
        let d = |t: &str| t.parse::<Decimal>().unwrap();
        let rows = vec![
            ("EUR".to_string(), d("10.00"), d("11.90")),
            ("USD".to_string(), d("5.00"), d("5.00")),
            ("EUR".to_string(), d("-2.50"), d("-2.98")),
        ];
        let totals = totals_per_currency(rows).unwrap();
        assert_eq!(totals.len(), 2);
        assert_eq!(
            (
                totals[0].currency.as_str(),
                totals[0].net_total,
                totals[0].gross_total,
                totals[0].count
            ),
            ("EUR", d("7.50"), d("8.92"), 2)
        );
        assert_eq!((totals[1].currency.as_str(), totals[1].count), ("USD", 1));
        let huge = vec![
            ("EUR".to_string(), Decimal::MAX, Decimal::MAX),
            ("EUR".to_string(), Decimal::MAX, Decimal::MAX),
        ];
        assert_eq!(totals_per_currency(huge), None);
        assert_eq!(totals_per_currency(Vec::new()), Some(Vec::new()));
    }
}
