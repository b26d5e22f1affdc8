//! What each Settings section contains: its fields (wire path, label, how typed and sent)
//! and the shared validation its body goes through before it is sent. Labels and hints
//! are catalogue texts (`settings_fields`), picked when shown.

use super::field_spec::{Choices, FieldSpec, Input, Wire};

/// Company: the sender of every document and what § 14 UStG wants on an invoice.
pub const COMPANY: &[FieldSpec] = &[
    FieldSpec::text("name", |c| c.settings_fields().name).wire(Wire::Required),
    FieldSpec::text("address", |c| c.settings_fields().address)
        .input(Input::Multiline)
        .wire(Wire::Text)
        .hint(|c| c.settings_fields().address_hint),
    FieldSpec::text("country_code", |c| c.settings_fields().country)
        .input(Input::Choice(Choices::Countries)),
    FieldSpec::text("vat_identifier", |c| c.settings_fields().vat_id)
        .hint(|c| c.settings_fields().vat_id_hint),
    FieldSpec::text("tax_number", |c| c.settings_fields().tax_number)
        .hint(|c| c.settings_fields().tax_number_hint),
    FieldSpec::text("register_court", |c| c.settings_fields().register_court)
        .hint(|c| c.settings_fields().register_court_hint),
    FieldSpec::text("register_number", |c| c.settings_fields().register_number)
        .hint(|c| c.settings_fields().register_number_hint),
    FieldSpec::text("managing_directors", |c| {
        c.settings_fields().managing_directors
    }),
    FieldSpec::text("phone", |c| c.settings_fields().phone),
    FieldSpec::text("email", |c| c.settings_fields().email).input(Input::Email),
    FieldSpec::text("website", |c| c.settings_fields().website).input(Input::Url),
];

/// Bank: the account payments go to (named on every invoice).
pub const BANK: &[FieldSpec] = &[
    FieldSpec::text("account_holder", |c| c.settings_fields().account_holder),
    FieldSpec::text("bank_name", |c| c.settings_fields().bank_name),
    FieldSpec::text("iban", |c| c.settings_fields().iban),
    FieldSpec::text("bic", |c| c.settings_fields().bic),
    // Issue 32: the EPC QR code beside the payment line of EUR invoices and reminders.
    FieldSpec::text("girocode", |c| c.settings_fields().girocode)
        .input(Input::Switch)
        .wire(Wire::Bool)
        .hint(|c| c.settings_fields().girocode_hint),
];

/// E-invoices (issue 10): the seller's electronic address (BT-34), the SEPA creditor
/// identifier (BT-90) for direct debits, and whether invoice PDFs are Factur-X.
pub const EINVOICE: &[FieldSpec] = &[
    FieldSpec::text("electronic_address", |c| {
        c.settings_fields().electronic_address
    })
    .hint(|c| c.settings_fields().electronic_address_hint),
    FieldSpec::text("sepa_creditor_identifier", |c| {
        c.settings_fields().creditor_id
    })
    .hint(|c| c.settings_fields().creditor_id_hint),
    FieldSpec::text("factur_x", |c| c.settings_fields().factur_x)
        .input(Input::Switch)
        .wire(Wire::Bool)
        .hint(|c| c.settings_fields().factur_x_hint),
];

/// Documents: default texts per language and the number formats.
pub const DOCUMENTS: &[FieldSpec] = &[
    FieldSpec::text("document_texts.de.invoice_salutation", |c| {
        c.settings_fields().invoice_salutation
    })
    .input(Input::Multiline)
    .wire(Wire::Text),
    FieldSpec::text("document_texts.de.invoice_footer", |c| {
        c.settings_fields().invoice_footer
    })
    .input(Input::Multiline)
    .wire(Wire::Text),
    FieldSpec::text("document_texts.de.offer_salutation", |c| {
        c.settings_fields().offer_salutation
    })
    .input(Input::Multiline)
    .wire(Wire::Text),
    FieldSpec::text("document_texts.de.offer_footer", |c| {
        c.settings_fields().offer_footer
    })
    .input(Input::Multiline)
    .wire(Wire::Text),
    FieldSpec::text("document_texts.en.invoice_salutation", |c| {
        c.settings_fields().invoice_salutation
    })
    .input(Input::Multiline)
    .wire(Wire::Text),
    FieldSpec::text("document_texts.en.invoice_footer", |c| {
        c.settings_fields().invoice_footer
    })
    .input(Input::Multiline)
    .wire(Wire::Text),
    FieldSpec::text("document_texts.en.offer_salutation", |c| {
        c.settings_fields().offer_salutation
    })
    .input(Input::Multiline)
    .wire(Wire::Text),
    FieldSpec::text("document_texts.en.offer_footer", |c| {
        c.settings_fields().offer_footer
    })
    .input(Input::Multiline)
    .wire(Wire::Text),
    FieldSpec::text("invoice_number_format", |c| {
        c.settings_fields().invoice_numbers
    })
    .wire(Wire::Required)
    .hint(|c| c.settings_fields().format_hint),
    FieldSpec::text("offer_number_format", |c| c.settings_fields().offer_numbers)
        .wire(Wire::Required)
        .hint(|c| c.settings_fields().format_hint),
    FieldSpec::text("purchase_number_format", |c| {
        c.settings_fields().purchase_numbers
    })
    .wire(Wire::Required)
    .hint(|c| c.settings_fields().format_hint),
    FieldSpec::text("credit_note_number_format", |c| {
        c.settings_fields().credit_note_numbers
    })
    .wire(Wire::Required)
    .hint(|c| c.settings_fields().format_hint),
    // Issue 31: an order confirmation goes out by itself when a customer signs online.
    FieldSpec::text("offer_confirmation_on_approval", |c| {
        c.settings_fields().confirmation_on_approval
    })
    .input(Input::Switch)
    .wire(Wire::Bool)
    .hint(|c| c.settings_fields().confirmation_on_approval_hint),
];

/// Taxes and defaults for new documents.
pub const TAXES: &[FieldSpec] = &[
    FieldSpec::text("currencies", |c| c.settings_fields().currencies)
        .wire(Wire::Codes)
        .hint(|c| c.settings_fields().currencies_hint),
    FieldSpec::text("default_currency", |c| c.settings_fields().default_currency)
        .input(Input::OneOf("currencies"))
        .wire(Wire::Required),
    FieldSpec::text("default_tax", |c| c.settings_fields().default_tax)
        .input(Input::Number)
        .wire(Wire::Decimal),
    FieldSpec::text("default_invoice_due_days", |c| c.settings_fields().due_days)
        .input(Input::Number)
        .wire(Wire::Integer)
        .hint(|c| c.settings_fields().due_days_hint),
    FieldSpec::text("finalized_invoice_deletion", |c| {
        c.settings_fields().finalized_invoice_deletion
    })
    .input(Input::Choice(Choices::Deletion))
    .hint(|c| c.settings_fields().finalized_invoice_deletion_hint),
];

/// E-mail: the SMTP server documents are sent through.
pub const EMAIL: &[FieldSpec] = &[
    FieldSpec::text("smtp.host", |c| c.settings_fields().smtp_host).wire(Wire::Required),
    FieldSpec::text("smtp.port", |c| c.settings_fields().smtp_port)
        .input(Input::Number)
        .wire(Wire::Integer),
    FieldSpec::text("smtp.security", |c| c.settings_fields().smtp_security)
        .input(Input::Choice(Choices::Security))
        .wire(Wire::Required),
    FieldSpec::text("smtp.user", |c| c.settings_fields().smtp_user),
    FieldSpec::text("smtp.password", |c| c.settings_fields().smtp_password)
        .input(Input::Password)
        .wire(Wire::OmitWhenBlank),
];

/// DATEV (issue 11): the numbers and accounts of the DATEV export (`datev.*`,
/// `kontor_model::datev`); the revenue accounts default to SKR03.
pub const DATEV: &[FieldSpec] = &[
    FieldSpec::text("datev.consultant_number", |c| {
        c.settings_fields().consultant_number
    })
    .input(Input::Number)
    .wire(Wire::OptionalInteger)
    .hint(|c| c.settings_fields().consultant_number_hint),
    FieldSpec::text("datev.client_number", |c| c.settings_fields().client_number)
        .input(Input::Number)
        .wire(Wire::OptionalInteger)
        .hint(|c| c.settings_fields().client_number_hint),
    FieldSpec::text("datev.fiscal_year_start", |c| {
        c.settings_fields().fiscal_year_start
    })
    .input(Input::Choice(Choices::Months))
    .wire(Wire::Integer),
    FieldSpec::text("datev.account_length", |c| {
        c.settings_fields().account_length
    })
    .input(Input::Number)
    .wire(Wire::Integer)
    .hint(|c| c.settings_fields().account_length_hint),
    FieldSpec::text("datev.revenue_accounts.standard", |c| {
        c.settings_fields().revenue_standard
    })
    .input(Input::Number)
    .wire(Wire::Integer)
    .hint(|c| c.settings_fields().revenue_standard_hint),
    FieldSpec::text("datev.revenue_accounts.reduced", |c| {
        c.settings_fields().revenue_reduced
    })
    .input(Input::Number)
    .wire(Wire::Integer)
    .hint(|c| c.settings_fields().revenue_reduced_hint),
    FieldSpec::text("datev.revenue_accounts.intra_eu", |c| {
        c.settings_fields().revenue_intra_eu
    })
    .input(Input::Number)
    .wire(Wire::Integer)
    .hint(|c| c.settings_fields().revenue_intra_eu_hint),
    FieldSpec::text("datev.revenue_accounts.reverse_charge", |c| {
        c.settings_fields().revenue_reverse_charge
    })
    .input(Input::Number)
    .wire(Wire::Integer)
    .hint(|c| c.settings_fields().revenue_reverse_charge_hint),
    FieldSpec::text("datev.revenue_accounts.export", |c| {
        c.settings_fields().revenue_export
    })
    .input(Input::Number)
    .wire(Wire::Integer)
    .hint(|c| c.settings_fields().revenue_export_hint),
    FieldSpec::text("datev.revenue_accounts.exempt", |c| {
        c.settings_fields().revenue_exempt
    })
    .input(Input::Number)
    .wire(Wire::Integer)
    .hint(|c| c.settings_fields().revenue_exempt_hint),
    // Debtor and creditor numbers from counters (issue 31).
    FieldSpec::text("datev.assign_account_numbers", |c| {
        c.settings_fields().assign_account_numbers
    })
    .input(Input::Switch)
    .wire(Wire::Bool)
    .hint(|c| c.settings_fields().assign_account_numbers_hint),
    FieldSpec::text("datev.debit_number_start", |c| {
        c.settings_fields().debit_number_start
    })
    .input(Input::Number)
    .wire(Wire::Integer)
    .hint(|c| c.settings_fields().debit_number_start_hint),
    FieldSpec::text("datev.credit_number_start", |c| {
        c.settings_fields().credit_number_start
    })
    .input(Input::Number)
    .wire(Wire::Integer)
    .hint(|c| c.settings_fields().credit_number_start_hint),
];

/// Every section's fields, for naming a field of another section in a message.
pub const ALL: [&[FieldSpec]; 7] = [COMPANY, BANK, EINVOICE, DOCUMENTS, TAXES, EMAIL, DATEV];

/// The label of the field at `path` in the current language, if a section has it.
pub fn label_of(path: &str) -> Option<&'static str> {
    ALL.iter()
        .flat_map(|specs| specs.iter())
        .find(|s| s.path == path)
        .map(|s| s.label_text())
}
