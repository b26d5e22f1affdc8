//! Issue 15 § 4, the audit trail against a real server and the real binary: changes to an
//! invoice (with its positions, payments, reminders), a company and the settings are
//! events with the user, the action and each changed field's old and new value; a
//! refused request writes none; `GET /audit_events` filters by record, user and days and
//! is for admins only; rows cannot be updated or deleted; `kontor-server audit verify`
//! passes on the real trail and names the event after a row is changed or deleted behind
//! the triggers' back.

mod common;

use common::{people, TestServer};
use serde_json::{json, Value};

fn change<'a>(event: &'a Value, field: &str) -> Option<&'a Value> {
    event["changes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["field"] == field)
}

async fn events(s: &TestServer, query: &str) -> Vec<Value> {
    let r = s.get(&format!("/audit_events?{query}")).await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.body.as_array().unwrap().clone()
}

fn verify_fails(s: &TestServer) -> String {
    let out = s.command().args(["audit", "verify"]).output().unwrap();
    assert!(
        !out.status.success(),
        "verify passed on a tampered trail: {}",
        String::from_utf8_lossy(&out.stdout)
    );
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[tokio::test]
async fn changes_are_recorded_with_who_what_and_old_and_new_values() {
    let s = common::start().await;
    let customer = s.customer("ACME GmbH").await;
    let invoice = s.invoice(customer, json!({"status": "draft"})).await.body;
    let id = invoice["id"].as_i64().unwrap();
    let me = s.get("/users/me").await.body["id"].as_i64().unwrap();

    let mut edited = common::invoice_body(customer);
    edited["status"] = json!("draft");
    edited["title"] = json!("Website relaunch");
    let r = s.put(&format!("/invoices/{id}"), edited).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let r = s.finalize(id).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let r = s
        .post(
            "/invoices/payments",
            json!({"invoice_id": id, "date": "2026-11-20", "paid_total": 100}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);

    let trail = events(&s, &format!("record_type=invoice&record_id={id}")).await;
    // Newest first: the payment, the finalization, the edit, the creation.
    let created = trail
        .iter()
        .find(|e| e["record_type"] == "invoice" && e["action"] == "create")
        .expect("the creation");
    assert_eq!(created["user_id"], me);
    assert_eq!(created["user_name"], "Admin Kontor");
    assert_eq!(change(created, "title").unwrap()["new"], "Website work");
    let title = trail
        .iter()
        .find(|e| e["action"] == "update" && change(e, "title").is_some())
        .expect("the title change");
    assert_eq!(change(title, "title").unwrap()["old"], "Website work");
    assert_eq!(change(title, "title").unwrap()["new"], "Website relaunch");
    let finalized = trail
        .iter()
        .find(|e| change(e, "status").is_some_and(|c| c["old"] == "draft" && c["new"] == "created"))
        .expect("the status change");
    assert_eq!(finalized["record_id"], id);
    assert!(
        trail.iter().any(|e| change(e, "identifier")
            .is_some_and(|c| c["new"].as_str().is_some_and(|n| n.starts_with('R')))),
        "the number given at finalization"
    );
    let payment = trail
        .iter()
        .find(|e| e["record_type"] == "invoice_payment")
        .expect("the payment");
    assert_eq!(payment["parent_type"], "invoice");
    assert_eq!(payment["parent_id"], id);
    assert_eq!(payment["action"], "create");
    assert!(trail
        .iter()
        .any(|e| e["record_type"] == "invoice_position" && e["parent_id"] == id));
    for pair in trail.windows(2) {
        assert!(
            pair[0]["id"].as_i64() > pair[1]["id"].as_i64(),
            "newest first"
        );
    }
    // Sealed under the installation's audit key: `<fingerprint>:<HMAC-SHA256 hex>`.
    assert!(trail.iter().all(|e| e["hash"]
        .as_str()
        .is_some_and(|h| h.len() == 8 + 1 + 64 && h.as_bytes()[8] == b':')));
    assert!(trail.iter().all(|e| change(e, "updated_at").is_none()));

    // A company and the settings.
    s.put(
        &format!("/companies/{customer}"),
        json!({"name": "ACME AG"}),
    )
    .await;
    let company = events(&s, &format!("record_type=company&record_id={customer}")).await;
    let renamed = change(&company[0], "name").unwrap();
    assert_eq!(
        (renamed["old"].as_str(), renamed["new"].as_str()),
        (Some("ACME GmbH"), Some("ACME AG"))
    );
    let r = s.put("/account", json!({"phone": "+49 30 1234567"})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let settings = events(&s, "record_type=account_settings").await;
    assert_eq!(
        change(&settings[0], "phone").unwrap()["new"],
        "+49 30 1234567"
    );

    // A refused request writes no event.
    let before = s
        .get("/audit_events?per_page=1")
        .await
        .header("x-total")
        .to_string();
    let refused = s
        .put(&format!("/companies/{customer}"), json!({"name": ""}))
        .await;
    assert_eq!(refused.status, 422);
    let after = s
        .get("/audit_events?per_page=1")
        .await
        .header("x-total")
        .to_string();
    assert_eq!(before, after);
}

#[tokio::test]
async fn the_list_filters_and_is_for_admins_only() {
    let s = common::start().await;
    let (staff_id, staff_key) = people::user_with_role(&s, "sam@kontor.test", "staff").await;
    let r = people::send_as(
        &s,
        Some(&staff_key),
        reqwest::Method::POST,
        "/companies",
        Some(json!({"name": "By Sam GmbH"})),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    s.post("/companies", json!({"name": "By Admin GmbH"})).await;

    let sams = events(&s, &format!("user_id={staff_id}")).await;
    assert!(!sams.is_empty());
    assert!(sams.iter().all(|e| e["user_id"] == staff_id));
    assert!(sams
        .iter()
        .any(|e| change(e, "name").is_some_and(|c| c["new"] == "By Sam GmbH")));
    let today = chrono::Utc::now().date_naive();
    assert!(!events(&s, &format!("from={today}&to={today}"))
        .await
        .is_empty());
    assert!(events(&s, "to=2000-01-01").await.is_empty());
    assert_eq!(events(&s, "record_type=company&per_page=1").await.len(), 1);

    let r = s.get("/audit_events?record_type=bogus").await;
    assert_eq!(r.status, 422);
    assert!(r.body["errors"]["record_type"].is_array());
    let r = s.get("/audit_events?record_id=x").await;
    assert_eq!(r.status, 400);
    let r = people::send_as(
        &s,
        Some(&staff_key),
        reqwest::Method::GET,
        "/audit_events",
        None,
    )
    .await;
    assert_eq!(r.status, 403);
}

#[tokio::test]
async fn the_trail_is_append_only_and_verified() {
    let mut s = common::start().await;
    // SQLite's triggers belong to the schema, PostgreSQL's to their table.
    let on_postgres = s.database.is_some();
    let drop_trigger = move |name: &str| {
        if on_postgres {
            format!("DROP TRIGGER IF EXISTS {name} ON audit_events")
        } else {
            format!("DROP TRIGGER IF EXISTS {name}")
        }
    };
    for n in 0..5 {
        s.post("/companies", json!({"name": format!("Firma {n} GmbH")}))
            .await;
    }
    let out = s.cli(&["audit", "verify"]);
    assert!(out.contains("intact"), "{out}");

    // The database refuses to change or delete events.
    let pool = s.db().await;
    for statement in [
        "UPDATE audit_events SET changes = '[]' WHERE id = 2",
        "DELETE FROM audit_events WHERE id = 2",
    ] {
        let e = kontor_server::sql::query(statement)
            .execute(&pool)
            .await
            .unwrap_err();
        assert!(e.to_string().contains("append-only"), "{e}");
    }
    s.stop().await;

    // Behind the triggers' back: a changed event is named …
    let target: i64 = kontor_server::sql::query_scalar(
        "SELECT id FROM audit_events WHERE changes LIKE '%Firma 2 GmbH%' AND record_type = 'company'",
    )
    .fetch_one(&pool)
    .await
    .unwrap();
    kontor_server::sql::query(&drop_trigger("audit_events_seal_only"))
        .execute(&pool)
        .await
        .unwrap();
    kontor_server::sql::query(
        "UPDATE audit_events SET changes = replace(changes, 'Firma 2', 'Firma X') WHERE id = $1",
    )
    .bind(target)
    .execute(&pool)
    .await
    .unwrap();
    pool.close().await;
    let err = verify_fails(&s);
    assert!(
        err.contains(&format!("audit event {target} was changed")),
        "{err}"
    );

    // … and so is a deleted one (after the first damage is undone).
    let pool = s.db().await;
    kontor_server::sql::query(&drop_trigger("audit_events_seal_only"))
        .execute(&pool)
        .await
        .unwrap();
    kontor_server::sql::query(
        "UPDATE audit_events SET changes = replace(changes, 'Firma X', 'Firma 2') WHERE id = $1",
    )
    .bind(target)
    .execute(&pool)
    .await
    .unwrap();
    pool.close().await;
    s.cli(&["audit", "verify"]);
    let pool = s.db().await;
    kontor_server::sql::query(&drop_trigger("audit_events_no_delete"))
        .execute(&pool)
        .await
        .unwrap();
    kontor_server::sql::query("DELETE FROM audit_events WHERE id = 2")
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;
    let err = verify_fails(&s);
    assert!(err.contains("audit event 3"), "{err}");
}

/// A write that fires the audit triggers and is then rolled back (a refused request, a
/// killed process) leaves no hole in the event ids, which `audit verify` would read as a
/// deleted event: on PostgreSQL the id is not drawn from a sequence (issue 30).
#[tokio::test]
async fn a_rolled_back_write_leaves_no_gap_in_the_trail() {
    let s = common::start().await;
    let first = s.post("/companies", json!({"name": "Hafen GmbH"})).await;
    assert_eq!(first.status, 200, "{:?}", first.body);
    let pool = s.db().await;
    let before: i64 = kontor_server::sql::query_scalar("SELECT COUNT(*) FROM audit_events")
        .fetch_one(&pool)
        .await
        .unwrap();
    let mut tx = kontor_server::store::db::begin_write(&pool).await.unwrap();
    kontor_server::sql::query("UPDATE companies SET name = 'Kurz GmbH' WHERE id = $1")
        .bind(first.body["id"].as_i64().unwrap())
        .execute(&mut tx)
        .await
        .unwrap();
    let inside: i64 = kontor_server::sql::query_scalar("SELECT COUNT(*) FROM audit_events")
        .fetch_one(&mut tx)
        .await
        .unwrap();
    assert_eq!(
        inside,
        before + 1,
        "the update was recorded inside the transaction"
    );
    tx.rollback().await.unwrap();
    pool.close().await;
    let second = s.post("/companies", json!({"name": "Werft AG"})).await;
    assert_eq!(second.status, 200, "{:?}", second.body);
    let out = s.cli(&["audit", "verify"]);
    assert!(out.contains("intact"), "{out}");
}

/// A write transaction seals its own events before it commits (issue 35: one commit per
/// write, not a second one for the seal): right after the commit, before anything else
/// runs, none of its events is unsealed, and the chain verifies. A transaction that rolls
/// back seals nothing of its own.
#[tokio::test]
async fn a_write_seals_its_own_events_inside_its_transaction() {
    let s = common::start().await;
    let first = s.post("/companies", json!({"name": "Hafen GmbH"})).await;
    assert_eq!(first.status, 200, "{:?}", first.body);
    let id = first.body["id"].as_i64().unwrap();
    let pool = s.db().await;
    let unsealed = || async {
        kontor_server::sql::query_scalar::<i64>(
            "SELECT COUNT(*) FROM audit_events WHERE hash IS NULL",
        )
        .fetch_one(&pool)
        .await
        .unwrap()
    };
    assert_eq!(unsealed().await, 0, "the request left nothing unsealed");
    if s.database.is_none() {
        // The question every write asks reads an index (the unique seals, where the
        // unsealed are the NULLs), not the whole trail.
        let plan: Vec<(i64, i64, i64, String)> = kontor_server::sql::query_as(
            "EXPLAIN QUERY PLAN SELECT id FROM audit_events WHERE hash IS NULL LIMIT 1",
        )
        .fetch_all(&pool)
        .await
        .unwrap();
        assert!(
            plan.iter()
                .all(|p| p.3.starts_with("SEARCH audit_events USING")),
            "{plan:?}"
        );
    }
    for name in ["Kai GmbH", "Dock AG"] {
        let mut tx = kontor_server::store::db::begin_write(&pool).await.unwrap();
        kontor_server::sql::query("UPDATE companies SET name = $1 WHERE id = $2")
            .bind(name)
            .bind(id)
            .execute(&mut tx)
            .await
            .unwrap();
        let inside: i64 = kontor_server::sql::query_scalar(
            "SELECT COUNT(*) FROM audit_events WHERE hash IS NULL",
        )
        .fetch_one(&mut tx)
        .await
        .unwrap();
        assert!(inside >= 1, "the update's event is written unsealed first");
        tx.commit().await.unwrap();
        assert_eq!(unsealed().await, 0, "{name}: sealed by its own commit");
    }
    let mut tx = kontor_server::store::db::begin_write(&pool).await.unwrap();
    kontor_server::sql::query("UPDATE companies SET name = 'Weg GmbH' WHERE id = $1")
        .bind(id)
        .execute(&mut tx)
        .await
        .unwrap();
    tx.rollback().await.unwrap();
    assert_eq!(unsealed().await, 0);
    let names: i64 = kontor_server::sql::query_scalar(
        "SELECT COUNT(*) FROM audit_events WHERE record_type = 'company' AND record_id = $1",
    )
    .bind(id)
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!(
        names, 3,
        "created and renamed twice; the rolled-back rename left nothing"
    );
    pool.close().await;
    let out = s.cli(&["audit", "verify"]);
    assert!(out.contains("intact"), "{out}");
}

/// Rewrites every sealed event's `prev_hash` and `hash` with `seal` (what someone with the
/// database file but without the audit key can do), with the guard dropped.
async fn reseal(
    s: &TestServer,
    seal: impl Fn(&str, &kontor_server::proof::audit::StoredEvent) -> String,
) {
    // Opened without the installation's keys, as a file tool would.
    let pool = match &s.database {
        Some(url) => kontor_server::store::db::open_postgres(url).await.unwrap(),
        None => kontor_server::store::db::open_file(&s.dir.path().join("kontor.db"))
            .await
            .unwrap(),
    };
    let on_postgres = pool.engine() == kontor_server::sql::Engine::Postgres;
    let drop_guard = if on_postgres {
        "DROP TRIGGER IF EXISTS audit_events_seal_only ON audit_events"
    } else {
        "DROP TRIGGER IF EXISTS audit_events_seal_only"
    };
    kontor_server::sql::query(drop_guard)
        .execute(&pool)
        .await
        .unwrap();
    let events: Vec<kontor_server::proof::audit::StoredEvent> = kontor_server::sql::query_as(
        "SELECT id, at, user_id, key_id, action, record_type, record_id, parent_type, parent_id, changes, prev_hash, hash \
         FROM audit_events ORDER BY id",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    let mut prev = kontor_server::proof::audit::GENESIS.to_string();
    for e in &events {
        let hash = seal(&prev, e);
        kontor_server::sql::query(
            "UPDATE audit_events SET prev_hash = $1, hash = $2 WHERE id = $3",
        )
        .bind(&prev)
        .bind(&hash)
        .bind(e.id)
        .execute(&pool)
        .await
        .unwrap();
        prev = hash;
    }
    pool.close().await;
}

#[tokio::test]
async fn a_chain_recomputed_without_the_key_fails_verify_and_a_kept_head_finds_truncation() {
    let mut s = common::start().await;
    let customer = s.customer("Kranzler GmbH").await;
    let invoice = s.invoice(customer, json!({})).await;
    assert_eq!(invoice.status, 200, "{}", invoice.body);
    let id = invoice.body["id"].as_i64().unwrap();
    let out = s.cli(&["audit", "verify"]);
    let head = out.rsplit("head hash ").next().unwrap().trim().to_string();
    assert!(head.contains(':'), "a keyed head: {out}");
    s.post("/companies", json!({"name": "Später GmbH"})).await;
    s.stop().await;

    // The invoice's total is changed in the database file and the whole chain recomputed
    // as plain SHA-256: verify names the first event it can no longer trust.
    let pool = s.db().await;
    kontor_server::sql::query("UPDATE invoices SET gross_total = '1.00' WHERE id = $1")
        .bind(id)
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;
    reseal(&s, kontor_server::proof::audit::legacy_hash).await;
    let err = verify_fails(&s);
    assert!(
        err.contains("audit event 1 has a seal without a key"),
        "{err}"
    );
    // Recomputed with a key of the attacker's own: not the installation's key.
    let forged = kontor_server::proof::audit_key::Keyring::generate(None);
    reseal(&s, |prev, e| {
        kontor_server::proof::audit::content_hash(&forged, prev, e)
    })
    .await;
    let err = verify_fails(&s);
    assert!(err.contains("is sealed with audit key"), "{err}");

    // With the real key the chain checks again, and the kept head is in it …
    let keys = kontor_server::proof::audit_key::load(&s.dir.path().join("audit.key"))
        .unwrap()
        .unwrap();
    reseal(&s, |prev, e| {
        kontor_server::proof::audit::content_hash(&keys, prev, e)
    })
    .await;
    let out = s.cli(&["audit", "verify", "--head", &head]);
    assert!(out.contains("is event"), "{out}");
    // … but not once the events from it on were cut off: the shorter chain is whole,
    // only the kept head tells.
    let pool = s.db().await;
    let on_postgres = pool.engine() == kontor_server::sql::Engine::Postgres;
    kontor_server::sql::query(if on_postgres {
        "DROP TRIGGER IF EXISTS audit_events_no_delete ON audit_events"
    } else {
        "DROP TRIGGER IF EXISTS audit_events_no_delete"
    })
    .execute(&pool)
    .await
    .unwrap();
    kontor_server::sql::query(
        "DELETE FROM audit_events WHERE id >= (SELECT id FROM audit_events WHERE hash = $1)",
    )
    .bind(&head)
    .execute(&pool)
    .await
    .unwrap();
    pool.close().await;
    let out = s
        .command()
        .args(["audit", "verify", "--head", &head])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("is not in the audit trail"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
