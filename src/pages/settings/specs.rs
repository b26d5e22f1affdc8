//! What each Settings section contains: its fields (wire path, label, how typed and sent)
//! and the shared validation its body goes through before it is sent.

use super::field_spec::{FieldSpec, Input, Wire};
use kontor_model::country::COUNTRIES;

/// Company: the sender of every document and what § 14 UStG wants on an invoice.
pub const COMPANY: &[FieldSpec] = &[
    FieldSpec::text("name", "Company name").wire(Wire::Required),
    FieldSpec::text("address", "Address")
        .input(Input::Multiline)
        .wire(Wire::Text)
        .hint("Street, postcode and city, one per line (without the name)."),
    FieldSpec::text("country_code", "Country").input(Input::Choice(COUNTRIES)),
    FieldSpec::text("vat_identifier", "VAT ID").hint("With the country prefix, e.g. DE123456788."),
    FieldSpec::text("tax_number", "Tax number").hint("Steuernummer, e.g. 21/815/08150."),
    FieldSpec::text("register_court", "Register court").hint("e.g. Amtsgericht Hamburg"),
    FieldSpec::text("register_number", "Register number").hint("e.g. HRB 123456"),
    FieldSpec::text("managing_directors", "Managing directors"),
    FieldSpec::text("phone", "Phone"),
    FieldSpec::text("email", "E-mail").input(Input::Email),
    FieldSpec::text("website", "Website").input(Input::Url),
];

/// Bank: the account payments go to (named on every invoice).
pub const BANK: &[FieldSpec] = &[
    FieldSpec::text("account_holder", "Account holder"),
    FieldSpec::text("bank_name", "Bank name"),
    FieldSpec::text("iban", "IBAN"),
    FieldSpec::text("bic", "BIC"),
];

/// E-invoices (issue 10): the seller's electronic address (BT-34), the SEPA creditor
/// identifier (BT-90) for direct debits, and whether invoice PDFs are Factur-X.
pub const EINVOICE: &[FieldSpec] = &[
    FieldSpec::text("electronic_address", "E-invoice address")
        .hint("Where customers' systems reach you; empty: the company e-mail."),
    FieldSpec::text("sepa_creditor_identifier", "SEPA creditor ID")
        .hint("Needed for direct debits, e.g. DE98ZZZ09999999999."),
    FieldSpec::text("factur_x", "Factur-X PDFs")
        .input(Input::Switch)
        .wire(Wire::Bool)
        .hint("Invoice PDFs carry the e-invoice (XML) inside whenever the invoice has what EN 16931 needs."),
];

/// The token help under each number format.
const FORMAT_HINT: &str = "{YYYY} or {YY} year, {MM} month, one counter {NNN} (its width).";

/// Documents: default texts per language and the number formats.
pub const DOCUMENTS: &[FieldSpec] = &[
    FieldSpec::text("document_texts.de.invoice_salutation", "Invoice salutation")
        .input(Input::Multiline)
        .wire(Wire::Text),
    FieldSpec::text("document_texts.de.invoice_footer", "Invoice footer")
        .input(Input::Multiline)
        .wire(Wire::Text),
    FieldSpec::text("document_texts.de.offer_salutation", "Offer salutation")
        .input(Input::Multiline)
        .wire(Wire::Text),
    FieldSpec::text("document_texts.de.offer_footer", "Offer footer")
        .input(Input::Multiline)
        .wire(Wire::Text),
    FieldSpec::text("document_texts.en.invoice_salutation", "Invoice salutation")
        .input(Input::Multiline)
        .wire(Wire::Text),
    FieldSpec::text("document_texts.en.invoice_footer", "Invoice footer")
        .input(Input::Multiline)
        .wire(Wire::Text),
    FieldSpec::text("document_texts.en.offer_salutation", "Offer salutation")
        .input(Input::Multiline)
        .wire(Wire::Text),
    FieldSpec::text("document_texts.en.offer_footer", "Offer footer")
        .input(Input::Multiline)
        .wire(Wire::Text),
    FieldSpec::text("invoice_number_format", "Invoice numbers")
        .wire(Wire::Required)
        .hint(FORMAT_HINT),
    FieldSpec::text("offer_number_format", "Offer numbers")
        .wire(Wire::Required)
        .hint(FORMAT_HINT),
    FieldSpec::text("purchase_number_format", "Purchase numbers")
        .wire(Wire::Required)
        .hint(FORMAT_HINT),
];

/// Taxes and defaults for new documents.
pub const TAXES: &[FieldSpec] = &[
    FieldSpec::text("currencies", "Currencies")
        .wire(Wire::Codes)
        .hint("ISO codes, comma-separated, e.g. EUR, USD, CHF."),
    FieldSpec::text("default_currency", "Default currency")
        .input(Input::OneOf("currencies"))
        .wire(Wire::Required),
    FieldSpec::text("default_tax", "Default VAT (%)")
        .input(Input::Number)
        .wire(Wire::Decimal),
    FieldSpec::text("default_invoice_due_days", "Payment term (days)")
        .input(Input::Number)
        .wire(Wire::Integer)
        .hint("Days from the invoice date to its due date."),
];

/// The SMTP security choices.
pub const SECURITY: &[(&str, &str)] = &[
    ("starttls", "STARTTLS (port 587)"),
    ("tls", "TLS (port 465)"),
    ("none", "None (local relay only)"),
];

/// E-mail: the SMTP server documents are sent through.
pub const EMAIL: &[FieldSpec] = &[
    FieldSpec::text("smtp.host", "SMTP host").wire(Wire::Required),
    FieldSpec::text("smtp.port", "Port")
        .input(Input::Number)
        .wire(Wire::Integer),
    FieldSpec::text("smtp.security", "Security")
        .input(Input::Choice(SECURITY))
        .wire(Wire::Required),
    FieldSpec::text("smtp.user", "User name"),
    FieldSpec::text("smtp.password", "Password")
        .input(Input::Password)
        .wire(Wire::OmitWhenBlank),
];

/// The months a fiscal year may start in.
pub const MONTHS: &[(&str, &str)] = &[
    ("1", "January"),
    ("2", "February"),
    ("3", "March"),
    ("4", "April"),
    ("5", "May"),
    ("6", "June"),
    ("7", "July"),
    ("8", "August"),
    ("9", "September"),
    ("10", "October"),
    ("11", "November"),
    ("12", "December"),
];

/// DATEV (issue 11): the numbers and accounts of the DATEV export (`datev.*`,
/// `kontor_model::datev`); the revenue accounts default to SKR03.
pub const DATEV: &[FieldSpec] = &[
    FieldSpec::text("datev.consultant_number", "Consultant number")
        .input(Input::Number)
        .wire(Wire::OptionalInteger)
        .hint("Beraternummer of your tax advisor, 1001–9999999."),
    FieldSpec::text("datev.client_number", "Client number")
        .input(Input::Number)
        .wire(Wire::OptionalInteger)
        .hint("Mandantennummer, 1–99999."),
    FieldSpec::text("datev.fiscal_year_start", "Fiscal year starts in")
        .input(Input::Choice(MONTHS))
        .wire(Wire::Integer),
    FieldSpec::text("datev.account_length", "Account length")
        .input(Input::Number)
        .wire(Wire::Integer)
        .hint("Sachkontenlänge, 4–8 (SKR03: 4)."),
    FieldSpec::text("datev.revenue_accounts.standard", "Revenue 19 %")
        .input(Input::Number)
        .wire(Wire::Integer)
        .hint("SKR03: 8400"),
    FieldSpec::text("datev.revenue_accounts.reduced", "Revenue 7 %")
        .input(Input::Number)
        .wire(Wire::Integer)
        .hint("SKR03: 8300"),
    FieldSpec::text("datev.revenue_accounts.intra_eu", "Intra-EU supplies")
        .input(Input::Number)
        .wire(Wire::Integer)
        .hint("SKR03: 8125"),
    FieldSpec::text("datev.revenue_accounts.reverse_charge", "Reverse charge")
        .input(Input::Number)
        .wire(Wire::Integer)
        .hint("SKR03: 8337"),
    FieldSpec::text("datev.revenue_accounts.export", "Exports outside the EU")
        .input(Input::Number)
        .wire(Wire::Integer)
        .hint("SKR03: 8120"),
    FieldSpec::text("datev.revenue_accounts.exempt", "Tax-exempt and zero-rated")
        .input(Input::Number)
        .wire(Wire::Integer)
        .hint("SKR03: 8100"),
];
