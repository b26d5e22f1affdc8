//! Exact per-currency sums in SQL for the lists' summaries (`GET /invoices/summary`,
//! `/offers/summary`, `/purchases/summary`, issue 11 § Find and see) and the invoices'
//! `open_amount` (`docs/decisions.md` § Summaries and dashboard (issue 11)).
//!
//! Amounts are stored as decimal text on SQLite (which has no decimal type; `SUM` over
//! `REAL` would round) and as `NUMERIC` on PostgreSQL. [`milli!`] turns a stored amount
//! into an exact integer count of thousandths of a currency unit on both (every currency
//! has at most three minor-unit places, and stored totals and payments are rounded to
//! them); the sums are integer sums (an overflow is a database error, never a wrong
//! figure) and [`from_milli`] turns them back into [`Decimal`]s at the currency's places.

use crate::http::error::ApiResult;
use kontor_model::money::round_money;
use kontor_model::query::{CurrencyTotals, ListSummary};
use rust_decimal::Decimal;

/// SQL for the stored amount column `$x` (a string literal naming a column, e.g.
/// `"i.gross_total"`) as an exact BIGINT in thousandths of a currency unit: the function
/// `kontor_milli(…)` both engines define (`crate::sql::functions`).
/// `"119.5"` → 119500, `"-0.05"` → −50, `"100"` → 100000.
macro_rules! milli {
    ($x:literal) => {
        concat!("kontor_milli(", $x, ")")
    };
}
pub(crate) use milli;

/// The server's date (its local calendar day, like the recurring invoices' job): the
/// `today` of the overdue rule and the dashboard.
pub fn today() -> chrono::NaiveDate {
    chrono::Local::now().date_naive()
}

/// An exact sum in thousandths of a currency unit ([`milli!`]) as currency units at
/// `currency`'s minor-unit places.
pub fn from_milli(milli: i64, currency: &str) -> Decimal {
    round_money(Decimal::new(milli, 3), currency)
}

/// An invoice's open amount ([`kontor_model::dashboard::open_amount`]) from its stored
/// status, reversal flag and gross and the payments' sum read with
/// [`crate::sql::rules::paid_milli`]
/// (thousandths, amount + cash discount); currency units at `currency`'s places.
pub fn open_from_milli(
    status: kontor_model::status::InvoiceStatus,
    reversed: bool,
    gross: Decimal,
    paid_milli: i64,
    currency: &str,
) -> Decimal {
    kontor_model::dashboard::open_amount(
        status,
        reversed,
        gross,
        from_milli(paid_milli, currency),
        currency,
    )
}

/// The SQL of one summary: the table alias whose `currency` column groups, and the
/// per-row expressions (in thousandths, [`milli!`]) of the net total, the gross total and,
/// for invoices and purchases, the open amount.
pub struct SummarySql<'a> {
    /// `FROM …` with the joins the filter's conditions need.
    pub from: &'a str,
    /// The alias of the main table (`i`, `o`, `p`).
    pub alias: &'a str,
    /// Per-row net total in thousandths.
    pub net: &'a str,
    /// Per-row gross total in thousandths.
    pub gross: &'a str,
    /// Per-row open amount in thousandths; `None` → `open_amount: null`.
    pub open: Option<&'a str>,
}

/// Runs a summary: the rows `push_where` selects (the list's own condition code, which
/// must start with ` WHERE`), counted and summed per currency in SQL, sorted by currency.
/// Errors: 500 when a sum overflows SQLite's 64-bit integers.
pub async fn run(
    pool: &crate::sql::Db,
    sql: &SummarySql<'_>,
    push_where: impl Fn(&mut crate::sql::Builder<'_>),
) -> ApiResult<ListSummary> {
    let t = sql.alias;
    let mut qb = crate::sql::Builder::new(format!(
        "SELECT {t}.currency, COUNT(*), CAST(SUM({net}) AS BIGINT), CAST(SUM({gross}) AS BIGINT), \
         CAST(SUM({open}) AS BIGINT) {from}",
        net = sql.net,
        gross = sql.gross,
        open = sql.open.unwrap_or("0"),
        from = sql.from,
    ));
    push_where(&mut qb);
    qb.push(format!(" GROUP BY {t}.currency ORDER BY {t}.currency"));
    let rows: Vec<(String, i64, i64, i64, i64)> = qb.build_query_as().fetch_all(pool).await?;
    Ok(ListSummary {
        totals: rows
            .into_iter()
            .map(|(currency, count, net, gross, open)| CurrencyTotals {
                net_total: from_milli(net, &currency),
                gross_total: from_milli(gross, &currency),
                open_amount: sql.open.map(|_| from_milli(open, &currency)),
                count,
                currency,
            })
            .collect(),
    })
}

/// The unfiltered invoice list's [`ListSummary`] from the `invoice_totals` rows that
/// triggers keep in the same transaction as every write (migration 0019), sorted by
/// currency; currencies without live invoices are left out, as the computed summary does.
/// Errors: 500 when a kept sum left SQLite's 64-bit integers (it would have become REAL).
pub async fn maintained_invoice_totals(pool: &crate::sql::Db) -> ApiResult<ListSummary> {
    // PostgreSQL's BIGINT cannot leave its range (the write fails instead), SQLite's
    // INTEGER turns into REAL.
    let kinds = match pool.engine() {
        crate::sql::Engine::Sqlite => {
            "typeof(net_milli) || typeof(gross_milli) || typeof(open_milli)"
        }
        crate::sql::Engine::Postgres => "'integerintegerinteger'",
    };
    let rows: Vec<(String, i64, i64, i64, i64, String)> = crate::sql::query_as(&format!(
        "SELECT currency, live, net_milli, gross_milli, open_milli, {kinds} \
         FROM invoice_totals WHERE live > 0 ORDER BY currency"
    ))
    .fetch_all(pool)
    .await?;
    let mut totals = Vec::with_capacity(rows.len());
    for (currency, count, net, gross, open, kinds) in rows {
        if kinds != "integerintegerinteger" {
            return Err(crate::http::error::ApiError::Internal(format!(
                "the kept invoice totals in {currency} overflowed"
            )));
        }
        totals.push(CurrencyTotals {
            net_total: from_milli(net, &currency),
            gross_total: from_milli(gross, &currency),
            open_amount: Some(from_milli(open, &currency)),
            count,
            currency,
        });
    }
    Ok(ListSummary { totals })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn milli_reads_stored_decimal_text_exactly() {
        let dir = tempfile::tempdir().unwrap();
        let pool = crate::store::db::open_file(&dir.path().join("k.db"))
            .await
            .unwrap();
        for (text, want) in [
            ("119.5", 119_500),
            ("119.00", 119_000),
            ("-0.05", -50),
            ("-119.99", -119_990),
            ("100", 100_000),
            ("0.001", 1),
            ("999999999999999.999", 999_999_999_999_999_999),
        ] {
            let got: i64 =
                crate::sql::query_scalar(&format!("SELECT {} FROM (SELECT $1 AS x)", milli!("x")))
                    .bind(text)
                    .fetch_one(&pool)
                    .await
                    .unwrap();
            assert_eq!(got, want, "{text}");
        }
        assert_eq!(from_milli(119_500, "EUR").to_string(), "119.50");
        assert_eq!(from_milli(-50, "EUR").to_string(), "-0.05");
        assert_eq!(from_milli(1_000_000, "JPY").to_string(), "1000");
    }

    /// The kept totals (`crate::schema::derived`) sum exactly the expressions of the
    /// computed summary: the view's text holds them verbatim, written out for SQLite.
    #[tokio::test]
    async fn the_kept_invoice_totals_use_the_summary_expressions() {
        use crate::sql::rules::{open_milli_in, Spelling};
        let dir = tempfile::tempdir().unwrap();
        let pool = crate::store::db::open(dir.path()).await.unwrap();
        let view: String = crate::sql::query_scalar(
            "SELECT sql FROM sqlite_master WHERE type = 'view' AND name = 'invoice_summary_rows'",
        )
        .fetch_one(&pool)
        .await
        .unwrap();
        let sqlite = crate::sql::Engine::Sqlite;
        for expr in [
            crate::sql::functions::milli_expression(sqlite, "i.net_total"),
            crate::sql::functions::milli_expression(sqlite, "i.gross_total"),
            open_milli_in(Spelling::Schema(sqlite)),
        ] {
            assert!(view.contains(&expr), "{expr} not in {view}");
        }
        pool.close().await;
    }
}
