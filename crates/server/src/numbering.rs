//! Gap-free document numbers (`decisions.md` § Numbering): invoices `R<YYMM>-<NNN>`,
//! offers `A<YYMM>-<NNN>`, purchases `E<YYMM>-<NNNN>`, by the record's date; the counter
//! restarts each month and widens when it overflows.
//!
//! Numbers are drawn inside the caller's write transaction (which holds the write lock),
//! so a failed creation rolls its number back and concurrent creations never collide.

use chrono::NaiveDate;
use sqlx::{Sqlite, Transaction};

/// A numbered document kind: prefix letter and minimum digits.
#[derive(Clone, Copy, Debug)]
pub struct Series {
    /// Counter key and prefix letter (`"R"`).
    pub prefix: &'static str,
    /// Minimum digits of the running number.
    pub width: usize,
}

/// Invoices: `R2611-001`.
pub const INVOICES: Series = Series {
    prefix: "R",
    width: 3,
};
/// Offers: `A2611-001`.
pub const OFFERS: Series = Series {
    prefix: "A",
    width: 3,
};
/// Purchases: `E2611-0001`.
pub const PURCHASES: Series = Series {
    prefix: "E",
    width: 4,
};

/// Draws the next number of `series` for the month of `date`.
pub async fn next_number(
    tx: &mut Transaction<'_, Sqlite>,
    series: Series,
    date: NaiveDate,
) -> Result<String, sqlx::Error> {
    let period = date.format("%y%m").to_string();
    let n: i64 = sqlx::query_scalar(
        "INSERT INTO number_counters (kind, period, last) VALUES (?, ?, 1)
         ON CONFLICT (kind, period) DO UPDATE SET last = last + 1 RETURNING last",
    )
    .bind(series.prefix)
    .bind(&period)
    .fetch_one(&mut **tx)
    .await?;
    Ok(format!(
        "{}{}-{:0width$}",
        series.prefix,
        period,
        n,
        width = series.width
    ))
}
