//! The SQL of the model's derived rules (issue 30: one place per rule). Each fragment is
//! built from the model's own definition — no status list is typed into SQL:
//!
//! - issued: [`InvoiceStatus::is_issued`] → [`issued`];
//! - collectible: [`kontor_model::dashboard::is_collectible`] → [`collectible`];
//! - open amount: [`kontor_model::dashboard::open_amount`] (gross − what the payments
//!   settled, never below 0, for a collectible invoice; else 0) → [`open_milli`], in
//!   thousandths of a currency unit (`crate::lists::summary`);
//! - overdue: [`kontor_model::dashboard::is_overdue`] → [`push_overdue`];
//! - the status the API shows: [`kontor_model::dunning::effective_status`] →
//!   [`push_effective_status`].
//!
//! The fragments read invoice alias `i` (and `ip` for its payments inside their
//! subquery). The server's tests hold each fragment to the Rust rule on real rows of both
//! engines (`tests/summary_dashboard_api.rs`, `tests/search_sort_api.rs`).

use super::pool::Engine;
use super::Builder;
use chrono::NaiveDate;
use kontor_model::dashboard::is_collectible;
use kontor_model::status::InvoiceStatus;
use std::sync::LazyLock;

/// `column IN ('a', 'b')` for the invoice statuses `rule` holds for, in
/// [`InvoiceStatus::ALL`]'s order; `FALSE` when it holds for none.
pub fn invoice_status_in(column: &str, rule: impl Fn(InvoiceStatus) -> bool) -> String {
    let names: Vec<String> = InvoiceStatus::ALL
        .into_iter()
        .filter(|s| rule(*s))
        .map(|s| format!("'{}'", s.as_str()))
        .collect();
    if names.is_empty() {
        "FALSE".into()
    } else {
        format!("{column} IN ({})", names.join(", "))
    }
}

/// SQL: invoice `i` has been issued ([`InvoiceStatus::is_issued`]).
pub fn issued() -> &'static str {
    static SQL: LazyLock<String> =
        LazyLock::new(|| invoice_status_in("i.status", InvoiceStatus::is_issued));
    &SQL
}

/// SQL: invoice `i` is collected ([`is_collectible`] of its status and `reversed` flag),
/// one branch per value of the flag that has any collectible status.
pub fn collectible() -> &'static str {
    static SQL: LazyLock<String> = LazyLock::new(|| {
        let branches: Vec<String> = [false, true]
            .into_iter()
            .filter_map(|reversed| {
                let statuses = invoice_status_in("i.status", |s| is_collectible(s, reversed));
                (statuses != "FALSE").then(|| {
                    format!(
                        "(i.reversed = {} AND {statuses})",
                        if reversed { "TRUE" } else { "FALSE" }
                    )
                })
            })
            .collect();
        if branches.is_empty() {
            "FALSE".into()
        } else {
            format!("({})", branches.join(" OR "))
        }
    });
    &SQL
}

/// How the open amount's SQL is spelled: in statements (Kontor's functions
/// `kontor_milli` and `GREATEST`, `crate::sql::functions`), or in the schema's own views
/// of an engine, which must run without them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spelling {
    /// A statement of the server, on either engine.
    Statement,
    /// A view or trigger of the schema of this engine.
    Schema(Engine),
}

impl Spelling {
    fn milli(self, column: &str) -> String {
        match self {
            Spelling::Statement => format!("kontor_milli({column})"),
            Spelling::Schema(engine) => super::functions::milli_expression(engine, column),
        }
    }

    fn at_least_zero(self, x: &str) -> String {
        match self {
            Spelling::Schema(Engine::Sqlite) => format!("max({x}, 0)"),
            _ => format!("GREATEST({x}, 0)"),
        }
    }
}

/// SQL: what the payments, credit notes and deducted down payments of invoice `i`
/// settled, in thousandths of a currency unit: each payment's amount plus the cash
/// discount it took (migration 0021), plus the gross its credit notes credited
/// (`credited_total`, issue 33), plus the gross of the down payments a final invoice
/// deducts (`deducted_total`, issue 33: the open amount starts from `amount_due`); 0
/// without any.
pub fn paid_milli_in(spelling: Spelling) -> String {
    format!(
        "(COALESCE((SELECT CAST(SUM({} + {}) AS BIGINT) FROM invoice_payments ip WHERE ip.invoice_id = i.id), 0) + {} + {})",
        spelling.milli("ip.paid_total"),
        spelling.milli("ip.cash_discount"),
        spelling.milli("i.credited_total"),
        spelling.milli("i.deducted_total"),
    )
}

/// SQL: invoice `i`'s `open_amount` in thousandths of a currency unit
/// ([`kontor_model::dashboard::open_amount`]) spelled as `spelling` says.
pub fn open_milli_in(spelling: Spelling) -> String {
    format!(
        "(CASE WHEN {} THEN {} ELSE 0 END)",
        collectible(),
        spelling.at_least_zero(&format!(
            "{} - {}",
            spelling.milli("i.gross_total"),
            paid_milli_in(spelling)
        )),
    )
}

/// SQL of a statement: what the payments of invoice `i` settled, in thousandths
/// ([`paid_milli_in`]).
pub fn paid_milli() -> &'static str {
    static SQL: LazyLock<String> = LazyLock::new(|| paid_milli_in(Spelling::Statement));
    &SQL
}

/// SQL of a statement: invoice `i`'s `open_amount` in thousandths ([`open_milli_in`]).
/// Used by `sort=open_amount`, the `open`/`overdue` filters, the summaries and the
/// dashboard.
pub fn open_milli() -> &'static str {
    static SQL: LazyLock<String> = LazyLock::new(|| open_milli_in(Spelling::Statement));
    &SQL
}

/// Appends `(open > 0 AND i.due_date < today)`: invoice `i` is overdue on `today`
/// ([`kontor_model::dashboard::is_overdue`]).
pub fn push_overdue(qb: &mut Builder<'_>, today: NaiveDate) {
    qb.push(format!("({} > 0 AND i.due_date < ", open_milli()))
        .push_bind(today)
        .push(")");
}

/// Appends the status the API shows for invoice `i` on `today`
/// ([`kontor_model::dunning::effective_status`]): `overdue` for an invoice that awaits
/// payment, is not reversed and is overdue; else the stored status.
pub fn push_effective_status(qb: &mut Builder<'_>, today: NaiveDate) {
    qb.push(format!(
        "(CASE WHEN {} AND i.reversed = FALSE AND ",
        invoice_status_in("i.status", InvoiceStatus::awaits_payment)
    ));
    push_overdue(qb, today);
    qb.push(format!(
        " THEN '{}' ELSE i.status END)",
        InvoiceStatus::Overdue.as_str()
    ));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_lists_come_from_the_model() {
        assert_eq!(
            invoice_status_in("i.status", InvoiceStatus::awaits_payment),
            "i.status IN ('created', 'sent')"
        );
        assert_eq!(invoice_status_in("s", |_| false), "FALSE");
        assert_eq!(
            issued(),
            "i.status IN ('created', 'sent', 'partially_paid', 'paid', 'overdue', 'ignored')"
        );
        assert_eq!(
            collectible(),
            "((i.reversed = FALSE AND i.status IN ('created', 'sent', 'partially_paid', 'paid', 'overdue')))"
        );
    }

    #[test]
    fn the_open_amount_is_spelled_for_statements_and_for_each_schema() {
        assert!(open_milli().contains("GREATEST(kontor_milli(i.gross_total) - (COALESCE("));
        assert!(open_milli().contains("+ kontor_milli(i.credited_total)"));
        assert!(open_milli().contains("+ kontor_milli(i.deducted_total))"));
        let sqlite = open_milli_in(Spelling::Schema(Engine::Sqlite));
        assert!(sqlite.contains("max(") && !sqlite.contains("kontor_milli"));
        let pg = open_milli_in(Spelling::Schema(Engine::Postgres));
        assert!(pg.contains("GREATEST(trunc(i.gross_total * 1000)::BIGINT"));
    }
}
