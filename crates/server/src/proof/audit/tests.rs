//! Unit tests of `audit` (kept apart so the module itself stays short).

use super::*;

fn event(id: i64, changes: &str) -> StoredEvent {
    StoredEvent {
        id,
        at: kontor_model::timestamp::parse("2026-11-24T10:00:00Z").unwrap(),
        user_id: Some(1),
        key_id: Some(2),
        action: "update".into(),
        record_type: "invoice".into(),
        record_id: 7,
        parent_type: None,
        parent_id: None,
        changes: changes.into(),
        prev_hash: None,
        hash: None,
    }
}

#[test]
fn the_seal_covers_the_link_every_field_and_the_key() {
    let keys = Keyring::generate(None);
    let a = event(1, r#"[{"field":"title","old":"A","new":"B"}]"#);
    let h = content_hash(&keys, GENESIS, &a);
    assert_eq!(h.len(), 8 + 1 + 64);
    assert!(h.starts_with(&format!("{}:", keys.current())));
    assert_eq!(h, content_hash(&keys, GENESIS, &a.clone()));
    assert_ne!(h, content_hash(&keys, &"1".repeat(64), &a));
    let mut b = a.clone();
    b.changes = r#"[{"field":"title","old":"A","new":"C"}]"#.into();
    assert_ne!(h, content_hash(&keys, GENESIS, &b));
    let mut c = a.clone();
    c.user_id = Some(3);
    assert_ne!(h, content_hash(&keys, GENESIS, &c));
    // Another key gives another seal: without the key it cannot be recomputed.
    assert_ne!(h, content_hash(&Keyring::generate(None), GENESIS, &a));
    assert_ne!(h[9..], legacy_hash(GENESIS, &a));
}

#[test]
fn triggers_leave_out_the_time_and_hide_secrets() {
    let users = AUDITED.iter().find(|a| a.table == "users").unwrap();
    let cols: Vec<String> = ["id", "email", "password_hash", "updated_at"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let sql = triggers(users, &cols).join("\n");
    assert!(sql.contains("'(secret)'"), "{sql}");
    assert!(!sql.contains("'updated_at'"), "{sql}");
    assert!(sql.contains("'email'"), "{sql}");
}

#[test]
fn seals_of_any_number_are_one_parameter() {
    for engine in [crate::sql::Engine::Sqlite, crate::sql::Engine::Postgres] {
        let text = SEAL.get(engine);
        assert!(text.contains("$1") && !text.contains("$2"), "{text}");
        assert!(text.contains("WHERE audit_events.id = seal.id"), "{text}");
    }
}
