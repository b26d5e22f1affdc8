//! The EN 16931-1 semantic data model, as far as Kontor writes and reads it.
//!
//! Field names follow the business terms; every field's doc comment gives its BT/BG number.
//! Amounts are `rust_decimal::Decimal` in currency units (never floats), rounded to at most
//! two decimals (BR-DEC-*) by whoever fills the struct; unit prices (BT-146) and quantities
//! (BT-129) may have more. Percentages are in percent (`19` means 19 %). Dates are
//! calendar dates. The writers (`cii`, `ubl`) write exactly what is here and compute
//! nothing; the readers fill it from a document.

use chrono::NaiveDate;
use rust_decimal::Decimal;

/// The specification identifier (BT-24) and with it the rule set a document claims.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Specification {
    /// XRechnung 3.0 CIUS: `urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0`.
    XRechnung,
    /// Plain EN 16931 (the Factur-X / ZUGFeRD profile EN 16931): `urn:cen.eu:en16931:2017`.
    En16931,
}

impl Specification {
    /// The BT-24 text.
    pub fn identifier(self) -> &'static str {
        match self {
            Specification::XRechnung => {
                "urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0"
            }
            Specification::En16931 => "urn:cen.eu:en16931:2017",
        }
    }
}

/// The invoice type code (BT-3, UNTDID 1001).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TypeCode {
    /// 380 commercial invoice.
    Invoice,
    /// 381 credit note (Kontor's reversal invoices; amounts positive, BG-3 refers to the
    /// reversed invoice). UBL writes a `CreditNote` document.
    CreditNote,
}

impl TypeCode {
    /// The UNTDID 1001 code: `380` or `381`.
    pub fn code(self) -> &'static str {
        match self {
            TypeCode::Invoice => "380",
            TypeCode::CreditNote => "381",
        }
    }
}

/// A VAT category (BT-95/BT-102/BT-118/BT-151, UNTDID 5305).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum VatCategory {
    /// `S` standard rate (any rate above 0, e.g. 19 % and the reduced 7 %).
    Standard,
    /// `Z` zero rated goods.
    Zero,
    /// `E` exempt from tax (needs an exemption reason, BT-120).
    Exempt,
    /// `AE` VAT reverse charge (§ 13b UStG; both VAT IDs needed).
    ReverseCharge,
    /// `K` intra-community supply (VAT exempt for EEA; both VAT IDs, delivery date or
    /// period, and the deliver-to country needed).
    IntraCommunity,
    /// `G` free export item, tax not charged (export outside the EU).
    Export,
    /// `O` services outside scope of tax (no VAT IDs allowed).
    OutsideScope,
}

impl VatCategory {
    /// The UNTDID 5305 code (`S`, `Z`, `E`, `AE`, `K`, `G`, `O`).
    pub fn code(self) -> &'static str {
        match self {
            VatCategory::Standard => "S",
            VatCategory::Zero => "Z",
            VatCategory::Exempt => "E",
            VatCategory::ReverseCharge => "AE",
            VatCategory::IntraCommunity => "K",
            VatCategory::Export => "G",
            VatCategory::OutsideScope => "O",
        }
    }

    /// Reads a UNTDID 5305 code; `None` for codes Kontor does not know (`L`, `M`, …).
    pub fn parse(code: &str) -> Option<Self> {
        Some(match code.trim() {
            "S" => VatCategory::Standard,
            "Z" => VatCategory::Zero,
            "E" => VatCategory::Exempt,
            "AE" => VatCategory::ReverseCharge,
            "K" => VatCategory::IntraCommunity,
            "G" => VatCategory::Export,
            "O" => VatCategory::OutsideScope,
            _ => return None,
        })
    }
}

/// A postal address (BG-5 seller, BG-8 buyer, BG-15 deliver-to).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Address {
    /// Address lines BT-35/36/162 (seller), BT-50/51/163 (buyer): at most 3, street first.
    pub lines: Vec<String>,
    /// City BT-37 / BT-52.
    pub city: Option<String>,
    /// Post code BT-38 / BT-53.
    pub post_code: Option<String>,
    /// Country subdivision BT-39 / BT-54.
    pub subdivision: Option<String>,
    /// Country code BT-40 / BT-55, ISO 3166-1 alpha-2.
    pub country_code: String,
}

/// An electronic address with its scheme (BT-34 seller, BT-49 buyer; scheme EAS code,
/// `EM` for e-mail, `0204` for a Leitweg-ID).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ElectronicAddress {
    /// The address (`rechnung@kunde.example`).
    pub value: String,
    /// The EAS scheme code (`EM`).
    pub scheme: String,
}

/// The seller's contact point (BG-6; XRechnung requires name, phone and e-mail).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Contact {
    /// BT-41 contact point (a person or department).
    pub name: Option<String>,
    /// BT-42 telephone.
    pub phone: Option<String>,
    /// BT-43 e-mail.
    pub email: Option<String>,
}

/// A trade party: seller (BG-4) or buyer (BG-7).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Party {
    /// BT-27 / BT-44 name.
    pub name: String,
    /// BT-28 / BT-45 trading name.
    pub trading_name: Option<String>,
    /// BT-29 / BT-46 identifier (a supplier or customer number), no scheme.
    pub identifier: Option<String>,
    /// BT-30 / BT-47 legal registration identifier (e.g. `HRB 123456`).
    pub legal_registration: Option<String>,
    /// BT-31 / BT-48 VAT identifier (`DE123456789`).
    pub vat_identifier: Option<String>,
    /// BT-32 seller tax registration (Steuernummer; CII scheme `FC`, UBL `TaxScheme/ID` `FC`).
    /// Buyers have none.
    pub tax_number: Option<String>,
    /// BT-33 seller additional legal information (register court, managing directors).
    pub additional_legal_information: Option<String>,
    /// BT-34 / BT-49 electronic address.
    pub electronic_address: Option<ElectronicAddress>,
    /// BG-5 / BG-8 postal address.
    pub address: Address,
    /// BG-6 seller contact / BG-9 buyer contact.
    pub contact: Option<Contact>,
}

/// How the buyer pays (BG-16).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PaymentMeans {
    /// Code 58, SEPA credit transfer to the seller's account (BG-17).
    CreditTransfer {
        /// BT-84 payment account identifier (IBAN).
        iban: String,
        /// BT-85 payment account name.
        account_name: Option<String>,
        /// BT-86 payment service provider identifier (BIC).
        bic: Option<String>,
    },
    /// Code 59, SEPA direct debit (BG-19).
    DirectDebit {
        /// BT-89 mandate reference identifier.
        mandate_reference: String,
        /// BT-90 bank assigned creditor identifier (the seller's SEPA creditor ID).
        creditor_identifier: String,
        /// BT-91 debited account identifier (the buyer's IBAN).
        debited_iban: String,
    },
}

impl PaymentMeans {
    /// BT-81 payment means type code (UNTDID 4461): `58` or `59`.
    pub fn code(&self) -> &'static str {
        match self {
            PaymentMeans::CreditTransfer { .. } => "58",
            PaymentMeans::DirectDebit { .. } => "59",
        }
    }
}

/// A reference to a preceding invoice (BG-3), written for credit notes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PrecedingInvoice {
    /// BT-25 preceding invoice reference (its number).
    pub number: String,
    /// BT-26 preceding invoice issue date.
    pub issue_date: Option<NaiveDate>,
}

/// A document-level allowance (BG-20) or charge (BG-21).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AllowanceCharge {
    /// BT-92 / BT-99 amount (positive).
    pub amount: Decimal,
    /// BT-93 / BT-100 base amount.
    pub base_amount: Option<Decimal>,
    /// BT-94 / BT-101 percentage.
    pub percent: Option<Decimal>,
    /// BT-95 / BT-102 VAT category.
    pub category: VatCategory,
    /// BT-96 / BT-103 VAT rate in percent (0 for non-standard categories).
    pub rate: Decimal,
    /// BT-97 / BT-104 reason text.
    pub reason: Option<String>,
    /// BT-98 / BT-105 reason code (UNTDID 5189 for allowances, 7161 for charges).
    pub reason_code: Option<String>,
}

/// One invoice line (BG-25).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// BT-126 line identifier (`1`, `2`, …).
    pub id: String,
    /// BT-127 line note.
    pub note: Option<String>,
    /// BT-129 invoiced quantity.
    pub quantity: Decimal,
    /// BT-130 unit of measure code (UN/ECE Rec. 20, `HUR`, `C62`, …).
    pub unit_code: String,
    /// BT-131 line net amount.
    pub net_amount: Decimal,
    /// BT-146 item net price (per one unit).
    pub price: Decimal,
    /// BT-153 item name.
    pub name: String,
    /// BT-154 item description.
    pub description: Option<String>,
    /// BT-151 invoiced item VAT category.
    pub category: VatCategory,
    /// BT-152 invoiced item VAT rate in percent (0 for non-standard categories).
    pub rate: Decimal,
    /// BG-26 invoice line period (BT-134 start, BT-135 end).
    pub period: Option<(NaiveDate, NaiveDate)>,
}

/// One VAT breakdown (BG-23) per category and rate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VatBreakdown {
    /// BT-118 VAT category.
    pub category: VatCategory,
    /// BT-119 VAT rate in percent.
    pub rate: Decimal,
    /// BT-116 taxable amount.
    pub taxable_amount: Decimal,
    /// BT-117 tax amount.
    pub tax_amount: Decimal,
    /// BT-120 exemption reason text (required for E, AE, K, G, O).
    pub exemption_reason: Option<String>,
    /// BT-121 exemption reason code (VATEX, e.g. `VATEX-EU-AE`).
    pub exemption_reason_code: Option<String>,
}

/// The document totals (BG-22).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// BT-106 sum of invoice line net amounts.
    pub line_net_total: Decimal,
    /// BT-107 sum of document-level allowances.
    pub allowance_total: Decimal,
    /// BT-108 sum of document-level charges.
    pub charge_total: Decimal,
    /// BT-109 invoice total without VAT.
    pub tax_exclusive: Decimal,
    /// BT-110 invoice total VAT amount.
    pub tax_total: Decimal,
    /// BT-112 invoice total with VAT.
    pub tax_inclusive: Decimal,
    /// BT-113 paid amount.
    pub prepaid: Decimal,
    /// BT-114 rounding amount.
    pub rounding: Decimal,
    /// BT-115 amount due for payment.
    pub payable: Decimal,
}

/// An invoice in EN 16931 terms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invoice {
    /// BT-24 specification identifier.
    pub specification: Specification,
    /// BT-1 invoice number.
    pub number: String,
    /// BT-2 issue date.
    pub issue_date: NaiveDate,
    /// BT-3 type code.
    pub type_code: TypeCode,
    /// BT-5 invoice currency code (ISO 4217).
    pub currency: String,
    /// BT-9 payment due date.
    pub due_date: Option<NaiveDate>,
    /// BT-10 buyer reference (Leitweg-ID for public buyers).
    pub buyer_reference: Option<String>,
    /// BT-13 purchase order reference.
    pub order_reference: Option<String>,
    /// BT-22 invoice notes (plain text).
    pub notes: Vec<String>,
    /// BG-3 preceding invoice (credit notes).
    pub preceding_invoice: Option<PrecedingInvoice>,
    /// BG-4 seller.
    pub seller: Party,
    /// BG-7 buyer.
    pub buyer: Party,
    /// BT-72 actual delivery date.
    pub delivery_date: Option<NaiveDate>,
    /// BG-14 invoicing period (BT-73 start, BT-74 end).
    pub period: Option<(NaiveDate, NaiveDate)>,
    /// BT-80 deliver-to country code (needed for intra-community supply).
    pub delivery_country: Option<String>,
    /// BG-16 payment instructions; `None` writes none.
    pub payment_means: Option<PaymentMeans>,
    /// BT-83 remittance information (the payment reference, usually the invoice number).
    pub remittance_information: Option<String>,
    /// BT-20 payment terms (free text; XRechnung cash discount lines `#SKONTO#TAGE=14#PROZENT=2.00#`
    /// included here, each on its own line, the text ending with a line break).
    pub payment_terms: Option<String>,
    /// BG-20 document-level allowances (Kontor's discount, one per VAT category and rate).
    pub allowances: Vec<AllowanceCharge>,
    /// BG-21 document-level charges.
    pub charges: Vec<AllowanceCharge>,
    /// BG-25 lines (at least one).
    pub lines: Vec<Line>,
    /// BG-23 VAT breakdown (at least one).
    pub vat_breakdown: Vec<VatBreakdown>,
    /// BG-22 totals.
    pub totals: Totals,
}
