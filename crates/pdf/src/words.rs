//! Every fixed word of a printed document in each document language, in one table
//! (issue 9, "Documents show it": the customer's correspondence language picks German or
//! English labels). The server picks a [`Words`] with [`Language::words`] and puts the
//! words into [`crate::document::DocumentData`]; the template only places strings.
//!
//! Texts with `{name}` placeholders are filled with [`fill`].

/// A document language: the customer company's `language` (`"de"` or `"en"`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Language {
    /// German (the default for a German business).
    #[default]
    De,
    /// English.
    En,
}

impl Language {
    /// The language of a company's `language` code: `"en"` (any case, also `en-GB`) →
    /// English, everything else (including none) → German.
    pub fn from_code(code: Option<&str>) -> Self {
        match code {
            Some(c)
                if c.split(['-', '_'])
                    .next()
                    .unwrap_or("")
                    .eq_ignore_ascii_case("en") =>
            {
                Language::En
            }
            _ => Language::De,
        }
    }

    /// The code: `"de"` or `"en"` (also Typst's `lang` for hyphenation).
    pub fn code(self) -> &'static str {
        match self {
            Language::De => "de",
            Language::En => "en",
        }
    }

    /// The fixed words of this language.
    pub fn words(self) -> &'static Words {
        match self {
            Language::De => &DE,
            Language::En => &EN,
        }
    }
}

/// The fixed words of a document; `{…}` marks a placeholder for [`fill`].
#[derive(Debug, PartialEq, Eq)]
pub struct Words {
    /// Heading of an invoice, `{number}`.
    pub invoice_heading: &'static str,
    /// Heading of a reversal invoice, `{number}`.
    pub reversal_heading: &'static str,
    /// Heading of a credit note (Rechnungskorrektur, issue 33), `{number}`.
    pub credit_note_heading: &'static str,
    /// Heading of a down-payment invoice (issue 33), `{number}`.
    pub down_payment_heading: &'static str,
    /// Heading of a final invoice (issue 33), `{number}`.
    pub final_heading: &'static str,
    /// A final invoice's deduction, `{number}`, `{date}` (the down payment's).
    pub deduction: &'static str,
    /// A deduction's net line.
    pub deducted_net: &'static str,
    /// A deduction's VAT line, `{percent}`.
    pub deducted_vat: &'static str,
    /// A deduction's gross line.
    pub deducted_gross: &'static str,
    /// The net left after the deductions.
    pub remaining_net: &'static str,
    /// The VAT left after the deductions, `{percent}`.
    pub remaining_vat: &'static str,
    /// Heading of an offer, `{number}`.
    pub offer_heading: &'static str,
    /// Heading of a time sheet, `{number}` (the invoice's).
    pub timesheet_heading: &'static str,
    /// The identifier of an invoice that has none yet.
    pub draft: &'static str,
    /// Meta: invoice number.
    pub invoice_number: &'static str,
    /// Meta: invoice date.
    pub invoice_date: &'static str,
    /// Meta: due date.
    pub due_date: &'static str,
    /// Meta: service period.
    pub service_period: &'static str,
    /// Meta: offer number.
    pub offer_number: &'static str,
    /// Meta: offer date.
    pub offer_date: &'static str,
    /// Meta: offer valid until.
    pub valid_until: &'static str,
    /// Meta: the account's contact person.
    pub contact: &'static str,
    /// Meta: the customer's VAT ID (reverse charge and intra-EU supplies).
    pub customer_vat_id: &'static str,
    /// Column: position number.
    pub pos: &'static str,
    /// Column: description.
    pub description: &'static str,
    /// Column: quantity.
    pub quantity: &'static str,
    /// Column: unit.
    pub unit: &'static str,
    /// Column: unit price.
    pub unit_price: &'static str,
    /// Column: line total.
    pub total: &'static str,
    /// Subtotal rows and the subtotal before a discount.
    pub subtotal: &'static str,
    /// Marker of optional offer positions.
    pub optional: &'static str,
    /// Footer: "Page" (of "Page 1 of 2").
    pub page: &'static str,
    /// Footer: "of".
    pub of: &'static str,
    /// Totals: discount, `{percent}`.
    pub discount: &'static str,
    /// Totals: net total.
    pub net_total: &'static str,
    /// Totals: VAT, `{percent}`.
    pub vat: &'static str,
    /// Totals: VAT under reverse charge.
    pub vat_reverse_charge: &'static str,
    /// Totals: the VAT of one rate group (issue 10), `{percent}`, `{amount}` (its net).
    pub vat_on: &'static str,
    /// Totals: a reverse-charge group, `{amount}`.
    pub vat_reverse_charge_on: &'static str,
    /// Totals: an exempt group, `{amount}`.
    pub vat_exempt_on: &'static str,
    /// Totals: an intra-Community group, `{amount}`.
    pub vat_intra_eu_on: &'static str,
    /// Totals: an export group, `{amount}`.
    pub vat_export_on: &'static str,
    /// Note of a tax-exempt export (§ 4 Nr. 1a UStG).
    pub export_note: &'static str,
    /// Positions table column: the VAT rate of each position (only with several rates).
    pub tax_rate: &'static str,
    /// Totals: gross total.
    pub gross_total: &'static str,
    /// Payment line with the account's IBAN, `{amount}`, `{date}`, `{iban}`.
    pub pay_to_iban: &'static str,
    /// Payment line without a bank account, `{amount}`, `{date}`.
    pub pay: &'static str,
    /// After the payment line: the payment reference to quote, `{reference}` (issue 32).
    pub pay_reference: &'static str,
    /// Under the GiroCode (issue 32).
    pub girocode_caption: &'static str,
    /// Cash discount line, `{percent}`, `{date}`, `{amount}`.
    pub cash_discount: &'static str,
    /// Note of a reversal invoice.
    pub reversal_note: &'static str,
    /// Note of a credit note (issue 33).
    pub credit_note_note: &'static str,
    /// Note under reverse charge (§ 14a (5) UStG).
    pub reverse_charge_note: &'static str,
    /// Note of an intra-Community supply (§ 14a (3) UStG).
    pub intra_eu_note: &'static str,
    /// Offer note, `{date}`.
    pub offer_valid: &'static str,
    /// Offer note when optional positions exist.
    pub optional_note: &'static str,
    /// The heading of a signed offer's approval page (issue 31).
    pub approval_heading: &'static str,
    /// The approval page's sentence: `{name}` accepted offer `{number}` online.
    pub approval_sentence: &'static str,
    /// Approval page label: the signer's name.
    pub approval_name: &'static str,
    /// Approval page label: the signer's e-mail address.
    pub approval_email: &'static str,
    /// Approval page label: when it was signed (UTC).
    pub approval_signed_at: &'static str,
    /// Approval page label: the optional positions taken.
    pub approval_options: &'static str,
    /// Approval page label: the drawn signature.
    pub approval_signature: &'static str,
    /// Time sheet column: date.
    pub date: &'static str,
    /// Time sheet column: hours.
    pub hours: &'static str,
    /// Time sheet column: hourly rate.
    pub rate: &'static str,
    /// Time sheet total: hours.
    pub total_hours: &'static str,
    /// Time sheet total: amount.
    pub amount: &'static str,
    /// Legal footer: phone.
    pub phone: &'static str,
    /// Legal footer: e-mail.
    pub email: &'static str,
    /// Legal footer: VAT ID (USt-IdNr.).
    pub vat_id: &'static str,
    /// Legal footer: tax number (Steuernummer).
    pub tax_number: &'static str,
    /// Legal footer: the register before its number ("Handelsregister HRB 123 B").
    pub register: &'static str,
    /// Legal footer: managing directors.
    pub managing_directors: &'static str,
    /// Legal footer: account holder.
    pub account_holder: &'static str,
    /// Heading of a reminder letter (issue 14), `{level}` (the dunning level's name),
    /// `{number}` (the invoice's).
    pub reminder_heading: &'static str,
    /// Reminder meta: the invoice's original due date.
    pub due_since: &'static str,
    /// Reminder meta and payment line: the new due date.
    pub pay_by: &'static str,
    /// Reminder open items: the invoice, `{number}`, `{date}`.
    pub reminder_invoice_row: &'static str,
    /// Reminder open items: a payment received, `{date}`.
    pub reminder_payment_row: &'static str,
    /// Reminder totals: the open amount of the invoice.
    pub open_amount: &'static str,
    /// Reminder totals: the reminder fee.
    pub reminder_fee: &'static str,
    /// Reminder totals: the § 288 (5) BGB flat fee.
    pub flat_fee: &'static str,
    /// Reminder totals: default interest, `{rate}` (percent per year), `{days}`.
    pub interest_row: &'static str,
    /// Reminder totals: the amount now due.
    pub amount_due: &'static str,
    /// The e-mail text of a sent reminder, `{level}`, `{number}`, `{amount}`, `{date}`,
    /// `{sender}`.
    pub reminder_mail: &'static str,
}

/// German.
pub static DE: Words = Words {
    invoice_heading: "Rechnung {number}",
    reversal_heading: "Stornorechnung {number}",
    credit_note_heading: "Rechnungskorrektur {number}",
    down_payment_heading: "Abschlagsrechnung {number}",
    final_heading: "Schlussrechnung {number}",
    deduction: "Abzüglich Abschlagsrechnung {number} vom {date}",
    deducted_net: "Netto",
    deducted_vat: "USt. {percent} %",
    deducted_gross: "Brutto",
    remaining_net: "Verbleibendes Netto",
    remaining_vat: "Verbleibende USt. {percent} %",
    offer_heading: "Angebot {number}",
    timesheet_heading: "Stundennachweis zur Rechnung {number}",
    draft: "(Entwurf)",
    invoice_number: "Rechnungsnummer",
    invoice_date: "Rechnungsdatum",
    due_date: "Fällig am",
    service_period: "Leistungszeitraum",
    offer_number: "Angebotsnummer",
    offer_date: "Angebotsdatum",
    valid_until: "Gültig bis",
    contact: "Ansprechpartner",
    customer_vat_id: "Ihre USt-IdNr.",
    pos: "Pos.",
    description: "Beschreibung",
    quantity: "Menge",
    unit: "Einheit",
    unit_price: "Einzelpreis",
    total: "Gesamt",
    subtotal: "Zwischensumme",
    optional: "optional",
    page: "Seite",
    of: "von",
    discount: "Rabatt {percent} %",
    net_total: "Netto",
    vat: "USt. {percent} %",
    vat_reverse_charge: "USt. 0 % (Reverse Charge)",
    vat_on: "USt. {percent} % auf {amount}",
    vat_reverse_charge_on: "USt. 0 % (Reverse Charge) auf {amount}",
    vat_exempt_on: "Steuerfrei auf {amount}",
    vat_intra_eu_on: "Steuerfrei (EU-Lieferung) auf {amount}",
    vat_export_on: "Steuerfrei (Ausfuhr) auf {amount}",
    export_note: "Steuerfreie Ausfuhrlieferung (§ 4 Nr. 1a UStG).",
    tax_rate: "USt.",
    gross_total: "Brutto",
    pay_to_iban: "Bitte überweisen Sie {amount} bis zum {date} auf das Konto IBAN {iban}.",
    pay: "Bitte zahlen Sie {amount} bis zum {date}.",
    pay_reference: "Verwendungszweck: {reference}",
    girocode_caption: "GiroCode: mit der Banking-App scannen",
    cash_discount: "{percent} % Skonto bei Zahlung bis zum {date}: {amount}.",
    reversal_note: "Diese Stornorechnung hebt die genannte Rechnung auf; die Beträge sind negiert.",
    credit_note_note: "Diese Rechnungskorrektur mindert die genannte Rechnung um die aufgeführten Beträge; sie werden verrechnet oder erstattet.",
    reverse_charge_note: "Steuerschuldnerschaft des Leistungsempfängers.",
    intra_eu_note: "Steuerfreie innergemeinschaftliche Lieferung.",
    offer_valid: "Dieses Angebot ist gültig bis zum {date}.",
    optional_note: "Als optional markierte Positionen sind in der Summe nicht enthalten.",
    approval_heading: "Online-Freigabe",
    approval_sentence: "{name} hat das Angebot {number} online angenommen.",
    approval_name: "Name",
    approval_email: "E-Mail",
    approval_signed_at: "Unterschrieben am (UTC)",
    approval_options: "Gewählte Optionen",
    approval_signature: "Unterschrift",
    date: "Datum",
    hours: "Stunden",
    rate: "Stundensatz",
    total_hours: "Stunden gesamt",
    amount: "Betrag",
    phone: "Tel.",
    email: "E-Mail",
    vat_id: "USt-IdNr.",
    tax_number: "Steuernummer",
    register: "Handelsregister",
    managing_directors: "Geschäftsführung",
    account_holder: "Kontoinhaber",
    reminder_heading: "{level} zu Rechnung {number}",
    due_since: "Fällig seit",
    pay_by: "Zahlbar bis",
    reminder_invoice_row: "Rechnung {number} vom {date}",
    reminder_payment_row: "Zahlung vom {date}",
    open_amount: "Offener Betrag",
    reminder_fee: "Mahngebühr",
    flat_fee: "Verzugspauschale",
    interest_row: "Zinsen {rate} % ({days} Tage)",
    amount_due: "Zu zahlender Betrag",
    reminder_mail: "Sehr geehrte Damen und Herren,\n\nanbei erhalten Sie unsere {level} zu Rechnung {number}. Bitte überweisen Sie {amount} bis zum {date}. Die Rechnung liegt zur Erinnerung bei.\n\nMit freundlichen Grüßen\n{sender}",
};

/// English.
pub static EN: Words = Words {
    invoice_heading: "Invoice {number}",
    reversal_heading: "Reversal invoice {number}",
    credit_note_heading: "Credit note {number}",
    down_payment_heading: "Down-payment invoice {number}",
    final_heading: "Final invoice {number}",
    deduction: "Less down-payment invoice {number} of {date}",
    deducted_net: "Net",
    deducted_vat: "VAT {percent} %",
    deducted_gross: "Gross",
    remaining_net: "Remaining net",
    remaining_vat: "Remaining VAT {percent} %",
    offer_heading: "Offer {number}",
    timesheet_heading: "Time sheet for invoice {number}",
    draft: "(draft)",
    invoice_number: "Invoice number",
    invoice_date: "Invoice date",
    due_date: "Due date",
    service_period: "Service period",
    offer_number: "Offer number",
    offer_date: "Offer date",
    valid_until: "Valid until",
    contact: "Contact",
    customer_vat_id: "Your VAT ID",
    pos: "Pos.",
    description: "Description",
    quantity: "Quantity",
    unit: "Unit",
    unit_price: "Unit price",
    total: "Total",
    subtotal: "Subtotal",
    optional: "optional",
    page: "Page",
    of: "of",
    discount: "Discount {percent} %",
    net_total: "Net total",
    vat: "VAT {percent} %",
    vat_reverse_charge: "VAT 0 % (reverse charge)",
    vat_on: "VAT {percent} % on {amount}",
    vat_reverse_charge_on: "VAT 0 % (reverse charge) on {amount}",
    vat_exempt_on: "VAT exempt on {amount}",
    vat_intra_eu_on: "VAT exempt (intra-EU) on {amount}",
    vat_export_on: "VAT exempt (export) on {amount}",
    export_note: "VAT-exempt export supply.",
    tax_rate: "VAT",
    gross_total: "Gross total",
    pay_to_iban: "Please transfer {amount} by {date} to IBAN {iban}.",
    pay: "Please pay {amount} by {date}.",
    pay_reference: "Payment reference: {reference}",
    girocode_caption: "GiroCode: scan with your banking app",
    cash_discount: "{percent} % cash discount if paid by {date}: {amount}.",
    reversal_note: "This reversal invoice cancels the invoice named above; amounts are negated.",
    credit_note_note: "This credit note reduces the invoice named above by the amounts listed; they are offset or refunded.",
    reverse_charge_note: "Reverse charge: VAT to be accounted for by the recipient.",
    intra_eu_note: "VAT-exempt intra-Community supply.",
    offer_valid: "This offer is valid until {date}.",
    optional_note: "Positions marked optional are not included in the total.",
    approval_heading: "Online approval",
    approval_sentence: "{name} accepted offer {number} online.",
    approval_name: "Name",
    approval_email: "E-mail",
    approval_signed_at: "Signed at (UTC)",
    approval_options: "Options taken",
    approval_signature: "Signature",
    date: "Date",
    hours: "Hours",
    rate: "Rate",
    total_hours: "Total hours",
    amount: "Amount",
    phone: "Phone",
    email: "Email",
    vat_id: "VAT ID",
    tax_number: "Tax number",
    register: "Commercial register",
    managing_directors: "Managing directors",
    account_holder: "Account holder",
    reminder_heading: "{level}: invoice {number}",
    due_since: "Due since",
    pay_by: "Pay by",
    reminder_invoice_row: "Invoice {number} of {date}",
    reminder_payment_row: "Payment of {date}",
    open_amount: "Open amount",
    reminder_fee: "Reminder fee",
    flat_fee: "Late-payment flat fee",
    interest_row: "Interest {rate} % ({days} days)",
    amount_due: "Amount due",
    reminder_mail: "Dear Sir or Madam,\n\nplease find attached our {level} for invoice {number}. Please transfer {amount} by {date}. The invoice is attached for reference.\n\nKind regards\n{sender}",
};

/// `text` with every `{name}` of `values` replaced by its value (placeholders not in
/// `values` stay as they are; values are never re-scanned).
pub fn fill(text: &str, values: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(text.len() + 32);
    let mut rest = text;
    while let Some(start) = rest.find('{') {
        out.push_str(&rest[..start]);
        let after = &rest[start + 1..];
        let hit = after.find('}').and_then(|end| {
            values
                .iter()
                .find(|(name, _)| *name == &after[..end])
                .map(|(_, value)| (end, *value))
        });
        match hit {
            Some((end, value)) => {
                out.push_str(value);
                rest = &after[end + 1..];
            }
            None => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_pick_the_language() {
        assert_eq!(Language::from_code(Some("en")), Language::En);
        assert_eq!(Language::from_code(Some("EN-gb")), Language::En);
        assert_eq!(Language::from_code(Some("de")), Language::De);
        assert_eq!(Language::from_code(Some("fr")), Language::De);
        assert_eq!(Language::from_code(None), Language::De);
        assert_eq!(Language::En.words().invoice_heading, "Invoice {number}");
        assert_eq!(Language::De.words().invoice_heading, "Rechnung {number}");
    }

    #[test]
    fn fill_replaces_named_placeholders_once() {
        assert_eq!(
            fill(
                "Pay {amount} by {date}.",
                &[("amount", "{date}"), ("date", "1.1")]
            ),
            "Pay {date} by 1.1."
        );
        assert_eq!(fill("a {x} {", &[]), "a {x} {");
    }
}
