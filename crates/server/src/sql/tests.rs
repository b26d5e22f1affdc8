//! Unit tests of `sql` (kept apart so the module itself stays short).

use super::*;

#[test]
fn placeholders_are_numbered_outside_quotes_and_comments() {
    assert_eq!(numbered("SELECT 1"), "SELECT 1");
    assert_eq!(
        numbered("UPDATE t SET a = ?, b = ? WHERE id = ?"),
        "UPDATE t SET a = $1, b = $2 WHERE id = $3"
    );
    assert_eq!(
        numbered("SELECT * FROM t WHERE ?1 IS NULL OR id = ?1 AND x = ?"),
        "SELECT * FROM t WHERE $1 IS NULL OR id = $1 AND x = $2"
    );
    assert_eq!(
        numbered("SELECT '?', \"a?\" -- why?\n, ? FROM t WHERE s = 'it''s ?' AND v = ?"),
        "SELECT '?', \"a?\" -- why?\n, $1 FROM t WHERE s = 'it''s ?' AND v = $2"
    );
}

#[test]
fn milli_is_written_out_for_each_engine() {
    let sql = "SELECT SUM(kontor_milli(i.gross_total)) - kontor_milli(?) FROM i";
    assert_eq!(
        expanded(sql, Engine::Postgres),
        "SELECT SUM(trunc(CAST(i.gross_total AS NUMERIC) * 1000)::BIGINT) - \
         trunc(CAST(? AS NUMERIC) * 1000)::BIGINT FROM i"
    );
    let sqlite = expanded(sql, Engine::Sqlite);
    assert!(!sqlite.contains("kontor_milli") && sqlite.contains("instr(i.gross_total, '.')"));
    assert_eq!(expanded("SELECT 1", Engine::Sqlite), "SELECT 1");
}

#[test]
fn sqlite_spellings_are_rewritten_for_postgres() {
    assert_eq!(postgres_dialect("SELECT 1 FROM t"), "SELECT 1 FROM t");
    assert_eq!(
        postgres_dialect("SELECT json_group_array(json_object('id', t.id, 'n', t.net) ORDER BY t.id) FROM t"),
        "SELECT coalesce(json_agg(json_build_object('id', kontor_v(t.id), 'n', kontor_v(t.net)) ORDER BY t.id), '[]'::json)::text FROM t"
    );
    assert_eq!(
        postgres_dialect("SELECT json_object('row', json_set(json_object('a', x.a), '$.s', x.s), 'b', (SELECT json_group_array(json_array(b.i, b.j)) FROM b)) FROM x"),
        "SELECT json_build_object('row', kontor_v(((json_build_object('a', kontor_v(x.a)))::jsonb || jsonb_build_object('s', kontor_v(x.s)))::json), 'b', kontor_v((SELECT coalesce(json_agg(json_build_array(kontor_v(b.i), kontor_v(b.j))), '[]'::json) FROM b)))::text FROM x"
    );
    assert_eq!(
        postgres_dialect(
            "ORDER BY c.name COLLATE NOCASE ASC, (SELECT n FROM s WHERE s.id = 'x') COLLATE NOCASE"
        ),
        "ORDER BY lower(c.name) ASC, lower((SELECT n FROM s WHERE s.id = 'x'))"
    );
    assert_eq!(
        postgres_dialect("SELECT id FROM c WHERE REPLACE(REPLACE(UPPER(v), ' ', ''), char(9), '') = ? ORDER BY (kind = 'supplier') DESC, active DESC, id LIMIT 1"),
        "SELECT id FROM c WHERE REPLACE(REPLACE(UPPER(v), ' ', ''), chr(9), '') = ? ORDER BY (kind = 'supplier') DESC, active DESC, id LIMIT 1"
    );
    assert_eq!(
        postgres_dialect("SELECT group_concat(pi.title, char(10)) FROM pi"),
        "SELECT string_agg(pi.title, chr(10)) FROM pi"
    );
    assert_eq!(
        postgres_dialect("WHERE t.a LIKE ? ESCAPE '\\' AND EXISTS (SELECT 1 FROM json_each(i.tags) WHERE value = ?)"),
        "WHERE t.a ILIKE ? ESCAPE '\\' AND EXISTS (SELECT 1 FROM kontor_json_each(i.tags) AS json_each WHERE value = ?)"
    );
    assert_eq!(
        postgres_dialect("SELECT SUM(MAX(a - b, 0)), MAX(c) FROM t"),
        "SELECT CAST(SUM(GREATEST(a - b, 0)) AS BIGINT), MAX(c) FROM t"
    );
}

#[test]
fn none_binds_a_null_of_its_type() {
    assert_eq!(Arg::from(None::<Decimal>), Arg::Decimal(None));
    assert_eq!(Arg::from(None::<&str>), Arg::Text(None));
    assert_eq!(Arg::from(Some(3i32)), Arg::Int(Some(3)));
    let s = Some("x".to_string());
    assert_eq!(Arg::from(&s), Arg::Text(Some(Cow::Borrowed("x"))));
}

#[test]
fn the_builder_binds_in_order_with_separators() {
    let mut b = Builder::new("INSERT INTO t (a, b) VALUES (");
    let mut sep = b.separated(", ");
    sep.push_bind(1i64).push_bind("x");
    sep.push_unseparated(")");
    let q = b.build();
    assert_eq!(q.sql, "INSERT INTO t (a, b) VALUES (?, ?)");
    assert_eq!(q.args, vec![Arg::Int(Some(1)), Arg::Text(Some("x".into()))]);
}
