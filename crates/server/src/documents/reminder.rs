//! The data of a payment reminder as printed (issue 14 § Dunning): the level's name
//! and text, the overdue invoice, interest and fees, the amount now due.

use super::sales::{girocode_for, payment_line, qr_bill_for};
use super::*;

/// The name of a dunning level in `language` ("Mahnung" / "First dunning notice"); a
/// level the account no longer has is a "Zahlungserinnerung" / "Payment reminder".
pub fn level_name(level: Option<&DunningLevel>, language: Language) -> String {
    match (level, language) {
        (Some(l), Language::De) => l.name.de.clone(),
        (Some(l), Language::En) => l.name.en.clone(),
        (None, Language::De) => "Zahlungserinnerung".into(),
        (None, Language::En) => "Payment reminder".into(),
    }
}

/// The reminder letter (issue 14 § API, `GET /invoice_reminders/{id}.pdf`) in the
/// customer's language on `paper` (`None` = blank): the heading names the dunning level
/// (`level`, the account's; "Reminder" when the level no longer exists); the meta the
/// reminder's date, the invoice's number, date and original due date and the new due
/// date; the text is the reminder's own, else the level's template with its placeholders
/// filled; the open items are the invoice's gross and the payments received by the
/// reminder's date; the totals the open amount it claims, the fee, the § 288 (5) flat
/// fee, the default interest (rate, days) and the amount due
/// ([`kontor_model::dunning::amount_due`]); the payment line names the bank account and
/// the new due date; Swiss accounts get the QR-bill for the amount due.
/// Errors: 500 when the stored amounts overflow.
pub fn reminder_document(
    reminder: &Reminder,
    invoice: &Invoice,
    level: Option<&DunningLevel>,
    addressee: Option<kontor_model::salutation::Addressee<'_>>,
    letter: &Letter<'_>,
) -> ApiResult<DocumentData> {
    let language = letter.language();
    let w = language.words();
    let currency = invoice.currency.as_str();
    let cash = |value: Decimal| money(value, currency, language);
    let number = invoice.identifier.clone().unwrap_or_default();
    let level_name = level_name(level, language);
    let paid_by_then: Vec<&kontor_model::payment::Payment> = invoice
        .payments
        .iter()
        .flatten()
        .filter(|p| p.date <= reminder.date)
        .collect();
    let open = match reminder.open_amount {
        Some(open) => open,
        None => paid_by_then
            .iter()
            .try_fold(invoice.gross_total, |open, p| {
                open.checked_sub(p.paid_total)?.checked_sub(p.cash_discount)
            })
            .ok_or_else(|| ApiError::Internal("stored payments overflow".into()))?,
    };
    let due = amount_due(open, reminder.fee, reminder.flat_fee, reminder.interest)
        .ok_or_else(|| ApiError::Internal("stored reminder amounts overflow".into()))?;

    let mut rows = vec![Row {
        kind: "item".into(),
        pos: "1".into(),
        title: fill(
            w.reminder_invoice_row,
            &[("number", &number), ("date", &letter.date(invoice.date))],
        ),
        net_total: cash(invoice.gross_total),
        ..Row::default()
    }];
    for (i, p) in paid_by_then.iter().enumerate() {
        rows.push(Row {
            kind: "item".into(),
            pos: (i + 2).to_string(),
            title: fill(w.reminder_payment_row, &[("date", &letter.date(p.date))]),
            net_total: cash(
                -p.paid_total
                    .checked_add(p.cash_discount)
                    .ok_or_else(|| ApiError::Internal("stored payment overflows".into()))?,
            ),
            ..Row::default()
        });
    }
    let line = |label: String, value: Decimal, strong: bool| TotalLine {
        label,
        amount: cash(value),
        strong,
    };
    let mut totals = vec![line(w.open_amount.into(), open, false)];
    if !reminder.fee.is_zero() {
        totals.push(line(w.reminder_fee.into(), reminder.fee, false));
    }
    if !reminder.flat_fee.is_zero() {
        totals.push(line(w.flat_fee.into(), reminder.flat_fee, false));
    }
    if let Some(rate) = reminder.interest_rate {
        let label = fill(
            w.interest_row,
            &[
                ("rate", &plain(rate, language)),
                ("days", &reminder.days_overdue.to_string()),
            ],
        );
        totals.push(line(label, reminder.interest, false));
    }
    totals.push(line(w.amount_due.into(), due, true));

    let fees = reminder
        .fee
        .checked_add(reminder.flat_fee)
        .ok_or_else(|| ApiError::Internal("stored reminder fees overflow".into()))?;
    let values = [
        ("invoice_number", number.clone()),
        ("invoice_date", letter.date(invoice.date)),
        ("open_amount", cash(open)),
        ("due_date", letter.date(invoice.due_date)),
        ("fees", cash(fees)),
        ("interest", cash(reminder.interest)),
        ("new_due_date", letter.date(reminder.due_date)),
    ];
    let values: Vec<(&str, &str)> = values.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let (text, body) = if reminder.text.trim().is_empty() {
        let template = match (level, language) {
            (Some(l), Language::De) => l.text.de.as_str(),
            (Some(l), Language::En) => l.text.en.as_str(),
            (None, _) => "",
        };
        let text = fill_text(template, &values);
        let body = plain_blocks(&text);
        (text, body)
    } else {
        (reminder.text.clone(), blocks(&reminder.text))
    };
    // Issue 34: the letter opens with the customer's salutation (the billing contact's,
    // else the general one) unless its text greets already, and closes with a greeting.
    use kontor_model::salutation::{closing, opening, opens_with_salutation};
    let words_of = kontor_model::party::Language::parse(language.code()).unwrap_or_default();
    let mut salutation = Vec::new();
    if !opens_with_salutation(&text) {
        salutation.extend(plain_blocks(&opening(addressee, words_of)));
    }
    salutation.extend(body);
    let footer = plain_blocks(&format!("{}\n{}", closing(words_of), letter.account.name));
    let pay = payment_line(
        letter.account,
        &cash(due),
        reminder.due_date,
        invoice.payment_reference.as_deref(),
        language,
    );
    let heading = fill(
        w.reminder_heading,
        &[("level", &level_name), ("number", &number)],
    );
    let qr_bill = qr_bill_for(invoice, due, &heading, letter.account, letter.customer);
    Ok(DocumentData {
        heading,
        subject: invoice.title.clone(),
        letterhead: letter.letterhead(),
        recipient_lines: address_lines(&invoice.recipient_address),
        meta: vec![
            (w.date.into(), letter.date(reminder.date)),
            (w.invoice_number.into(), number.clone()),
            (w.invoice_date.into(), letter.date(invoice.date)),
            (w.due_since.into(), letter.date(invoice.due_date)),
            (w.pay_by.into(), letter.date(reminder.due_date)),
        ],
        salutation,
        detail_columns: false,
        sections: vec![rows],
        totals,
        notes: vec![pay],
        footer,
        labels: Labels::of(language),
        girocode: girocode_for(invoice, due, letter.account, qr_bill.is_some(), language),
        qr_bill,
        approval: None,
    })
}
