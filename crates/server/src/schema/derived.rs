//! The schema objects derived from the model's rules, generated per engine from one Rust
//! definition (issue 30), as the audit triggers are (`crate::proof::audit`):
//!
//! - the list counters (`list_counts`, migration 0018): the live rows of the invoice,
//!   offer and purchase lists, kept by triggers so an unfiltered list is not counted;
//! - the kept invoice totals (`invoice_totals`, migrations 0019/0021): per currency the
//!   live invoices' count and net, gross and open totals in thousandths, kept by triggers
//!   from the view `invoice_summary_rows`, whose open amount is the model's rule
//!   (`crate::sql::rules::open_milli_in`).
//!
//! While a large write has paused invoices (`invoice_totals_paused`, [`pause_totals`])
//! the payment and invoice-update triggers leave their summary rows alone: the write
//! takes them out of the totals and puts them back itself, once each ([`resume_totals`]).
//!
//! [`install`] runs at every start after the migrations: when the stored definitions
//! differ from these (a first start, or a changed rule), it replaces them and counts and
//! sums the kept figures again, in one transaction; otherwise it changes nothing. The
//! view and triggers are written in each engine's plain SQL (no Kontor function), so a
//! SQLite file keeps working in the `sqlite3` shell.

use crate::sql::rules::{open_milli_in, Spelling};
use crate::sql::Engine;
use sha2::{Digest, Sha256};

/// When a trigger runs.
#[derive(Clone, Copy)]
enum Timing {
    Before,
    After,
}

/// A row trigger written once: the statements run for each row (`NEW`/`OLD` as usual),
/// on `event` (`INSERT`, `DELETE`, `UPDATE OF …`) of `table`, when `when` holds.
struct Trigger {
    name: String,
    timing: Timing,
    event: &'static str,
    table: &'static str,
    when: Option<&'static str>,
    statements: Vec<String>,
}

impl Trigger {
    /// SQLite: a trigger with the statements as its body. PostgreSQL: a PL/pgSQL function
    /// of the same name with them, and a row trigger calling it.
    fn sql(&self, engine: Engine) -> Vec<String> {
        let timing = match self.timing {
            Timing::Before => "BEFORE",
            Timing::After => "AFTER",
        };
        let body: String = self.statements.iter().map(|s| format!("{s}; ")).collect();
        let (name, event, table) = (&self.name, self.event, self.table);
        match engine {
            Engine::Sqlite => {
                let when = self.when.map(|w| format!(" WHEN {w}")).unwrap_or_default();
                vec![
                    format!("DROP TRIGGER IF EXISTS {name}"),
                    format!(
                        "CREATE TRIGGER {name} {timing} {event} ON {table}{when} BEGIN {body}END"
                    ),
                ]
            }
            Engine::Postgres => {
                let when = self
                    .when
                    .map(|w| format!(" WHEN ({w})"))
                    .unwrap_or_default();
                vec![
                    format!("DROP TRIGGER IF EXISTS {name} ON {table}"),
                    format!(
                        "CREATE OR REPLACE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $derived$ \
                         BEGIN {body}IF TG_OP = 'DELETE' THEN RETURN OLD; END IF; RETURN NEW; END $derived$"
                    ),
                    format!(
                        "CREATE TRIGGER {name} {timing} {event} ON {table} FOR EACH ROW{when} EXECUTE FUNCTION {name}()"
                    ),
                ]
            }
        }
    }
}

/// The lists whose live rows `list_counts` keeps: (list, table, soft-deleted).
const COUNTED: [(&str, &str, bool); 3] = [
    ("invoices", "invoices", true),
    ("offers", "offers", false),
    ("purchases", "purchases", false),
];

fn list_count_triggers() -> Vec<Trigger> {
    let add = |list: &str, delta: &str| {
        format!("UPDATE list_counts SET live = live + {delta} WHERE list = '{list}'")
    };
    let mut out = Vec::new();
    for (list, table, soft) in COUNTED {
        let name = |what: &str| format!("list_counts_{list}_{what}");
        out.push(Trigger {
            name: name("insert"),
            timing: Timing::After,
            event: "INSERT",
            table,
            when: soft.then_some("NEW.deleted_at IS NULL"),
            statements: vec![add(list, "1")],
        });
        out.push(Trigger {
            name: name("delete"),
            timing: Timing::After,
            event: "DELETE",
            table,
            when: soft.then_some("OLD.deleted_at IS NULL"),
            statements: vec![add(list, "-1")],
        });
        if soft {
            out.push(Trigger {
                name: name("soft_delete"),
                timing: Timing::After,
                event: "UPDATE OF deleted_at",
                table,
                when: Some("(OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL)"),
                statements: vec![add(
                    list,
                    "(CASE WHEN NEW.deleted_at IS NULL THEN 1 ELSE -1 END)",
                )],
            });
        }
    }
    out
}

/// The view of one row per live invoice with its figures in thousandths.
fn summary_view(engine: Engine) -> String {
    let milli = |c: &str| crate::sql::functions::milli_expression(engine, c);
    format!(
        "CREATE VIEW invoice_summary_rows AS SELECT i.id AS id, i.currency AS currency, \
         {} AS net_milli, {} AS gross_milli, {} AS open_milli \
         FROM invoices i WHERE i.deleted_at IS NULL",
        milli("i.net_total"),
        milli("i.gross_total"),
        open_milli_in(Spelling::Schema(engine)),
    )
}

/// Adds `sign` (1 or −1) times the summary row of invoice `id` (SQL) to its currency's
/// kept totals.
fn add_totals(sign: &str, id: &str, only_if: &str) -> String {
    format!(
        "INSERT INTO invoice_totals (currency, live, net_milli, gross_milli, open_milli) \
         SELECT currency, {sign}, {sign} * net_milli, {sign} * gross_milli, {sign} * open_milli \
         FROM invoice_summary_rows WHERE id = {id}{only_if} \
         ON CONFLICT (currency) DO UPDATE SET \
         live = invoice_totals.live + excluded.live, \
         net_milli = invoice_totals.net_milli + excluded.net_milli, \
         gross_milli = invoice_totals.gross_milli + excluded.gross_milli, \
         open_milli = invoice_totals.open_milli + excluded.open_milli"
    )
}

/// An invoice id in a trigger's SQL (`NEW.invoice_id`) with an extra condition (`""` for
/// none).
type InvoiceKey<'a> = (&'a str, &'a str);

/// The condition under which a pausable trigger follows invoice `id` (SQL): the invoice is
/// not paused by the transaction writing ([`pause_totals`]).
fn not_paused(id: &str) -> String {
    format!(" AND NOT EXISTS (SELECT 1 FROM invoice_totals_paused p WHERE p.invoice_id = {id})")
}

/// The pair of triggers `{name}_before` and `{name}_after` around `event` on `table`:
/// before the change the summary rows of the invoices `keys` name (an invoice id in SQL
/// with an extra condition, `""` for none) leave the totals; after it they enter again.
fn leave_and_enter(
    name: &str,
    event: &'static str,
    table: &'static str,
    keys: &[InvoiceKey],
) -> [Trigger; 2] {
    let trigger = |timing, suffix: &str, sign: &str| Trigger {
        name: format!("{name}_{suffix}"),
        timing,
        event,
        table,
        when: None,
        statements: keys
            .iter()
            .map(|(id, only_if)| add_totals(sign, id, &format!("{only_if}{}", not_paused(id))))
            .collect(),
    };
    [
        trigger(Timing::Before, "before", "-1"),
        trigger(Timing::After, "after", "1"),
    ]
}

/// Before a change the invoice's old summary row leaves the totals; after it the new one
/// enters. A paused invoice ([`pause_totals`]) is left alone by the update and payment
/// triggers; its creation and deletion are always followed.
fn totals_triggers() -> Vec<Trigger> {
    const INVOICE_COLUMNS: &str =
        "UPDATE OF deleted_at, currency, net_total, gross_total, status, reversed, credited_total, deducted_total";
    const PAYMENT_COLUMNS: &str = "UPDATE OF invoice_id, paid_total, cash_discount";
    let t = |name: &str, timing, event, table, statements| Trigger {
        name: name.to_string(),
        timing,
        event,
        table,
        when: None,
        statements,
    };
    let moved = " AND NEW.invoice_id <> OLD.invoice_id";
    let mut out = vec![
        t(
            "invoice_totals_insert",
            Timing::After,
            "INSERT",
            "invoices",
            vec![add_totals("1", "NEW.id", "")],
        ),
        t(
            "invoice_totals_delete",
            Timing::Before,
            "DELETE",
            "invoices",
            vec![add_totals("-1", "OLD.id", "")],
        ),
        t(
            "invoice_totals_update_before",
            Timing::Before,
            INVOICE_COLUMNS,
            "invoices",
            vec![add_totals("-1", "OLD.id", &not_paused("OLD.id"))],
        ),
        t(
            "invoice_totals_update_after",
            Timing::After,
            INVOICE_COLUMNS,
            "invoices",
            vec![add_totals("1", "NEW.id", &not_paused("NEW.id"))],
        ),
    ];
    let payments: [(&str, &'static str, &[InvoiceKey]); 3] = [
        ("insert", "INSERT", &[("NEW.invoice_id", "")]),
        ("delete", "DELETE", &[("OLD.invoice_id", "")]),
        (
            "update",
            PAYMENT_COLUMNS,
            &[("OLD.invoice_id", ""), ("NEW.invoice_id", moved)],
        ),
    ];
    for (what, event, keys) in payments {
        out.extend(leave_and_enter(
            &format!("invoice_totals_payment_{what}"),
            event,
            "invoice_payments",
            keys,
        ));
    }
    out
}

/// The PostgreSQL trigger functions of migration 0024 that the generated ones replace.
const LEGACY_POSTGRES_FUNCTIONS: [&str; 5] = [
    "list_counts_invoices()",
    "list_counts_rows()",
    "invoice_totals_invoices()",
    "invoice_totals_payments()",
    "invoice_totals_add(BIGINT, BIGINT)",
];

/// Every statement that (re)creates the derived objects on `engine`, in order.
pub fn definition(engine: Engine) -> Vec<String> {
    let triggers: Vec<Trigger> = list_count_triggers()
        .into_iter()
        .chain(totals_triggers())
        .collect();
    let mut out = Vec::new();
    // The triggers go first: the view they read is replaced under them.
    for t in &triggers {
        out.push(t.sql(engine).remove(0));
    }
    if engine == Engine::Postgres {
        for f in LEGACY_POSTGRES_FUNCTIONS {
            out.push(format!("DROP FUNCTION IF EXISTS {f}"));
        }
    }
    out.push("DROP VIEW IF EXISTS invoice_summary_rows".into());
    out.push(summary_view(engine));
    for t in &triggers {
        out.extend(t.sql(engine).into_iter().skip(1));
    }
    out
}

/// The statements that count and sum the kept figures again from the rows (and end any
/// pause left behind).
fn recount() -> Vec<String> {
    let mut out = vec![
        "DELETE FROM invoice_totals_paused".to_string(),
        "DELETE FROM invoice_totals".to_string(),
        "INSERT INTO invoice_totals (currency, live, net_milli, gross_milli, open_milli) \
         SELECT currency, COUNT(*), CAST(SUM(net_milli) AS BIGINT), CAST(SUM(gross_milli) AS BIGINT), \
         CAST(SUM(open_milli) AS BIGINT) FROM invoice_summary_rows GROUP BY currency"
            .to_string(),
    ];
    for (list, table, soft) in COUNTED {
        let live = if soft {
            " WHERE deleted_at IS NULL"
        } else {
            ""
        };
        out.push(format!(
            "UPDATE list_counts SET live = (SELECT COUNT(*) FROM {table}{live}) WHERE list = '{list}'"
        ));
    }
    out
}

/// Adds `sign` (`1` or `-1`) times the summary rows of every paused invoice to their
/// currencies' kept totals, one statement for all of them.
fn add_paused(sign: &str) -> String {
    format!(
        "INSERT INTO invoice_totals (currency, live, net_milli, gross_milli, open_milli) \
         SELECT currency, {sign} * COUNT(*), {sign} * CAST(SUM(net_milli) AS BIGINT), \
         {sign} * CAST(SUM(gross_milli) AS BIGINT), {sign} * CAST(SUM(open_milli) AS BIGINT) \
         FROM invoice_summary_rows WHERE id IN (SELECT invoice_id FROM invoice_totals_paused) \
         GROUP BY currency \
         ON CONFLICT (currency) DO UPDATE SET \
         live = invoice_totals.live + excluded.live, \
         net_milli = invoice_totals.net_milli + excluded.net_milli, \
         gross_milli = invoice_totals.gross_milli + excluded.gross_milli, \
         open_milli = invoice_totals.open_milli + excluded.open_milli"
    )
}

/// Pauses the kept totals' triggers for the invoices `ids` inside `tx` (a large write:
/// a bank statement import's bookings, issue 32): their summary rows leave the totals
/// now, in one statement, and the payment and invoice-update triggers leave them alone
/// until [`resume_totals`], which `tx` must call before it commits. Other transactions
/// never see the pause (its rows are uncommitted; on PostgreSQL a second pause of the
/// same invoice waits for this one's end). Ids of no live invoice are ignored.
/// Errors: the database's.
pub async fn pause_totals(tx: &mut crate::sql::Tx, ids: &[i64]) -> Result<(), sqlx::Error> {
    let list = serde_json::to_string(ids).map_err(|e| sqlx::Error::Encode(Box::new(e)))?;
    crate::sql::query(
        "INSERT INTO invoice_totals_paused (invoice_id) \
         SELECT DISTINCT CAST(value AS BIGINT) FROM json_each($1)",
    )
    .bind(list)
    .execute(&mut *tx)
    .await?;
    static LEAVE: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    crate::sql::query(LEAVE.get_or_init(|| add_paused("-1")))
        .execute(&mut *tx)
        .await?;
    Ok(())
}

/// Ends [`pause_totals`] in `tx`: the paused invoices' summary rows as they are now enter
/// the totals again, in one statement, and the triggers follow them as before.
/// Errors: the database's.
pub async fn resume_totals(tx: &mut crate::sql::Tx) -> Result<(), sqlx::Error> {
    static ENTER: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    crate::sql::query(ENTER.get_or_init(|| add_paused("1")))
        .execute(&mut *tx)
        .await?;
    crate::sql::query("DELETE FROM invoice_totals_paused")
        .execute(&mut *tx)
        .await?;
    Ok(())
}

/// The definition's fingerprint: hex SHA-256 of its statements.
fn fingerprint(statements: &[String]) -> String {
    let mut hash = Sha256::new();
    for s in statements {
        hash.update(s.as_bytes());
        hash.update([0]);
    }
    hex::encode(hash.finalize())
}

/// What marks the installed definition: SQLite keeps the view's text as written (with
/// this comment in it), PostgreSQL the view's comment.
fn marker(fingerprint: &str) -> String {
    format!("kontor derived {fingerprint}")
}

/// Replaces the derived objects when the stored ones are not [`definition`]'s, then
/// counts and sums the kept figures again; all in one transaction (SQLite `BEGIN
/// IMMEDIATE`; PostgreSQL under an advisory lock, so two servers starting at once do it
/// one after the other). Errors: the database's.
pub async fn install(pool: &crate::sql::Db) -> Result<(), sqlx::Error> {
    let engine = pool.engine();
    let mut statements = definition(engine);
    let mark = marker(&fingerprint(&statements));
    let mut tx = match engine {
        Engine::Sqlite => pool.begin_sqlite_with("BEGIN IMMEDIATE").await?,
        Engine::Postgres => {
            let mut tx = pool.begin().await?;
            crate::sql::query("SELECT pg_advisory_xact_lock(7416)")
                .execute(&mut tx)
                .await?;
            tx
        }
    };
    let stored: Option<String> = match engine {
        Engine::Sqlite => crate::sql::query_scalar(
            "SELECT sql FROM sqlite_master WHERE type = 'view' AND name = 'invoice_summary_rows'",
        )
        .fetch_optional(&mut tx)
        .await?,
        Engine::Postgres => crate::sql::query_scalar(
            "SELECT obj_description(to_regclass('invoice_summary_rows'), 'pg_class')",
        )
        .fetch_optional(&mut tx)
        .await?
        .flatten(),
    };
    if stored.is_some_and(|s| s.contains(&mark)) {
        return tx.rollback().await;
    }
    // The marker goes into the view: a comment in SQLite's stored text, PostgreSQL's
    // COMMENT ON VIEW.
    for s in statements.iter_mut() {
        if engine == Engine::Sqlite {
            if let Some(rest) = s.strip_prefix("CREATE VIEW invoice_summary_rows AS") {
                *s = format!("CREATE VIEW invoice_summary_rows AS /* {mark} */{rest}");
            }
        }
    }
    if engine == Engine::Postgres {
        statements.push(format!("COMMENT ON VIEW invoice_summary_rows IS '{mark}'"));
    }
    for s in statements.iter().chain(&recount()) {
        crate::sql::query(s).execute(&mut tx).await?;
    }
    tx.commit().await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_engines_get_the_same_triggers_from_one_definition() {
        let sqlite = definition(Engine::Sqlite);
        let pg = definition(Engine::Postgres);
        let names = |d: &[String], prefix: &str| -> Vec<String> {
            d.iter()
                .filter_map(|s| s.strip_prefix(prefix))
                .map(|s| s.split(' ').next().unwrap_or("").to_string())
                .collect()
        };
        let sqlite_triggers = names(&sqlite, "CREATE TRIGGER ");
        assert_eq!(sqlite_triggers.len(), 17);
        assert_eq!(sqlite_triggers, names(&pg, "CREATE TRIGGER "));
        let view = sqlite
            .iter()
            .find(|s| s.starts_with("CREATE VIEW"))
            .unwrap();
        assert!(view.contains(crate::sql::rules::collectible()), "{view}");
        assert!(!view.contains("kontor_"), "plain SQLite: {view}");
        let view = pg.iter().find(|s| s.starts_with("CREATE VIEW")).unwrap();
        assert!(
            view.contains("GREATEST(trunc(i.gross_total * 1000)::BIGINT"),
            "{view}"
        );
    }
}
