//! Records → [`kontor_pdf::document::DocumentData`]: the words, formatted amounts and dates
//! of a printed invoice or time sheet. Rendering itself is `kontor_pdf`'s.

use crate::config::{AccountConfig, LetterPaperConfig};
use crate::error::{ApiError, ApiResult};
use chrono::{Duration, NaiveDate};
use kontor_model::arith::mul_round;
use kontor_model::billing::Activity;
use kontor_model::invoice::Invoice;
use kontor_model::money::{format_amount, minor_units};
use kontor_model::offer::Offer;
use kontor_model::position::PositionType;
use kontor_model::totals::{compute_totals, DocumentTotals, PositionAmounts};
use kontor_pdf::document::{DocumentData, Labels, Letterhead, Row, TotalLine};
use kontor_pdf::rich_text::{blocks, plain_blocks};
use rust_decimal::Decimal;

/// A date as printed: `3 Nov 2026`.
pub fn print_date(date: NaiveDate) -> String {
    date.format("%-d %b %Y").to_string()
}

fn money(amount: Decimal, currency: &str) -> String {
    format!("{} {currency}", format_amount(amount, currency))
}

fn plain(value: Decimal) -> String {
    value.normalize().to_string()
}

/// The letterhead for `paper` (`None` = blank paper: nothing printed around the document).
pub fn letterhead(account: &AccountConfig, paper: Option<&LetterPaperConfig>) -> Letterhead {
    let Some(paper) = paper else {
        return Letterhead::default();
    };
    let lines: Vec<String> = account.address.lines().map(str::to_string).collect();
    Letterhead {
        show: true,
        name: account.name.clone(),
        return_line: std::iter::once(account.name.clone())
            .chain(lines.iter().cloned())
            .collect::<Vec<_>>()
            .join(" · "),
        address_lines: lines,
        footer_line: paper.footer_line.clone(),
        logo_text: paper.logo_text.clone(),
    }
}

/// A position as printed, from an invoice or an offer item.
pub struct PrintPosition<'a> {
    /// Type.
    pub kind: PositionType,
    /// Title.
    pub title: &'a str,
    /// Description (sanitized HTML).
    pub description: Option<&'a str>,
    /// Quantity.
    pub quantity: Option<Decimal>,
    /// Unit.
    pub unit: Option<&'a str>,
    /// Unit price.
    pub unit_price: Option<Decimal>,
    /// Optional (offers): marked, not counted.
    pub optional: bool,
}

/// The table rows of `positions` (with their computed net totals), split into sections
/// at page breaks; items are numbered.
pub fn sections(
    positions: &[PrintPosition<'_>],
    nets: &[Decimal],
    currency: &str,
) -> Vec<Vec<Row>> {
    let mut sections = vec![Vec::new()];
    let mut pos = 0;
    for (item, net) in positions.iter().zip(nets) {
        let row = match item.kind {
            PositionType::PageBreak => {
                sections.push(Vec::new());
                continue;
            }
            PositionType::Item => {
                pos += 1;
                let lump = item.quantity.is_none() && item.unit_price.is_none();
                Row {
                    kind: "item".into(),
                    pos: pos.to_string(),
                    title: item.title.to_string(),
                    description: blocks(item.description.unwrap_or("")),
                    quantity: if lump {
                        String::new()
                    } else {
                        item.quantity.map(plain).unwrap_or_default()
                    },
                    unit: item.unit.unwrap_or_default().to_string(),
                    unit_price: if lump {
                        String::new()
                    } else {
                        item.unit_price
                            .map(|p| format_amount(p, currency))
                            .unwrap_or_default()
                    },
                    net_total: format_amount(*net, currency),
                    optional: item.optional,
                }
            }
            kind => Row {
                kind: kind.as_str().into(),
                title: item.title.to_string(),
                description: blocks(item.description.unwrap_or("")),
                net_total: format_amount(*net, currency),
                ..Default::default()
            },
        };
        if let Some(section) = sections.last_mut() {
            section.push(row);
        }
    }
    sections
}

/// Subtotal / discount / net / tax / gross lines of the totals block (subtotal and
/// discount only with a discount).
fn total_lines(
    totals: &DocumentTotals,
    discount: Decimal,
    tax: Decimal,
    reverse_charge: bool,
    currency: &str,
) -> Vec<TotalLine> {
    let line = |label: String, amount: Decimal, strong: bool| TotalLine {
        label,
        amount: money(amount, currency),
        strong,
    };
    let mut lines = Vec::new();
    if !discount.is_zero() {
        lines.push(line("Subtotal".into(), totals.items_total, false));
        lines.push(line(
            format!("Discount {} %", plain(discount)),
            -totals.discount_amount,
            false,
        ));
    }
    lines.push(line("Net total".into(), totals.net_total, false));
    let tax_label = if reverse_charge {
        "VAT 0 % (reverse charge)".to_string()
    } else {
        format!("VAT {} %", plain(tax))
    };
    lines.push(line(tax_label, totals.tax_amount, false));
    lines.push(line("Gross total".into(), totals.gross_total, true));
    lines
}

/// The printed offer: optional positions marked (and not counted), detail columns per
/// `print_detail_columns`.
pub fn offer_document(
    offer: &Offer,
    account: &AccountConfig,
    paper: Option<&LetterPaperConfig>,
) -> ApiResult<DocumentData> {
    let currency = offer.currency.as_str();
    let items = offer.items.clone().unwrap_or_default();
    let amounts: Vec<PositionAmounts> = items
        .iter()
        .map(|i| PositionAmounts {
            kind: Some(i.kind),
            quantity: i.quantity,
            unit_price: i.unit_price,
            net_total: Some(i.net_total),
            optional: i.optional,
        })
        .collect();
    let totals = compute_totals(
        &amounts,
        offer.discount,
        offer.tax,
        offer.vat.reverse_charge,
        currency,
    )?;
    let printed: Vec<PrintPosition> = items
        .iter()
        .map(|i| PrintPosition {
            kind: i.kind,
            title: i.title.as_deref().unwrap_or(""),
            description: i.description.as_deref(),
            quantity: i.quantity,
            unit: i.unit.as_deref(),
            unit_price: i.unit_price,
            optional: i.optional,
        })
        .collect();
    let mut meta = vec![
        ("Offer no.".to_string(), offer.identifier.clone()),
        ("Date".into(), print_date(offer.date)),
        ("Valid until".into(), print_date(offer.due_date)),
    ];
    if let Some(user) = &offer.user {
        meta.push((
            "Contact".into(),
            format!("{} {}", user.firstname, user.lastname),
        ));
    }
    let mut notes = vec![format!(
        "This offer is valid until {}.",
        print_date(offer.due_date)
    )];
    if items.iter().any(|i| i.optional) {
        notes.push("Positions marked optional are not included in the total.".into());
    }
    if offer.vat.reverse_charge {
        notes.push("Reverse charge: the recipient is liable for the VAT.".into());
    }
    Ok(DocumentData {
        heading: format!("Offer {}", offer.identifier),
        subject: offer.title.clone(),
        letterhead: letterhead(account, paper),
        recipient_lines: offer
            .recipient_address
            .lines()
            .map(str::to_string)
            .collect(),
        meta,
        salutation: blocks(offer.salutation.as_deref().unwrap_or("")),
        detail_columns: offer.print_detail_columns,
        sections: sections(&printed, &totals.positions, currency),
        totals: total_lines(
            &totals,
            offer.discount,
            offer.tax,
            offer.vat.reverse_charge,
            currency,
        ),
        notes,
        footer: blocks(offer.footer.as_deref().unwrap_or("")),
        labels: Labels::default(),
    })
}

/// The printed invoice (also the live preview of an unsaved one, and reversals).
pub fn invoice_document(
    invoice: &Invoice,
    account: &AccountConfig,
    paper: Option<&LetterPaperConfig>,
) -> ApiResult<DocumentData> {
    let currency = invoice.currency.as_str();
    let items = invoice.items.clone().unwrap_or_default();
    let amounts: Vec<PositionAmounts> = items
        .iter()
        .map(|i| PositionAmounts {
            kind: Some(i.kind),
            quantity: i.quantity,
            unit_price: i.unit_price,
            net_total: Some(i.net_total),
            optional: false,
        })
        .collect();
    let totals = compute_totals(
        &amounts,
        invoice.discount,
        invoice.tax,
        invoice.vat.reverse_charge,
        currency,
    )?;

    let printed: Vec<PrintPosition> = items
        .iter()
        .map(|i| PrintPosition {
            kind: i.kind,
            title: &i.title,
            description: i.description.as_deref(),
            quantity: i.quantity,
            unit: i.unit.as_deref(),
            unit_price: i.unit_price,
            optional: false,
        })
        .collect();
    let sections = sections(&printed, &totals.positions, currency);
    let lines = total_lines(
        &totals,
        invoice.discount,
        invoice.tax,
        invoice.vat.reverse_charge,
        currency,
    );

    let number = invoice
        .identifier
        .clone()
        .unwrap_or_else(|| "(draft)".into());
    let mut meta = vec![
        ("Invoice no.".to_string(), number.clone()),
        ("Date".into(), print_date(invoice.date)),
        ("Due date".into(), print_date(invoice.due_date)),
    ];
    if let (Some(from), Some(to)) = (invoice.service_period_from, invoice.service_period_to) {
        meta.push((
            "Service period".into(),
            format!("{} – {}", print_date(from), print_date(to)),
        ));
    }
    if let Some(user) = &invoice.user {
        meta.push((
            "Contact".into(),
            format!("{} {}", user.firstname, user.lastname),
        ));
    }

    let mut notes = Vec::new();
    if invoice.reversal {
        notes.push(
            "This reversal invoice cancels the invoice named above; amounts are negated."
                .to_string(),
        );
    } else {
        notes.push(format!(
            "Please pay {} by {}.",
            money(invoice.gross_total, currency),
            print_date(invoice.due_date)
        ));
    }
    if !invoice.cash_discount.is_zero() && invoice.cash_discount_days > 0 && !invoice.reversal {
        let reduced = mul_round(
            invoice.gross_total,
            invoice.cash_discount / Decimal::ONE_HUNDRED,
            minor_units(currency),
        )
        .and_then(|d| invoice.gross_total.checked_sub(d))
        .ok_or_else(|| ApiError::field("cash_discount", "is out of range"))?;
        let by = invoice.date + Duration::days(invoice.cash_discount_days);
        notes.push(format!(
            "{} % cash discount if paid by {}: {}.",
            plain(invoice.cash_discount),
            print_date(by),
            money(reduced, currency)
        ));
    }
    if invoice.vat.reverse_charge {
        notes.push("Reverse charge: the recipient is liable for the VAT.".into());
    }
    if invoice.vat.intra_eu {
        notes.push("Tax-exempt intra-Community supply.".into());
    }

    Ok(DocumentData {
        heading: if invoice.reversal {
            format!("Reversal invoice {number}")
        } else {
            format!("Invoice {number}")
        },
        subject: invoice.title.clone(),
        letterhead: letterhead(account, paper),
        recipient_lines: invoice
            .recipient_address
            .lines()
            .map(str::to_string)
            .collect(),
        meta,
        salutation: blocks(invoice.salutation.as_deref().unwrap_or("")),
        detail_columns: true,
        sections,
        totals: lines,
        notes,
        footer: blocks(invoice.footer.as_deref().unwrap_or("")),
        labels: Labels::default(),
    })
}

/// The time sheet of an invoice: one row per billed activity (date, description, user,
/// hours, rate, amount) and the total hours.
pub fn timesheet_document(
    invoice: &Invoice,
    activities: &[Activity],
    account: &AccountConfig,
    paper: Option<&LetterPaperConfig>,
) -> ApiResult<DocumentData> {
    let currency = invoice.currency.as_str();
    let corrupt = || ApiError::Internal("stored activity hours × rate overflow".into());
    let amounts = activities
        .iter()
        .map(|a| mul_round(a.hours, a.hourly_rate, minor_units(currency)).ok_or_else(corrupt))
        .collect::<ApiResult<Vec<Decimal>>>()?;
    let rows = activities
        .iter()
        .zip(&amounts)
        .map(|(a, net)| Row {
            kind: "item".into(),
            pos: a.date.format("%d.%m.").to_string(),
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
            quantity: plain(a.hours),
            unit: "h".into(),
            unit_price: format_amount(a.hourly_rate, currency),
            net_total: format_amount(*net, currency),
            optional: false,
        })
        .collect();
    fn sum(values: impl IntoIterator<Item = Decimal>) -> Option<Decimal> {
        values
            .into_iter()
            .try_fold(Decimal::ZERO, |s, v| s.checked_add(v))
    }
    let hours = sum(activities.iter().map(|a| a.hours)).ok_or_else(corrupt)?;
    let amount = sum(amounts.iter().copied()).ok_or_else(corrupt)?;
    let number = invoice
        .identifier
        .clone()
        .unwrap_or_else(|| "(draft)".into());
    Ok(DocumentData {
        heading: format!("Time sheet for invoice {number}"),
        subject: invoice.title.clone(),
        letterhead: letterhead(account, paper),
        recipient_lines: invoice
            .recipient_address
            .lines()
            .map(str::to_string)
            .collect(),
        meta: vec![
            ("Invoice no.".into(), number),
            ("Date".into(), print_date(invoice.date)),
        ],
        detail_columns: true,
        sections: vec![rows],
        totals: vec![
            TotalLine {
                label: "Total hours".into(),
                amount: format!("{} h", plain(hours)),
                strong: true,
            },
            TotalLine {
                label: "Amount".into(),
                amount: money(amount, currency),
                strong: false,
            },
        ],
        labels: Labels {
            pos: "Date".into(),
            quantity: "Hours".into(),
            unit_price: "Rate".into(),
            ..Labels::default()
        },
        ..Default::default()
    })
}
