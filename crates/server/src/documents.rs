//! Records → [`kontor_pdf::document::DocumentData`]: the words, formatted amounts and dates
//! of a printed invoice or time sheet. Rendering itself is `kontor_pdf`'s.

use crate::config::{AccountConfig, LetterPaperConfig};
use chrono::{Duration, NaiveDate};
use kontor_model::billing::Activity;
use kontor_model::invoice::Invoice;
use kontor_model::money::{format_amount, round_money};
use kontor_model::position::PositionType;
use kontor_model::totals::{compute_totals, PositionAmounts};
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

/// The printed invoice (also the live preview of an unsaved one, and reversals).
pub fn invoice_document(
    invoice: &Invoice,
    account: &AccountConfig,
    paper: Option<&LetterPaperConfig>,
) -> DocumentData {
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
    );

    let mut sections = vec![Vec::new()];
    let mut pos = 0;
    for (item, net) in items.iter().zip(&totals.positions) {
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
                    title: item.title.clone(),
                    description: blocks(item.description.as_deref().unwrap_or("")),
                    quantity: if lump {
                        String::new()
                    } else {
                        item.quantity.map(plain).unwrap_or_default()
                    },
                    unit: item.unit.clone().unwrap_or_default(),
                    unit_price: if lump {
                        String::new()
                    } else {
                        item.unit_price
                            .map(|p| format_amount(p, currency))
                            .unwrap_or_default()
                    },
                    net_total: format_amount(*net, currency),
                    optional: false,
                }
            }
            kind => Row {
                kind: kind.as_str().into(),
                title: item.title.clone(),
                description: blocks(item.description.as_deref().unwrap_or("")),
                net_total: format_amount(*net, currency),
                ..Default::default()
            },
        };
        if let Some(section) = sections.last_mut() {
            section.push(row);
        }
    }

    let mut lines = Vec::new();
    if !invoice.discount.is_zero() {
        lines.push(TotalLine {
            label: "Subtotal".into(),
            amount: money(totals.items_total, currency),
            strong: false,
        });
        lines.push(TotalLine {
            label: format!("Discount {} %", plain(invoice.discount)),
            amount: money(-totals.discount_amount, currency),
            strong: false,
        });
    }
    lines.push(TotalLine {
        label: "Net total".into(),
        amount: money(invoice.net_total, currency),
        strong: false,
    });
    let tax_label = if invoice.vat.reverse_charge {
        "VAT 0 % (reverse charge)".to_string()
    } else {
        format!("VAT {} %", plain(invoice.tax))
    };
    lines.push(TotalLine {
        label: tax_label,
        amount: money(invoice.gross_total - invoice.net_total, currency),
        strong: false,
    });
    lines.push(TotalLine {
        label: "Gross total".into(),
        amount: money(invoice.gross_total, currency),
        strong: true,
    });

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
        let reduced = invoice.gross_total
            - round_money(
                invoice.gross_total * invoice.cash_discount / Decimal::ONE_HUNDRED,
                currency,
            );
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

    DocumentData {
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
    }
}

/// The time sheet of an invoice: one row per billed activity (date, description, user,
/// hours, rate, amount) and the total hours.
pub fn timesheet_document(
    invoice: &Invoice,
    activities: &[Activity],
    account: &AccountConfig,
    paper: Option<&LetterPaperConfig>,
) -> DocumentData {
    let currency = invoice.currency.as_str();
    let rows = activities
        .iter()
        .map(|a| Row {
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
            net_total: format_amount(round_money(a.hours * a.hourly_rate, currency), currency),
            optional: false,
        })
        .collect();
    let hours: Decimal = activities.iter().map(|a| a.hours).sum();
    let amount: Decimal = activities
        .iter()
        .map(|a| round_money(a.hours * a.hourly_rate, currency))
        .sum();
    let number = invoice
        .identifier
        .clone()
        .unwrap_or_else(|| "(draft)".into());
    DocumentData {
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
    }
}
