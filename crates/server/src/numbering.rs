//! Gap-free document numbers in the account's number formats (`decisions.md`
//! § Numbering; issue 9; `docs/decisions.md` § Account settings (issue 9)). The format
//! (`R{YY}{MM}-{NNN}` by default, `kontor_model::number_format`) is read from the
//! settings row at the moment a number is drawn, so a change applies to the next number
//! and never renumbers; the period is the record's date.
//!
//! The counter of a number is counted per **series** (`number_series`): the format
//! rendered for the date with the counter as `{N}` (`"R2611-{N}"`, `"2026-{N}"`), so a
//! monthly format restarts each month, a yearly one each year, one without date tokens
//! never. The next counter is one more than the series' last drawn counter; the first
//! number of a series is one more than the largest counter among the existing numbers
//! that match the format in the same period (numbers stored before the series existed) —
//! so switching from `R{YY}{MM}-{NNN}` to `{YYYY}-{NNNNN}` starts at
//! `2026-00001`, and switching back continues `R2611-…` where it stopped. A number that
//! already exists (possible only when two formats print the same text) is skipped.
//!
//! Numbers are drawn inside the caller's write transaction (which holds the write lock),
//! so a failed creation rolls its number back and concurrent creations never collide.

use crate::http::error::{ApiError, ApiResult};
use chrono::NaiveDate;
use kontor_model::number_format::NumberFormat;

/// A numbered document kind: its counter key, table and format setting.
#[derive(Clone, Copy, Debug)]
pub struct Series {
    /// Counter key in `number_series` (`"invoice"`).
    pub kind: &'static str,
    /// The table whose `identifier` column holds the numbers.
    pub table: &'static str,
    /// The `account_settings` column holding the format.
    pub format_column: &'static str,
}

/// Invoices: `R2611-001` by default.
pub const INVOICES: Series = Series {
    kind: "invoice",
    table: "invoices",
    format_column: "invoice_number_format",
};
/// Offers: `A2611-001` by default.
pub const OFFERS: Series = Series {
    kind: "offer",
    table: "offers",
    format_column: "offer_number_format",
};
/// Purchases: `E2611-0001` by default.
pub const PURCHASES: Series = Series {
    kind: "purchase",
    table: "purchases",
    format_column: "purchase_number_format",
};

/// Credit notes (issue 33): `G2611-001` by default. They are invoices: their counters are
/// kept under the invoice kind, in the series their own format renders (`G2611-{N}`), so a
/// credit note format equal to the invoice format continues one series.
pub const CREDIT_NOTES: Series = Series {
    kind: "invoice",
    table: "invoices",
    format_column: "credit_note_number_format",
};

/// `text` for a `LIKE … ESCAPE '\'` pattern, matched literally.
fn like_literal(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 1);
    for c in text.chars() {
        if matches!(c, '%' | '_' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Draws the next number of `series` for a record dated `date` (see the module docs).
/// Errors: 500 when the stored format is corrupt, the counter cannot grow, or the
/// database fails.
pub async fn next_number(
    tx: &mut crate::sql::Tx,
    series: Series,
    date: NaiveDate,
) -> ApiResult<String> {
    let pattern: String = crate::sql::query_scalar(&format!(
        "SELECT {} FROM account_settings WHERE id = 1",
        series.format_column
    ))
    .fetch_optional(&mut *tx)
    .await?
    .ok_or_else(|| ApiError::Internal("account_settings has no row".into()))?;
    let format = NumberFormat::parse(&pattern).map_err(|e| {
        ApiError::Internal(format!(
            "account_settings.{} is corrupt: {e}",
            series.format_column
        ))
    })?;
    let key = format.series_key(date);
    // The counter row is locked until the drawing transaction ends (issue 16 § 2). On
    // SQLite the transaction already holds the database's write lock (`BEGIN IMMEDIATE`).
    // On PostgreSQL, where several processes draw at once, one upsert creates the row if
    // the series is new (0: nothing drawn yet) and locks it either way (`DO UPDATE`
    // without a change): a second drawer waits here for the first to commit or roll
    // back and then reads the committed counter, so a rolled-back finalization leaves no
    // gap. The identifier's UNIQUE constraint is the backstop.
    let read_last = match tx.engine() {
        crate::sql::Engine::Sqlite => {
            "SELECT last FROM number_series WHERE kind = $1 AND series = $2"
        }
        crate::sql::Engine::Postgres => {
            "INSERT INTO number_series (kind, series, last) VALUES ($1, $2, 0) \
             ON CONFLICT (kind, series) DO UPDATE SET last = number_series.last RETURNING last"
        }
    };
    let last: Option<i64> = crate::sql::query_scalar(read_last)
        .bind(series.kind)
        .bind(&key)
        .fetch_optional(&mut *tx)
        .await?
        .filter(|&last| last > 0);
    // The existing numbers of the period are read only for the series' first number: from
    // then on its counter row has seen every number it drew, so a creation costs the same
    // with 100 or 100,000 invoices stored (issue 13: the scan made `POST /invoices` slow
    // down with the data). Numbers another format prints the same are skipped below.
    let highest = match last {
        Some(_) => 0,
        None => {
            let (prefix, suffix) = format.affixes(date);
            let existing: Vec<String> = crate::sql::query_scalar(&format!(
                "SELECT identifier FROM {} WHERE identifier LIKE $1 ESCAPE '\\'",
                series.table
            ))
            .bind(format!(
                "{}%{}",
                like_literal(&prefix),
                like_literal(&suffix)
            ))
            .fetch_all(&mut *tx)
            .await?;
            existing
                .iter()
                .filter_map(|i| format.counter_of(i, date))
                .max()
                .unwrap_or(0)
        }
    };
    let overflow = || ApiError::Internal(format!("the {} counter cannot grow", series.kind));
    let mut counter = u64::try_from(last.unwrap_or(0))
        .map_err(|_| overflow())?
        .max(highest)
        .checked_add(1)
        .ok_or_else(overflow)?;
    // The candidate is free when no record holds it; the free one is stored as the
    // series' last counter in the same statement (one statement per number drawn, issue
    // 35): a taken candidate inserts and answers nothing, and the next one is tried.
    let draw = format!(
        "INSERT INTO number_series (kind, series, last) SELECT $1, $2, $3 \
         WHERE NOT EXISTS (SELECT 1 FROM {} WHERE identifier = $4) \
         ON CONFLICT (kind, series) DO UPDATE SET last = excluded.last RETURNING last",
        series.table
    );
    let number = loop {
        let candidate = format.render(date, counter);
        let drawn: Option<i64> = crate::sql::query_scalar(&draw)
            .bind(series.kind)
            .bind(&key)
            .bind(i64::try_from(counter).map_err(|_| overflow())?)
            .bind(&candidate)
            .fetch_optional(&mut *tx)
            .await?;
        if drawn.is_some() {
            break candidate;
        }
        counter = counter.checked_add(1).ok_or_else(overflow)?;
    };
    Ok(number)
}

#[cfg(test)]
mod tests {
    use super::like_literal;

    #[test]
    fn like_patterns_match_literally() {
        assert_eq!(like_literal("R2611-"), "R2611-");
        assert_eq!(like_literal("A_1%\\"), "A\\_1\\%\\\\");
    }
}
