//! The data of an offer and of an invoice as printed (issue 9 § Documents): the
//! positions, the totals, the payment line and, for Swiss invoices, the QR-bill.

use super::*;
use kontor_model::down_payment::InvoiceKind;
use kontor_model::error::messages;
use kontor_model::invoice::InvoiceItem;
use kontor_model::offer::OfferItem;

/// The printed offer in the customer's language: optional positions marked (and not
/// counted), detail columns per `print_detail_columns`.
pub fn offer_document(offer: &Offer, letter: &Letter<'_>) -> ApiResult<DocumentData> {
    let language = letter.language();
    let w = language.words();
    let currency = offer.currency.as_str();
    let items = offer.items.clone().unwrap_or_default();
    let document = VatChoice {
        tax: offer.tax,
        reverse_charge: offer.vat.reverse_charge,
        intra_eu: offer.vat.intra_eu,
    };
    let positions = printed_positions(
        &items,
        offer_position,
        offer.discount,
        &document,
        currency,
        language,
    )?;
    let mut meta = vec![
        (w.offer_number.to_string(), offer.identifier.clone()),
        (w.offer_date.into(), letter.date(offer.date)),
        (w.valid_until.into(), letter.date(offer.due_date)),
    ];
    if let Some(user) = &offer.user {
        meta.push((
            w.contact.into(),
            format!("{} {}", user.firstname, user.lastname),
        ));
    }
    let mut notes = vec![fill(
        w.offer_valid,
        &[("date", &letter.date(offer.due_date))],
    )];
    if items.iter().any(|i| i.optional) {
        notes.push(w.optional_note.into());
    }
    notes.extend(positions.vat_notes);
    Ok(DocumentData {
        heading: fill(w.offer_heading, &[("number", &offer.identifier)]),
        subject: offer.title.clone(),
        letterhead: letter.letterhead(),
        recipient_lines: address_lines(&offer.recipient_address),
        meta,
        salutation: blocks(offer.salutation.as_deref().unwrap_or("")),
        detail_columns: offer.print_detail_columns,
        sections: positions.sections,
        totals: positions.total_lines,
        notes,
        footer: blocks(offer.footer.as_deref().unwrap_or("")),
        labels: Labels::of(language),
        qr_bill: None,
        approval: None,
        girocode: None,
    })
}

/// A position as [`printed_positions`] reads it: the amounts the totals need, the
/// position as printed (its rate still unset) and its VAT as stored.
type PrintedItem<'a> = (PositionAmounts, PrintPosition<'a>, StoredVat<'a>);

/// An offer position as printed: optional positions are marked (and not counted); an
/// untitled one prints an empty title.
fn offer_position(i: &OfferItem) -> PrintedItem<'_> {
    let reason = i.tax_exemption_reason.as_deref();
    let printed = PrintPosition {
        kind: i.kind,
        title: i.title.as_deref().unwrap_or(""),
        description: i.description.as_deref(),
        quantity: i.quantity,
        unit: i.unit.as_deref(),
        unit_price: i.unit_price,
        optional: i.optional,
        tax_rate: None,
    };
    (
        i.amounts(),
        printed,
        (i.kind, i.tax, i.tax_category, reason),
    )
}

/// An invoice position as printed (never optional).
fn invoice_position(i: &InvoiceItem) -> PrintedItem<'_> {
    let reason = i.tax_exemption_reason.as_deref();
    let printed = PrintPosition {
        kind: i.kind,
        title: &i.title,
        description: i.description.as_deref(),
        quantity: i.quantity,
        unit: i.unit.as_deref(),
        unit_price: i.unit_price,
        optional: false,
        tax_rate: None,
    };
    (
        i.amounts(),
        printed,
        (i.kind, i.tax, i.tax_category, reason),
    )
}

/// The positions block of a printed offer or invoice.
struct PrintedPositions {
    /// The document's totals (currency units).
    totals: DocumentTotals,
    /// The table rows, split at page breaks ([`sections`]).
    sections: Vec<Vec<Row>>,
    /// The totals block ([`total_lines`]).
    total_lines: Vec<TotalLine>,
    /// The notes of the zero-rate VAT groups ([`position_vats`]).
    vat_notes: Vec<String>,
}

/// The `items` of an offer or invoice (each read by `position`, [`offer_position`] or
/// [`invoice_position`]) with `discount` (percent) and the document's VAT `document`,
/// printed in `currency` and `language`: totals, table rows (each item's rate when the
/// document has several), totals block and VAT notes.
/// Errors: as [`compute_document_totals`] (an amount out of range).
fn printed_positions<'a, T>(
    items: &'a [T],
    position: impl Fn(&'a T) -> PrintedItem<'a>,
    discount: Decimal,
    document: &VatChoice,
    currency: &str,
    language: Language,
) -> ApiResult<PrintedPositions> {
    let (amounts, printed, stored): (Vec<_>, Vec<_>, Vec<_>) = items.iter().map(position).collect();
    let totals = compute_document_totals(&amounts, discount, document, currency)?;
    let (rates, vat_notes) = position_vats(&stored, document, &totals, language);
    let printed: Vec<PrintPosition> = printed
        .into_iter()
        .zip(rates)
        .map(|(p, tax_rate)| PrintPosition { tax_rate, ..p })
        .collect();
    Ok(PrintedPositions {
        sections: sections(&printed, &totals.positions, currency, language),
        total_lines: total_lines(&totals, discount, currency, language),
        totals,
        vat_notes,
    })
}

/// The payment line: "please transfer `amount` (printed) by `due`" to the account's IBAN
/// (with its BIC) when one is set, else without a bank account; then the payment
/// `reference` to quote (issue 32), printed in groups of four.
pub(super) fn payment_line(
    account: &AccountProfile,
    amount: &str,
    due: NaiveDate,
    reference: Option<&str>,
    language: Language,
) -> String {
    let line = payment_request(account, amount, due, language);
    match reference {
        Some(r) => format!(
            "{line} {}",
            fill(
                language.words().pay_reference,
                // Kept on one line: the groups joined by no-break spaces.
                &[(
                    "reference",
                    &kontor_model::payment_reference::printed(r).replace(' ', "\u{a0}")
                )]
            )
        ),
        None => line,
    }
}

/// The GiroCode asking for `amount` EUR against `invoice` (issue 32), when the account's
/// switch is on, the invoice is numbered, not a reversal, in EUR, the account has a valid
/// IBAN and no Swiss QR-bill is printed (`swiss`); `None` otherwise, and with a warning in
/// the log when the code cannot be drawn.
pub(super) fn girocode_for(
    invoice: &Invoice,
    amount: Decimal,
    account: &AccountProfile,
    swiss: bool,
    language: Language,
) -> Option<kontor_pdf::document::GiroCodeData> {
    use kontor_model::girocode::{applies, GiroCode};
    let iban = set(&account.iban);
    let number = invoice.identifier.as_deref()?;
    if swiss
        || invoice.reversal
        || invoice.credit_note
        || !applies(account.girocode, &invoice.currency, iban, amount)
    {
        return None;
    }
    let name = set(&account.account_holder).unwrap_or(&account.name);
    let code = GiroCode::new(iban?, set(&account.bic), name, amount, number)?;
    match kontor_pdf::qr_bill::plain_qr_svg(&code.payload(), 28.0) {
        Ok(svg) => Some(kontor_pdf::document::GiroCodeData {
            svg,
            caption: language.words().girocode_caption.to_string(),
        }),
        Err(e) => {
            tracing::warn!(error = %e, invoice = invoice.id, "invoice printed without GiroCode");
            None
        }
    }
}

fn payment_request(
    account: &AccountProfile,
    amount: &str,
    due: NaiveDate,
    language: Language,
) -> String {
    let w = language.words();
    let due = print_date(due, language);
    match set(&account.iban) {
        Some(iban) => {
            let mut iban = group_iban(iban);
            if let Some(bic) = set(&account.bic) {
                iban = format!("{iban} (BIC {bic})");
            }
            fill(
                w.pay_to_iban,
                &[("amount", amount), ("date", &due), ("iban", &iban)],
            )
        }
        None => fill(w.pay, &[("amount", amount), ("date", &due)]),
    }
}

/// The printed invoice in the customer's language (also the live preview of an unsaved
/// one, and reversals). The payment line names the account's IBAN when one is set.
pub fn invoice_document(invoice: &Invoice, letter: &Letter<'_>) -> ApiResult<DocumentData> {
    let language = letter.language();
    let w = language.words();
    let currency = invoice.currency.as_str();
    let items = invoice.items.clone().unwrap_or_default();
    let document = invoice.vat_choice();
    let positions = printed_positions(
        &items,
        invoice_position,
        invoice.discount,
        &document,
        currency,
        language,
    )?;
    let totals = &positions.totals;

    let number = invoice.identifier.clone().unwrap_or_else(|| w.draft.into());
    let mut meta = vec![
        (w.invoice_number.to_string(), number.clone()),
        (w.invoice_date.into(), letter.date(invoice.date)),
        (w.due_date.into(), letter.date(invoice.due_date)),
    ];
    if let (Some(from), Some(to)) = (invoice.service_period_from, invoice.service_period_to) {
        meta.push((
            w.service_period.into(),
            format!("{} – {}", letter.date(from), letter.date(to)),
        ));
    }
    if let Some(user) = &invoice.user {
        meta.push((
            w.contact.into(),
            format!("{} {}", user.firstname, user.lastname),
        ));
    }
    let zero_rated_abroad = totals.groups.iter().any(|g| {
        matches!(
            g.category,
            TaxCategory::ReverseCharge | TaxCategory::IntraEu
        )
    });
    if invoice.vat.reverse_charge || invoice.vat.intra_eu || zero_rated_abroad {
        if let Some(vat_id) = &letter.customer.vat_identifier {
            meta.push((w.customer_vat_id.into(), vat_id.clone()));
        }
    }

    let mut notes = Vec::new();
    // A final invoice asks for its amount due (issue 33); others for their gross.
    let due = if invoice.deducted_down_payments.is_empty() {
        invoice.gross_total
    } else {
        invoice.amount_due
    };
    let gross = money(due, currency, language);
    if invoice.reversal {
        notes.push(w.reversal_note.to_string());
    } else if invoice.credit_note {
        notes.push(w.credit_note_note.to_string());
    } else {
        notes.push(payment_line(
            letter.account,
            &gross,
            invoice.due_date,
            invoice.payment_reference.as_deref(),
            language,
        ));
    }
    if !invoice.cash_discount.is_zero()
        && invoice.cash_discount_days > 0
        && !invoice.reversal
        && !invoice.credit_note
    {
        let reduced = mul_round(
            due,
            invoice.cash_discount / Decimal::ONE_HUNDRED,
            minor_units(currency),
        )
        .and_then(|d| due.checked_sub(d))
        .ok_or_else(|| ApiError::field("cash_discount", messages::IS_OUT_OF_RANGE))?;
        let by = invoice
            .date
            .checked_add_signed(Duration::days(invoice.cash_discount_days))
            .ok_or_else(|| ApiError::field("cash_discount_days", messages::IS_OUT_OF_RANGE))?;
        notes.push(fill(
            w.cash_discount,
            &[
                ("percent", &plain(invoice.cash_discount, language)),
                ("date", &letter.date(by)),
                ("amount", &money(reduced, currency, language)),
            ],
        ));
    }
    notes.extend(positions.vat_notes);

    let qr_bill = qr_bill_data(invoice, letter.account, letter.customer);
    let mut totals = positions.total_lines;
    deduction_lines(&mut totals, invoice, letter);
    Ok(DocumentData {
        heading: fill(
            if invoice.reversal {
                w.reversal_heading
            } else if invoice.credit_note {
                w.credit_note_heading
            } else if invoice.kind == InvoiceKind::DownPayment {
                w.down_payment_heading
            } else if invoice.kind == InvoiceKind::Final {
                w.final_heading
            } else {
                w.invoice_heading
            },
            &[("number", &number)],
        ),
        subject: invoice.title.clone(),
        letterhead: letter.letterhead(),
        recipient_lines: address_lines(&invoice.recipient_address),
        meta,
        salutation: blocks(invoice.salutation.as_deref().unwrap_or("")),
        detail_columns: true,
        sections: positions.sections,
        totals,
        notes,
        footer: blocks(invoice.footer.as_deref().unwrap_or("")),
        labels: Labels::of(language),
        girocode: girocode_for(invoice, due, letter.account, qr_bill.is_some(), language),
        qr_bill,
        approval: None,
    })
}

/// The Swiss QR-bill of `invoice` when `kontor_model::qr_bill::applies` (numbered, not a
/// reversal, CHF or EUR, a CH/LI account IBAN): creditor = the account holder (else the
/// account name) at the account's address and country (else the IBAN's country),
/// debtor = the customer company, message = the invoice heading. Data the QR-bill
/// cannot carry (e.g. an account address without post code) leaves it out with a
/// warning in the log: the invoice still prints, with its IBAN payment line.
pub(super) fn qr_bill_data(
    invoice: &Invoice,
    account: &AccountProfile,
    customer: &DocumentCustomer,
) -> Option<QrBillData> {
    let number = invoice.identifier.as_deref()?;
    let message = fill(
        customer.language.words().invoice_heading,
        &[("number", number)],
    );
    let due = if invoice.deducted_down_payments.is_empty() {
        invoice.gross_total
    } else {
        invoice.amount_due
    };
    qr_bill_for(invoice, due, &message, account, customer)
}

/// A final invoice's deductions after its totals (§ 14 (5) UStG; issue 33): per down
/// payment its number and date, its net, its VAT per rate and its gross, negated; then
/// the net and VAT per rate left and the amount due, in bold (the full service's gross
/// no longer is). Nothing for an invoice without deductions.
fn deduction_lines(lines: &mut Vec<TotalLine>, invoice: &Invoice, letter: &Letter<'_>) {
    if invoice.deducted_down_payments.is_empty() {
        return;
    }
    let language = letter.language();
    let w = language.words();
    let currency = invoice.currency.as_str();
    let line = |label: String, value: Option<Decimal>, strong: bool| TotalLine {
        label,
        amount: value
            .map(|v| money(v, currency, language))
            .unwrap_or_default(),
        strong,
    };
    for l in lines.iter_mut() {
        l.strong = false;
    }
    for d in &invoice.deducted_down_payments {
        let date = letter.date(d.date);
        lines.push(line(
            fill(w.deduction, &[("number", &d.identifier), ("date", &date)]),
            None,
            false,
        ));
        lines.push(line(w.deducted_net.into(), Some(-d.net_total), false));
        for g in &d.tax_breakdown {
            lines.push(line(
                fill(w.deducted_vat, &[("percent", &plain(g.tax, language))]),
                Some(-g.tax_total),
                false,
            ));
        }
        lines.push(line(w.deducted_gross.into(), Some(-d.gross_total), false));
    }
    let remaining = kontor_model::down_payment::remaining_breakdown(
        &invoice.tax_breakdown,
        &invoice.deducted_down_payments,
    )
    .unwrap_or_default();
    let net: Decimal = remaining.iter().map(|g| g.net_total).sum();
    lines.push(line(w.remaining_net.into(), Some(net), false));
    for g in &remaining {
        lines.push(line(
            fill(w.remaining_vat, &[("percent", &plain(g.tax, language))]),
            Some(g.tax_total),
            false,
        ));
    }
    lines.push(line(w.amount_due.into(), Some(invoice.amount_due), true));
}

/// The Swiss QR-bill asking for `amount` (currency units) against `invoice` with
/// `message` as its additional information: the invoice's when printing the invoice, the
/// amount due when printing a reminder. `None` as in [`qr_bill_data`].
pub(super) fn qr_bill_for(
    invoice: &Invoice,
    amount: Decimal,
    message: &str,
    account: &AccountProfile,
    customer: &DocumentCustomer,
) -> Option<QrBillData> {
    use kontor_model::qr_bill::{applies, qr_bill, QrBillInput};
    let iban = set(&account.iban);
    let number = invoice.identifier.as_deref();
    if !applies(
        &invoice.currency,
        iban,
        number.is_some(),
        invoice.reversal || invoice.credit_note,
    ) {
        return None;
    }
    let (iban, number) = (iban?, number?);
    let language = customer.language;
    let input = QrBillInput {
        iban,
        currency: &invoice.currency,
        amount,
        invoice_number: number,
        creditor_name: set(&account.account_holder).unwrap_or(&account.name),
        creditor_address: &account.address,
        creditor_country: set(&account.country_code).or(iban.get(..2)),
        debtor_name: &customer.name,
        debtor_address: &customer.address,
        debtor_country: customer.country_code.as_deref(),
        message,
    };
    let bill = match qr_bill(&input) {
        Ok(bill) => bill,
        Err(errors) => {
            tracing::warn!(
                ?errors,
                invoice = invoice.id,
                "invoice printed without QR-bill"
            );
            return None;
        }
    };
    let svg = match qr_svg(&bill.payload()) {
        Ok(svg) => svg,
        Err(e) => {
            tracing::warn!(error = %e, invoice = invoice.id, "invoice printed without QR-bill");
            return None;
        }
    };
    Some(QrBillData {
        svg,
        labels: QrBillLabels::of(language),
        account: group_iban(&bill.iban),
        creditor_lines: bill.creditor.lines(),
        reference: bill.reference.printed(),
        additional_information: bill.message.clone(),
        debtor_lines: bill.debtor.as_ref().map(|d| d.lines()).unwrap_or_default(),
        currency: bill.currency.clone(),
        amount: bill
            .amount
            .map(kontor_model::qr_bill::printed_amount)
            .unwrap_or_default(),
    })
}
