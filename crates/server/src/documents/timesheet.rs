//! The data of a timesheet as printed (issue 11): the hours an invoice bills, by day.

use super::*;

/// The time sheet of an invoice in the customer's language: one row per billed activity
/// (date, description, user, hours, rate, amount) and the total hours.
pub fn timesheet_document(
    invoice: &Invoice,
    activities: &[Activity],
    letter: &Letter<'_>,
) -> ApiResult<DocumentData> {
    let language = letter.language();
    let w = language.words();
    let currency = invoice.currency.as_str();
    let corrupt = || ApiError::Internal("stored activity hours × rate overflow".into());
    let amounts = activities
        .iter()
        .map(|a| mul_round(a.hours, a.hourly_rate, minor_units(currency)).ok_or_else(corrupt))
        .collect::<ApiResult<Vec<Decimal>>>()?;
    let short_date = match language {
        Language::De => "%d.%m.",
        Language::En => "%-d %b",
    };
    let rows = activities
        .iter()
        .zip(&amounts)
        .map(|(a, net)| Row {
            kind: "item".into(),
            pos: a.date.format(short_date).to_string(),
            title: if a.description.is_empty() {
                a.project.name.clone()
            } else {
                a.description.clone()
            },
            description: a
                .user
                .as_ref()
                .map(|u| {
                    plain_blocks(&format!(
                        "{} {} · {}",
                        u.firstname, u.lastname, a.project.name
                    ))
                })
                .unwrap_or_default(),
            quantity: plain(a.hours, language),
            unit: "h".into(),
            unit_price: amount(a.hourly_rate, currency, language),
            net_total: amount(*net, currency, language),
            optional: false,
            tax_rate: String::new(),
        })
        .collect();
    fn sum(values: impl IntoIterator<Item = Decimal>) -> Option<Decimal> {
        values
            .into_iter()
            .try_fold(Decimal::ZERO, |s, v| s.checked_add(v))
    }
    let hours = sum(activities.iter().map(|a| a.hours)).ok_or_else(corrupt)?;
    let total = sum(amounts.iter().copied()).ok_or_else(corrupt)?;
    let number = invoice.identifier.clone().unwrap_or_else(|| w.draft.into());
    Ok(DocumentData {
        heading: fill(w.timesheet_heading, &[("number", &number)]),
        subject: invoice.title.clone(),
        letterhead: letter.letterhead(),
        recipient_lines: address_lines(&invoice.recipient_address),
        meta: vec![
            (w.invoice_number.into(), number),
            (w.invoice_date.into(), letter.date(invoice.date)),
        ],
        detail_columns: true,
        sections: vec![rows],
        totals: vec![
            TotalLine {
                label: w.total_hours.into(),
                amount: format!("{} h", plain(hours, language)),
                strong: true,
            },
            TotalLine {
                label: w.amount.into(),
                amount: money(total, currency, language),
                strong: false,
            },
        ],
        labels: Labels {
            pos: w.date.into(),
            quantity: w.hours.into(),
            unit_price: w.rate.into(),
            ..Labels::of(language)
        },
        ..Default::default()
    })
}
