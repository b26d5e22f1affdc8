//! The invoice list's chart (issue 14 § App): for the list's filter, per currency, the
//! open and the overdue amount over every matching invoice, and for the twelve months of
//! [`last_twelve_months`] how much of each month's invoices (by invoice date) is paid,
//! still open before its due date, and overdue. `GET /invoices/monthly` answers
//! [`InvoiceMonths`]; the server reads the sums in SQL and [`invoice_months`] shapes them.

use crate::dashboard::{last_twelve_months, YearMonth};
use crate::money::round_money;
use chrono::NaiveDate;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

/// One month's invoices by their state (currency units, at the currency's places).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MonthAmounts {
    /// The month of the invoice date (`"2026-11"`).
    pub month: YearMonth,
    /// What the month's collectible invoices received: gross − open.
    #[serde(with = "crate::wire::decimal")]
    pub paid: Decimal,
    /// Open and not yet due.
    #[serde(with = "crate::wire::decimal")]
    pub open: Decimal,
    /// Open and past the due date.
    #[serde(with = "crate::wire::decimal")]
    pub overdue: Decimal,
}

/// One currency's figures.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CurrencyMonths {
    /// ISO 4217 code.
    pub currency: String,
    /// Open amount of every matching invoice (not only the twelve months), overdue
    /// included.
    #[serde(with = "crate::wire::decimal")]
    pub open_amount: Decimal,
    /// The overdue part of `open_amount`.
    #[serde(with = "crate::wire::decimal")]
    pub overdue_amount: Decimal,
    /// The twelve months, oldest first, every month present.
    pub months: Vec<MonthAmounts>,
}

/// The answer of `GET /invoices/monthly`: one entry per currency with matching
/// invoices, the one with the most open first (then by code); `[]` when nothing matches.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct InvoiceMonths {
    /// Per-currency figures.
    pub currencies: Vec<CurrencyMonths>,
}

/// One summed group as the server reads it: currency, month of the invoice date, and the
/// paid, open-not-due and overdue sums of its invoices (currency units).
pub type MonthRow = (String, YearMonth, Decimal, Decimal, Decimal);

/// Shapes `rows` into [`InvoiceMonths`] for `today`: totals over every row, the months of
/// [`last_twelve_months`] filled with zeros where nothing was invoiced, amounts at each
/// currency's places. `None` when a sum overflows.
pub fn invoice_months(today: NaiveDate, rows: &[MonthRow]) -> Option<InvoiceMonths> {
    let window = last_twelve_months(today);
    let mut currencies: Vec<CurrencyMonths> = Vec::new();
    for (currency, month, paid, open, overdue) in rows {
        let index = match currencies.iter().position(|c| &c.currency == currency) {
            Some(i) => i,
            None => {
                currencies.push(CurrencyMonths {
                    currency: currency.clone(),
                    open_amount: Decimal::ZERO,
                    overdue_amount: Decimal::ZERO,
                    months: window
                        .iter()
                        .map(|m| MonthAmounts {
                            month: *m,
                            paid: Decimal::ZERO,
                            open: Decimal::ZERO,
                            overdue: Decimal::ZERO,
                        })
                        .collect(),
                });
                currencies.len() - 1
            }
        };
        let entry = &mut currencies[index];
        entry.open_amount = entry
            .open_amount
            .checked_add(*open)?
            .checked_add(*overdue)?;
        entry.overdue_amount = entry.overdue_amount.checked_add(*overdue)?;
        if let Some(m) = entry.months.iter_mut().find(|m| m.month == *month) {
            m.paid = m.paid.checked_add(*paid)?;
            m.open = m.open.checked_add(*open)?;
            m.overdue = m.overdue.checked_add(*overdue)?;
        }
    }
    for c in &mut currencies {
        let places = |v: Decimal| round_money(v, &c.currency);
        c.open_amount = places(c.open_amount);
        c.overdue_amount = places(c.overdue_amount);
        for m in &mut c.months {
            m.paid = places(m.paid);
            m.open = places(m.open);
            m.overdue = places(m.overdue);
        }
    }
    currencies.sort_by(|a, b| {
        b.open_amount
            .cmp(&a.open_amount)
            .then_with(|| a.currency.cmp(&b.currency))
    });
    Some(InvoiceMonths { currencies })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> Decimal {
        s.parse().unwrap()
    }

    fn ym(year: i32, month: u32) -> YearMonth {
        YearMonth { year, month }
    }

    #[test]
    fn months_are_filled_totals_cover_every_row_and_the_most_open_currency_leads() {
        let today = NaiveDate::from_ymd_opt(2026, 11, 24).unwrap();
        let rows = vec![
            ("EUR".to_string(), ym(2026, 11), d("100"), d("19"), d("0")),
            ("EUR".to_string(), ym(2026, 9), d("0"), d("0"), d("238.5")),
            // Before the window: counted in the totals, not in a month.
            ("EUR".to_string(), ym(2025, 1), d("0"), d("0"), d("10")),
            ("CHF".to_string(), ym(2026, 11), d("5"), d("1000"), d("0")),
        ];
        let chart = invoice_months(today, &rows).unwrap();
        assert_eq!(chart.currencies.len(), 2);
        let chf = &chart.currencies[0];
        assert_eq!(chf.currency, "CHF", "the most open first");
        let eur = &chart.currencies[1];
        assert_eq!(eur.open_amount.to_string(), "267.50");
        assert_eq!(eur.overdue_amount.to_string(), "248.50");
        assert_eq!(eur.months.len(), 12);
        assert_eq!(eur.months[0].month, ym(2025, 12));
        assert_eq!(eur.months[11].month, ym(2026, 11));
        assert_eq!(eur.months[11].paid.to_string(), "100.00");
        assert_eq!(eur.months[11].open.to_string(), "19.00");
        assert_eq!(eur.months[9].overdue.to_string(), "238.50");
        assert_eq!(eur.months[10].paid.to_string(), "0.00");
        assert_eq!(
            invoice_months(today, &[]).unwrap(),
            InvoiceMonths::default()
        );
        let huge = vec![
            (
                "EUR".to_string(),
                ym(2026, 11),
                d("0"),
                Decimal::MAX,
                d("0"),
            ),
            (
                "EUR".to_string(),
                ym(2026, 11),
                d("0"),
                Decimal::MAX,
                d("0"),
            ),
        ];
        assert_eq!(invoice_months(today, &huge), None);
    }
}
