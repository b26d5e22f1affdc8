//! What a read document must hold before Kontor books it: texts and lists within
//! Kontor's limits ([`MAX_LINE_CHARS`], [`MAX_TEXT_CHARS`], [`MAX_ITEMS`]) and totals that
//! that do not overflow; whether they add up is [`crate::conformance`]'s finding.

use super::*;

fn sum<'a>(mut values: impl Iterator<Item = &'a Decimal>) -> Option<Decimal> {
    values.try_fold(Decimal::ZERO, |acc, v| acc.checked_add(*v))
}

/// Longest single-line text taken from a document (a name, number, reference, code):
/// the length of every one-line field Kontor stores.
pub const MAX_LINE_CHARS: usize = kontor_model::validation::MAX_LINE;
/// Longest multi-line text taken (a note, description, payment terms): the length of every
/// free text Kontor stores.
pub const MAX_TEXT_CHARS: usize = kontor_model::validation::MAX_TEXT;
/// Most lines, notes, allowances, charges or VAT breakdowns taken from one document (the
/// position limit of Kontor's own documents).
pub const MAX_ITEMS: usize = kontor_model::validation::MAX_POSITIONS;

/// Every text of `invoice` within [`MAX_LINE_CHARS`] / [`MAX_TEXT_CHARS`] and every list
/// within [`MAX_ITEMS`]. Errors: [`Error::NotAnInvoice`] naming the business term.
fn check_lengths(invoice: &Invoice) -> Result<(), Error> {
    let mut lines: Vec<(&str, Option<&str>)> = vec![
        ("BT-1 invoice number", Some(&invoice.number)),
        ("BT-5 currency", Some(&invoice.currency)),
        ("BT-10 buyer reference", invoice.buyer_reference.as_deref()),
        ("BT-13 order reference", invoice.order_reference.as_deref()),
        (
            "BT-80 delivery country",
            invoice.delivery_country.as_deref(),
        ),
        (
            "BT-83 remittance information",
            invoice.remittance_information.as_deref(),
        ),
        (
            "BT-25 preceding invoice",
            invoice
                .preceding_invoice
                .as_ref()
                .map(|p| p.number.as_str()),
        ),
    ];
    let mut texts: Vec<(&str, Option<&str>)> =
        vec![("BT-20 payment terms", invoice.payment_terms.as_deref())];
    for p in [&invoice.seller, &invoice.buyer] {
        lines.extend([
            ("BT-27/44 party name", Some(p.name.as_str())),
            ("BT-28/45 trading name", p.trading_name.as_deref()),
            ("BT-29/46 party identifier", p.identifier.as_deref()),
            (
                "BT-30/47 legal registration",
                p.legal_registration.as_deref(),
            ),
            ("BT-31/48 VAT identifier", p.vat_identifier.as_deref()),
            ("BT-32 tax number", p.tax_number.as_deref()),
            (
                "BT-34/49 electronic address",
                p.electronic_address.as_ref().map(|a| a.value.as_str()),
            ),
            ("BT-37/52 city", p.address.city.as_deref()),
            ("BT-38/53 post code", p.address.post_code.as_deref()),
            (
                "BT-39/54 country subdivision",
                p.address.subdivision.as_deref(),
            ),
            ("BT-40/55 country", Some(p.address.country_code.as_str())),
        ]);
        lines.extend(
            p.address
                .lines
                .iter()
                .map(|l| ("BT-35/50 address line", Some(l.as_str()))),
        );
        texts.push((
            "BT-33 additional legal information",
            p.additional_legal_information.as_deref(),
        ));
        if let Some(c) = &p.contact {
            lines.extend([
                ("BT-41 contact point", c.name.as_deref()),
                ("BT-42 contact telephone", c.phone.as_deref()),
                ("BT-43 contact e-mail", c.email.as_deref()),
            ]);
        }
    }
    match &invoice.payment_means {
        Some(PaymentMeans::CreditTransfer {
            iban,
            account_name,
            bic,
        }) => lines.extend([
            ("BT-84 payment account", Some(iban.as_str())),
            ("BT-85 payment account name", account_name.as_deref()),
            ("BT-86 payment service provider", bic.as_deref()),
        ]),
        Some(PaymentMeans::DirectDebit {
            mandate_reference,
            creditor_identifier,
            debited_iban,
        }) => lines.extend([
            ("BT-89 mandate reference", Some(mandate_reference.as_str())),
            (
                "BT-90 creditor identifier",
                Some(creditor_identifier.as_str()),
            ),
            ("BT-91 debited account", Some(debited_iban.as_str())),
        ]),
        None => {}
    }
    texts.extend(
        invoice
            .notes
            .iter()
            .map(|n| ("BT-22 invoice note", Some(n.as_str()))),
    );
    for l in &invoice.lines {
        lines.extend([
            ("BT-126 line identifier", Some(l.id.as_str())),
            ("BT-130 unit of measure", Some(l.unit_code.as_str())),
            ("BT-153 item name", Some(l.name.as_str())),
        ]);
        texts.extend([
            ("BT-127 line note", l.note.as_deref()),
            ("BT-154 item description", l.description.as_deref()),
        ]);
    }
    for a in invoice.allowances.iter().chain(&invoice.charges) {
        lines.push((
            "BT-98/105 allowance or charge reason code",
            a.reason_code.as_deref(),
        ));
        texts.push(("BT-97/104 allowance or charge reason", a.reason.as_deref()));
    }
    for b in &invoice.vat_breakdown {
        lines.push((
            "BT-121 VAT exemption reason code",
            b.exemption_reason_code.as_deref(),
        ));
        texts.push(("BT-120 VAT exemption reason", b.exemption_reason.as_deref()));
    }
    for (list, count) in [
        ("lines (BG-25)", invoice.lines.len()),
        ("notes (BT-22)", invoice.notes.len()),
        ("allowances (BG-20)", invoice.allowances.len()),
        ("charges (BG-21)", invoice.charges.len()),
        ("VAT breakdowns (BG-23)", invoice.vat_breakdown.len()),
    ] {
        if count > MAX_ITEMS {
            return Err(Error::NotAnInvoice(format!(
                "it has more than {MAX_ITEMS} {list}"
            )));
        }
    }
    for (limit, fields) in [(MAX_LINE_CHARS, &lines), (MAX_TEXT_CHARS, &texts)] {
        for (term, value) in fields.iter() {
            if value.is_some_and(|v| v.chars().count() > limit) {
                return Err(Error::NotAnInvoice(format!(
                    "its {term} is longer than {limit} characters"
                )));
            }
        }
    }
    Ok(())
}

/// What a booking relies on, after the lengths of [`check_lengths`]: a seller name
/// (BT-27), at least one line (BR-16) and amounts whose sums do not overflow. Whether the
/// sums add up (BR-CO-10 … 17) is not the reader's business: [`crate::conformance::check`]
/// reports it as a finding, and the purchase is booked from the lines and the VAT breakdown
/// as the document states them (issue 36).
pub(super) fn check(invoice: Invoice) -> Result<Invoice, Error> {
    check_lengths(&invoice)?;
    if invoice.seller.name.trim().is_empty() {
        return Err(Error::NotAnInvoice(
            "The seller's name (BT-27) is missing".into(),
        ));
    }
    if invoice.lines.is_empty() {
        return Err(Error::NotAnInvoice(
            "It has no invoice lines (BG-25); Kontor imports EN 16931 invoices (Factur-X MINIMUM and BASIC WL carry no lines)".into(),
        ));
    }
    let overflow = || Error::NotAnInvoice("Its amounts are too large".into());
    let lines = sum(invoice.lines.iter().map(|l| &l.net_amount)).ok_or_else(overflow)?;
    let allowances = sum(invoice.allowances.iter().map(|a| &a.amount)).ok_or_else(overflow)?;
    let charges = sum(invoice.charges.iter().map(|a| &a.amount)).ok_or_else(overflow)?;
    let vat = sum(invoice.vat_breakdown.iter().map(|b| &b.tax_amount)).ok_or_else(overflow)?;
    lines
        .checked_sub(allowances)
        .and_then(|n| n.checked_add(charges))
        .and_then(|n| n.checked_add(vat))
        .ok_or_else(overflow)?;
    Ok(invoice)
}
