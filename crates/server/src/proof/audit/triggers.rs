//! The audit triggers, generated at every start from the live schema: SQLite triggers
//! and one PL/pgSQL function per audited table, writing the same change JSON, secrets
//! masked; and the guards that keep `audit_events` append-only.

/// An audited table: its record type and, for a part of another record, the parent's type
/// and the column holding the parent's id.
pub(super) struct Audited {
    pub(super) table: &'static str,
    pub(super) record_type: &'static str,
    pub(super) parent: Option<(&'static str, &'static str)>,
}

pub(super) const AUDITED: &[Audited] = &[
    Audited {
        table: "bank_statements",
        record_type: "bank_statement",
        parent: None,
    },
    Audited {
        table: "bank_transactions",
        record_type: "bank_transaction",
        parent: None,
    },
    Audited {
        table: "invoices",
        record_type: "invoice",
        parent: None,
    },
    Audited {
        table: "invoice_items",
        record_type: "invoice_position",
        parent: Some(("invoice", "invoice_id")),
    },
    Audited {
        table: "invoice_payments",
        record_type: "invoice_payment",
        parent: Some(("invoice", "invoice_id")),
    },
    Audited {
        table: "invoice_reminders",
        record_type: "invoice_reminder",
        parent: Some(("invoice", "invoice_id")),
    },
    Audited {
        table: "offers",
        record_type: "offer",
        parent: None,
    },
    Audited {
        table: "offer_items",
        record_type: "offer_position",
        parent: Some(("offer", "offer_id")),
    },
    Audited {
        table: "offer_attachments",
        record_type: "offer_attachment",
        parent: Some(("offer", "offer_id")),
    },
    Audited {
        table: "offer_customer_approvals",
        record_type: "offer_customer_approval",
        parent: Some(("offer", "offer_id")),
    },
    Audited {
        table: "offer_confirmations",
        record_type: "offer_confirmation",
        parent: Some(("offer", "offer_id")),
    },
    Audited {
        table: "purchases",
        record_type: "purchase",
        parent: None,
    },
    Audited {
        table: "purchase_items",
        record_type: "purchase_position",
        parent: Some(("purchase", "purchase_id")),
    },
    Audited {
        table: "purchase_payments",
        record_type: "purchase_payment",
        parent: Some(("purchase", "purchase_id")),
    },
    Audited {
        table: "companies",
        record_type: "company",
        parent: None,
    },
    Audited {
        table: "articles",
        record_type: "article",
        parent: None,
    },
    Audited {
        table: "text_snippets",
        record_type: "text_snippet",
        parent: None,
    },
    Audited {
        table: "recurring_invoices",
        record_type: "recurring_invoice",
        parent: None,
    },
    Audited {
        table: "account_settings",
        record_type: "account_settings",
        parent: None,
    },
    Audited {
        table: "users",
        record_type: "user",
        parent: None,
    },
];

/// Columns never recorded: the event's own time says when.
pub(super) const UNTRACKED: &[&str] = &["updated_at"];

/// Columns whose values are secrets: the trail says that they changed, not to what.
pub(super) const SECRETS: &[(&str, &str)] = &[
    ("account_settings", "smtp_password"),
    ("users", "password_hash"),
    ("offer_customer_approvals", "token_hash"),
    ("offer_customer_approvals", "token_nonce"),
];

pub(super) fn quoted(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// The trigger statements of one audited table with `columns`.
pub(super) fn triggers(a: &Audited, columns: &[String]) -> Vec<String> {
    let tracked: Vec<&String> = columns
        .iter()
        .filter(|c| !UNTRACKED.contains(&c.as_str()))
        .collect();
    let value = |row: &str, c: &str| {
        if SECRETS.contains(&(a.table, c)) {
            format!(
                "CASE WHEN {row}.{} IS NULL THEN NULL ELSE '(secret)' END",
                quoted(c)
            )
        } else {
            format!("{row}.{}", quoted(c))
        }
    };
    let changes = |action: &str| {
        let terms: Vec<String> = tracked
            .iter()
            .map(|c| {
                let q = quoted(c);
                let (old, new, when) = match action {
                    "create" => ("NULL".to_string(), value("NEW", c), format!("NEW.{q} IS NOT NULL")),
                    "delete" => (value("OLD", c), "NULL".to_string(), format!("OLD.{q} IS NOT NULL")),
                    _ => (value("OLD", c), value("NEW", c), format!("OLD.{q} IS NOT NEW.{q}")),
                };
                format!(
                    "SELECT json_object('field', '{c}', 'old', {old}, 'new', {new}) AS c WHERE {when}"
                )
            })
            .collect();
        format!(
            "(SELECT coalesce(json_group_array(json(c)), '[]') FROM ({}))",
            terms.join(" UNION ALL ")
        )
    };
    let mut out = Vec::new();
    for (action, event, row) in [
        ("create", "INSERT", "NEW"),
        ("update", "UPDATE", "NEW"),
        ("delete", "DELETE", "OLD"),
    ] {
        let name = format!("audit_{}_{action}", a.table);
        let when = if action == "update" {
            let any: Vec<String> = tracked
                .iter()
                .map(|c| format!("OLD.{q} IS NOT NEW.{q}", q = quoted(c)))
                .collect();
            format!(" WHEN {}", any.join(" OR "))
        } else {
            String::new()
        };
        let (parent_type, parent_id) = match a.parent {
            Some((t, col)) => (format!("'{t}'"), format!("{row}.{}", quoted(col))),
            None => ("NULL".into(), "NULL".into()),
        };
        out.push(format!("DROP TRIGGER IF EXISTS {name}"));
        out.push(format!(
            "CREATE TRIGGER {name} AFTER {event} ON {table}{when} BEGIN \
             INSERT INTO audit_events (at, user_id, key_id, action, record_type, record_id, parent_type, parent_id, changes) \
             SELECT strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), x.user_id, x.key_id, '{action}', '{rt}', {row}.rowid, {parent_type}, {parent_id}, {changes} \
             FROM audit_actor x WHERE x.id = 1; END",
            table = quoted(a.table),
            rt = a.record_type,
            changes = changes(action),
        ));
    }
    out
}

/// The guards of `audit_events` (as in migration 0023): no DELETE, and UPDATE only to seal.
pub(super) const GUARDS: &[&str] = &[
    "DROP TRIGGER IF EXISTS audit_events_no_delete",
    "CREATE TRIGGER audit_events_no_delete BEFORE DELETE ON audit_events \
     BEGIN SELECT RAISE(ABORT, 'audit events are append-only'); END",
    "DROP TRIGGER IF EXISTS audit_events_seal_only",
    "CREATE TRIGGER audit_events_seal_only BEFORE UPDATE ON audit_events \
     WHEN OLD.hash IS NOT NULL OR NEW.hash IS NULL OR NEW.prev_hash IS NULL \
     OR NEW.id IS NOT OLD.id OR NEW.at IS NOT OLD.at OR NEW.user_id IS NOT OLD.user_id \
     OR NEW.key_id IS NOT OLD.key_id OR NEW.action IS NOT OLD.action \
     OR NEW.record_type IS NOT OLD.record_type OR NEW.record_id IS NOT OLD.record_id \
     OR NEW.parent_type IS NOT OLD.parent_type OR NEW.parent_id IS NOT OLD.parent_id \
     OR NEW.changes IS NOT OLD.changes \
     BEGIN SELECT RAISE(ABORT, 'audit events are append-only'); END",
];

/// (Re)creates the audit triggers of every audited table from the live schema, and the
/// guards of `audit_events` (a dropped guard comes back at the next start), in one
/// transaction. Run at every start after the migrations. Errors: the database's.
pub async fn install(pool: &crate::sql::Db) -> Result<(), sqlx::Error> {
    if pool.engine() == crate::sql::Engine::Postgres {
        return install_postgres(pool).await;
    }
    let mut tx = pool.begin_sqlite_with("BEGIN IMMEDIATE").await?;
    for statement in GUARDS {
        crate::sql::query(statement).execute(&mut tx).await?;
    }
    for a in AUDITED {
        let columns: Vec<String> =
            crate::sql::query_scalar("SELECT name FROM pragma_table_info($1) ORDER BY cid")
                .bind(a.table)
                .fetch_all(&mut tx)
                .await?;
        for statement in triggers(a, &columns) {
            crate::sql::query(&statement).execute(&mut tx).await?;
        }
    }
    tx.commit().await
}

/// A PostgreSQL value of `column` (of `data_type`, from `information_schema`) as the JSON
/// text the SQLite triggers write for the same column: decimals, dates and timestamps as
/// their stored text (`"119.00"`, `"2026-11-24"`, `"2026-11-24T10:00:00Z"`), flags as
/// 0/1, NULL as `null`; secrets as `"(secret)"`.
pub(super) fn postgres_json(a: &Audited, row: &str, column: &str, data_type: &str) -> String {
    let v = format!("{row}.{}", quoted(column));
    if SECRETS.contains(&(a.table, column)) {
        return format!("CASE WHEN {v} IS NULL THEN 'null' ELSE '\"(secret)\"' END");
    }
    let json = match data_type {
        "boolean" => format!("to_json({v}::int)::text"),
        "bigint" | "integer" => format!("to_json({v})::text"),
        "timestamp with time zone" => format!(
            "to_json(to_char({v} AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'))::text"
        ),
        _ => format!("to_json({v}::text)::text"),
    };
    format!("coalesce({json}, 'null')")
}

/// The PL/pgSQL trigger function and triggers of one audited table with `columns`
/// (name, data type): the same events, with the same JSON text, as [`triggers`] writes
/// on SQLite. Event ids are gap-free as on SQLite (`verify` reads a gap as a deleted
/// event): not the identity sequence, whose values a rolled-back or killed transaction
/// burns, but `max(id) + 1` after taking the `audit_actor` row lock, which every write
/// transaction holds from its first statement (`set_actor`) to its commit.
pub(super) fn postgres_triggers(a: &Audited, columns: &[(String, String)]) -> Vec<String> {
    let tracked: Vec<&(String, String)> = columns
        .iter()
        .filter(|(c, _)| !UNTRACKED.contains(&c.as_str()))
        .collect();
    let term = |action: &str, (c, ty): &(String, String)| {
        let q = quoted(c);
        let (old, new, when) = match action {
            "create" => (
                "'null'".to_string(),
                postgres_json(a, "NEW", c, ty),
                format!("NEW.{q} IS NOT NULL"),
            ),
            "delete" => (
                postgres_json(a, "OLD", c, ty),
                "'null'".to_string(),
                format!("OLD.{q} IS NOT NULL"),
            ),
            _ => (
                postgres_json(a, "OLD", c, ty),
                postgres_json(a, "NEW", c, ty),
                format!("OLD.{q} IS DISTINCT FROM NEW.{q}"),
            ),
        };
        format!(
            "CASE WHEN {when} THEN '{{\"field\":' || to_json('{c}'::text)::text || ',\"old\":' || {old} || ',\"new\":' || {new} || '}}' END"
        )
    };
    let changes = |action: &str| {
        let terms: Vec<String> = tracked.iter().map(|c| term(action, c)).collect();
        format!(
            "'[' || coalesce(array_to_string(ARRAY[{}], ','), '') || ']'",
            terms.join(", ")
        )
    };
    let (parent_type, parent_new, parent_old) = match a.parent {
        Some((t, col)) => (
            format!("'{t}'"),
            format!("NEW.{}", quoted(col)),
            format!("OLD.{}", quoted(col)),
        ),
        None => ("NULL".into(), "NULL".into(), "NULL".into()),
    };
    let function = format!("audit_{}", a.table);
    let insert = |action: &str, row: &str, parent: &str| {
        format!(
            "INSERT INTO audit_events (id, at, user_id, key_id, action, record_type, record_id, parent_type, parent_id, changes) \
             SELECT (SELECT coalesce(max(e.id), 0) + 1 FROM audit_events e), date_trunc('second', clock_timestamp()), x.user_id, x.key_id, '{action}', '{rt}', {row}.id, {parent_type}, {parent}, changes \
             FROM audit_actor x WHERE x.id = 1;",
            rt = a.record_type,
        )
    };
    let body = format!(
        "DECLARE changes TEXT; BEGIN \
         PERFORM 1 FROM audit_actor WHERE id = 1 FOR UPDATE; \
         IF TG_OP = 'INSERT' THEN changes := {create}; {insert_create} \
         ELSIF TG_OP = 'UPDATE' THEN changes := {update}; \
           IF changes <> '[]' THEN {insert_update} END IF; \
         ELSE changes := {delete}; {insert_delete} END IF; \
         RETURN NULL; END",
        create = changes("create"),
        update = changes("update"),
        delete = changes("delete"),
        insert_create = insert("create", "NEW", &parent_new),
        insert_update = insert("update", "NEW", &parent_new),
        insert_delete = insert("delete", "OLD", &parent_old),
    );
    vec![
        format!("CREATE OR REPLACE FUNCTION {function}() RETURNS trigger LANGUAGE plpgsql AS $audit$ {body} $audit$"),
        format!("DROP TRIGGER IF EXISTS {function} ON {}", quoted(a.table)),
        format!(
            "CREATE TRIGGER {function} AFTER INSERT OR UPDATE OR DELETE ON {} FOR EACH ROW EXECUTE FUNCTION {function}()",
            quoted(a.table)
        ),
    ]
}

/// [`install`] on PostgreSQL: one PL/pgSQL trigger function per audited table, generated
/// from `information_schema`; the guards of `audit_events` come with the migration.
/// An advisory lock keeps two processes starting at once from replacing the same
/// functions concurrently. Errors: the database's.
pub(super) async fn install_postgres(pool: &crate::sql::Db) -> Result<(), sqlx::Error> {
    let mut tx = pool.begin().await?;
    crate::sql::query("SELECT pg_advisory_xact_lock(7415)")
        .execute(&mut tx)
        .await?;
    for a in AUDITED {
        let columns: Vec<(String, String)> = crate::sql::query_as(
            "SELECT column_name::text, data_type::text FROM information_schema.columns \
             WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position",
        )
        .bind(a.table)
        .fetch_all(&mut tx)
        .await?;
        for statement in postgres_triggers(a, &columns) {
            crate::sql::query(&statement).execute(&mut tx).await?;
        }
    }
    tx.commit().await
}
