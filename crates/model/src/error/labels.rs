//! Field errors in the words of the form (issue 11 § Polish: "error summaries speak the
//! form's labels, never API paths, identically on all forms"; `docs/decisions.md`
//! § Polish (issue 11)).
//!
//! A 422 and the shared validation name fields by their wire path (`items[0].title`,
//! `customer_vat.tax`, `template.items[2].unit_price`). Every form of the app turns such a
//! path into the label the person sees above the field with [`field_label`], and a whole
//! error into one summary line with [`summary_line`]: `Position 1: title is required`,
//! `Due date must not be before the date`. One function for every form, so the invoice,
//! offer, purchase, company, settings and recurring forms say the same thing the same way.

/// The form that shows an error: the same wire name can carry a different label per form
/// (`date` is the "Invoice date" on invoices, the "Offer date" on offers; `company_id` is
/// the "Supplier" of a purchase).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// Invoice create/edit (`NewInvoice` paths).
    Invoice,
    /// Offer create/edit (`NewOffer` paths).
    Offer,
    /// Purchase create/edit (`NewPurchase` paths).
    Purchase,
    /// Customer or supplier (`NewCompany` paths).
    Company,
    /// The Settings page (`PUT /account` paths).
    Settings,
    /// A recurring invoice: its own fields, and `template.*` with the invoice's labels.
    Recurring,
}

/// The label of a document-level field (no position), or `None` for an unknown name.
fn document_label(form: Form, name: &str) -> Option<&'static str> {
    use Form::*;
    let label = match (form, name) {
        (Invoice | Recurring, "date") => "Invoice date",
        (Offer, "date") => "Offer date",
        (Purchase, "date") => "Date",
        (Offer, "due_date") => "Valid until",
        (_, "due_date") => "Due date",
        (Purchase, "company_id") => "Supplier",
        (_, "company_id") => "Company",
        (_, "customer_id") => "Customer",
        (_, "project_id") => "Project",
        (_, "deal_id") => "Deal",
        (_, "contact_id") => "Contact person",
        (_, "recipient_address") => "Recipient address",
        (_, "title") => "Title",
        (_, "buyer_reference") => "Customer reference",
        (_, "service_period_from") => "Service from",
        (_, "service_period_to") => "Service to",
        (_, "currency") => "Currency",
        (_, "tax") | (_, "customer_vat.tax") | (_, "vat.tax") => "VAT %",
        (_, "vat") | (_, "customer_vat") => "VAT",
        (_, "vat.reverse_charge") | (_, "customer_vat.reverse_charge") => "Reverse charge",
        (_, "vat.intra_eu") | (_, "customer_vat.intra_eu") => "Intra-EU supply",
        (_, "discount") | (_, "default_discount") => "Discount %",
        (_, "cash_discount") | (_, "default_cash_discount") => "Cash discount %",
        (_, "cash_discount_days") | (_, "default_cash_discount_days") => "Cash discount days",
        (_, "salutation") => "Salutation",
        (_, "footer") => "Footer",
        (_, "tags") => "Tags",
        (_, "items") => "Positions",
        (_, "status") => "Status",
        (_, "letter_paper_id") => "Letter paper",
        (_, "change_address") => "Address",
        (_, "user_id") => "User",
        (_, "category_id") => "Category",
        (_, "payment_method") => "Payment method",
        (_, "iban") => "IBAN",
        (_, "bic") => "BIC",
        (_, "reference") => "Payment reference",
        (_, "receipt_identifier") => "Receipt no.",
        (Purchase, "file" | "file.base64" | "file.filename") => "Receipt document",
        (_, "file" | "file.base64" | "file.filename") => "File",
        (_, "name") => "Name",
        (_, "country_code") => "Country",
        (_, "address") => "Address",
        (Company, "email") => "Billing e-mail",
        (_, "email") => "E-mail",
        (_, "billing_email_cc") => "Billing CC",
        (_, "vat_identifier") => "VAT ID",
        (_, "tax_number") => "Tax number",
        (_, "phone") => "Phone",
        (_, "website") => "Website",
        (_, "language") => "Document language",
        (_, "default_invoice_due_days") | (_, "payment_term_days") => "Payment term (days)",
        (_, "info") => "Notes",
        (_, "custom_properties") => "Custom properties",
        (_, "electronic_address") => "E-invoice address",
        (_, "einvoice_format") => "Invoices as",
        (_, "sepa_mandate_reference") => "SEPA mandate reference",
        (_, "sepa_creditor_identifier") => "SEPA creditor ID",
        (_, "debit_number" | "debtor_number") => "Debtor number",
        (_, "credit_number" | "creditor_number") => "Creditor number",
        (_, "currencies") => "Currencies",
        (_, "default_currency") => "Default currency",
        (_, "smtp.host") => "SMTP server",
        (_, "smtp.port") => "Port",
        (_, "smtp.username") => "User name",
        (_, "smtp.password") => "Password",
        (_, "smtp.from") => "Sender address",
        (_, "interval") => "Repeats",
        (_, "next_date") => "Next invoice date",
        (_, "end_date") => "Ends on",
        (_, "mode") => "What happens",
        _ => return None,
    };
    Some(label)
}

/// The (lower-case) name of a field of a position, as the summary line after
/// "Position n:" says it, or `None` for an unknown name.
fn position_label(form: Form, name: &str) -> Option<&'static str> {
    let label = match (form, name) {
        (Form::Purchase, "total") => "amount",
        (Form::Purchase, "tax") => "VAT %",
        (Form::Purchase, "tax_included") => "amount includes VAT",
        (_, "title") => "title",
        (_, "description") => "description",
        (_, "quantity") => "quantity",
        (_, "unit") => "unit",
        (_, "unit_price") => "unit price",
        (_, "net_total") => "lump sum",
        (_, "type") => "type",
        (_, "optional") => "optional",
        (_, "tax") | (_, "vat") | (_, "vat.tax") => "VAT",
        (_, "tax_category") | (_, "vat.category") => "VAT category",
        (_, "tax_exemption_reason") | (_, "vat.exemption_reason") => "exemption reason",
        (_, "activity_ids") => "billed time",
        (_, "expense_ids") => "billed expenses",
        (_, "category_id") => "category",
        (_, "total") => "amount",
        _ => return None,
    };
    Some(label)
}

/// A readable fallback for a name no table knows: the last dotted part without indices,
/// underscores as spaces (`smtp.starttls_mode` → `starttls mode`).
fn humanize(name: &str) -> String {
    let last = name.rsplit('.').next().unwrap_or(name);
    let last = last.split('[').next().unwrap_or(last);
    last.replace('_', " ").trim().to_string()
}

/// Upper-cases the first letter (`unit price` → `Unit price`).
fn capitalize(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// Splits `items[3].unit_price` into the 0-based position index and the field within it
/// (`""` for `items[3]` itself); `None` for a document-level path.
fn position_path(path: &str) -> Option<(usize, &str)> {
    let rest = path.strip_prefix("items[")?;
    let (index, field) = rest.split_once(']')?;
    let index = index.parse::<usize>().ok()?;
    Some((index, field.strip_prefix('.').unwrap_or(field)))
}

/// What a form calls the field at wire `path`, as shown in the summary: a document field
/// gets its label (`due_date` → "Due date" on invoices, "Valid until" on offers), a
/// position field "Position n: name" with n counted from 1 (`items[0].title` →
/// "Position 1: title"), a list entry the list's label (`tags[2]` → "Tags"). A recurring
/// invoice's `template.` fields get the invoice form's labels. Unknown names fall back to
/// the last part with spaces (`foo_bar` → "Foo bar"), never the raw path. The empty path
/// (an error about the whole record) is "".
pub fn field_label(form: Form, path: &str) -> String {
    let (form, path) = match (form, path.strip_prefix("template.")) {
        (Form::Recurring, Some(inner)) => (Form::Invoice, inner),
        _ => (form, path),
    };
    if path.is_empty() {
        return String::new();
    }
    if let Some((index, field)) = position_path(path) {
        let n = index.saturating_add(1);
        if field.is_empty() {
            return format!("Position {n}");
        }
        let name = position_label(form, field)
            .map(str::to_string)
            .unwrap_or_else(|| humanize(field));
        return format!("Position {n}: {name}");
    }
    if let Some(label) = document_label(form, path) {
        return label.to_string();
    }
    // `tags[2]`, `emails_to[0]`: the list's label.
    if let Some((list, _)) = path.split_once('[') {
        if let Some(label) = document_label(form, list) {
            return label.to_string();
        }
    }
    capitalize(&humanize(path))
}

/// Whether a message continues the label as a sentence: English "is required", "must …",
/// German "ist erforderlich", "darf …" (the server's German messages, `error_text`).
fn continues_label(message: &str) -> bool {
    const VERBS: [&str; 19] = [
        "is ",
        "are ",
        "must ",
        "does ",
        "do ",
        "has ",
        "may ",
        "cannot ",
        "was ",
        "ist ",
        "sind ",
        "muss ",
        "darf ",
        "hat ",
        "existiert ",
        "liegt ",
        "passt ",
        "kann ",
        "wurde ",
    ];
    VERBS.iter().any(|v| message.starts_with(v))
}

/// One line of an error summary for the errors of one field: the label followed by the
/// messages, e.g. `Position 1: title is required`, `Due date must not be before the date`,
/// `Company: give a company, a deal or a project` (a message that is not the rest of a
/// sentence gets a colon). Several messages are joined with "; ". An error without a path
/// is just its messages.
pub fn summary_line(form: Form, path: &str, messages: &[super::Message]) -> String {
    let texts: Vec<String> = messages.iter().map(|m| m.english().to_string()).collect();
    join_summary(&field_label(form, path), &texts)
}

/// One summary line from a field's `label` and its `messages`, both already in the
/// reader's language (English or German): `Position 1: Einzelpreis ist erforderlich`,
/// `Firma: geben Sie …`; messages alone (capitalized) without a label.
pub fn join_summary(label: &str, messages: &[String]) -> String {
    let label = label.to_string();
    let text = messages.join("; ");
    if label.is_empty() {
        return capitalize(&text);
    }
    if text.is_empty() {
        return label;
    }
    let first = messages.first().map(String::as_str).unwrap_or("");
    if continues_label(first) {
        format!("{label} {text}")
    } else {
        format!("{label}: {text}")
    }
}

/// Every line of a summary for `errors` (one per field, in path order).
pub fn summary_lines(form: Form, errors: &super::FieldErrors) -> Vec<String> {
    errors
        .iter()
        .map(|(path, messages)| summary_line(form, path, messages))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(form: Form, path: &str, message: &str) -> String {
        summary_line(form, path, &[super::super::Message::verbatim(message)])
    }

    #[test]
    fn german_lines_join_label_and_message_as_a_sentence() {
        let m = |t: &str| vec![t.to_string()];
        assert_eq!(
            join_summary("Position 1: Einzelpreis", &m("ist erforderlich")),
            "Position 1: Einzelpreis ist erforderlich"
        );
        assert_eq!(
            join_summary("Firma", &m("geben Sie eine Firma an")),
            "Firma: geben Sie eine Firma an"
        );
        assert_eq!(
            join_summary("", &m("zu viele Positionen")),
            "Zu viele Positionen"
        );
        assert_eq!(join_summary("Titel", &[]), "Titel");
    }

    #[test]
    fn positions_are_counted_from_one_with_the_field_name() {
        assert_eq!(
            line(Form::Invoice, "items[0].title", "is required"),
            "Position 1: title is required"
        );
        assert_eq!(
            line(Form::Offer, "items[11].unit_price", "must be a number"),
            "Position 12: unit price must be a number"
        );
        assert_eq!(
            line(Form::Purchase, "items[1].total", "is required"),
            "Position 2: amount is required"
        );
        assert_eq!(field_label(Form::Invoice, "items[3]"), "Position 4");
    }

    #[test]
    fn the_same_field_has_the_form_s_label() {
        assert_eq!(field_label(Form::Invoice, "date"), "Invoice date");
        assert_eq!(field_label(Form::Offer, "date"), "Offer date");
        assert_eq!(field_label(Form::Offer, "due_date"), "Valid until");
        assert_eq!(field_label(Form::Purchase, "company_id"), "Supplier");
        assert_eq!(field_label(Form::Offer, "company_id"), "Company");
        assert_eq!(field_label(Form::Company, "customer_vat.tax"), "VAT %");
        assert_eq!(field_label(Form::Invoice, "tax"), "VAT %");
    }

    #[test]
    fn recurring_templates_speak_like_the_invoice_form() {
        assert_eq!(
            line(Form::Recurring, "template.items[0].title", "is required"),
            "Position 1: title is required"
        );
        assert_eq!(
            field_label(Form::Recurring, "template.customer_id"),
            "Customer"
        );
        assert_eq!(
            field_label(Form::Recurring, "next_date"),
            "Next invoice date"
        );
    }

    #[test]
    fn no_line_ever_shows_a_wire_path() {
        for path in [
            "items[0].title",
            "items[2].vat.exemption_reason",
            "customer_vat.tax",
            "smtp.port",
            "tags[3]",
            "template.items[1].unit_price",
            "some_new_field",
            "document_texts.de.invoice_footer",
        ] {
            for form in [
                Form::Invoice,
                Form::Offer,
                Form::Purchase,
                Form::Company,
                Form::Settings,
                Form::Recurring,
            ] {
                let text = line(form, path, "is required");
                assert!(!text.contains('_'), "{form:?} {path}: {text}");
                assert!(!text.contains('['), "{form:?} {path}: {text}");
                assert!(!text.contains("].") && !text.contains(".t"), "{text}");
            }
        }
        assert_eq!(
            field_label(Form::Company, "some_new_field"),
            "Some new field"
        );
        assert_eq!(field_label(Form::Invoice, "tags[3]"), "Tags");
    }

    #[test]
    fn standalone_messages_get_a_colon_and_pathless_errors_stand_alone() {
        assert_eq!(
            line(
                Form::Offer,
                "company_id",
                "give a company, a deal or a project"
            ),
            "Company: give a company, a deal or a project"
        );
        assert_eq!(
            line(Form::Invoice, "due_date", "must not be before the date"),
            "Due date must not be before the date"
        );
        assert_eq!(
            line(Form::Invoice, "", "nothing to save"),
            "Nothing to save"
        );
        assert_eq!(
            summary_line(
                Form::Purchase,
                "iban",
                &[
                    super::super::messages::IS_REQUIRED.into(),
                    super::super::messages::IS_NOT_VALID_IBAN.into()
                ]
            ),
            "IBAN is required; is not a valid IBAN"
        );
    }
}
