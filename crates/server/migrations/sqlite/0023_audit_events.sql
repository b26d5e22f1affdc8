-- The audit trail (issue 15 § 4; docs/decisions.md § Audit trail).
--
-- Every change to an audited table (invoices and their positions, payments and reminders;
-- offers, their positions and attachments; purchases, their positions and payments;
-- companies; the account's settings; users; recurring invoices) writes one row here, in
-- the change's own transaction, from triggers that `audit::install` creates from the live
-- schema at every start (so a new column is audited without another migration). `changes`
-- is a JSON array of {field, old, new}; secrets show as "(secret)".
--
-- Rows are append-only: no DELETE, and an UPDATE only to seal a row — set `prev_hash` and
-- `hash` once, content unchanged. The hash chain (hash = SHA-256 of the previous hash and
-- the row's content) is computed by the server (`audit::seal`) right after the change and
-- before the next write; `kontor-server audit verify` recomputes it.
CREATE TABLE audit_events (
    id INTEGER PRIMARY KEY,
    at TEXT NOT NULL,
    user_id INTEGER,
    key_id INTEGER,
    action TEXT NOT NULL CHECK (action IN ('create', 'update', 'delete')),
    record_type TEXT NOT NULL,
    record_id INTEGER NOT NULL,
    parent_type TEXT,
    parent_id INTEGER,
    changes TEXT NOT NULL,
    prev_hash TEXT,
    hash TEXT UNIQUE
);
CREATE INDEX audit_events_record ON audit_events (record_type, record_id, id);
CREATE INDEX audit_events_parent ON audit_events (parent_type, parent_id, id);
CREATE INDEX audit_events_user ON audit_events (user_id, id);
CREATE INDEX audit_events_at ON audit_events (at);

CREATE TRIGGER audit_events_no_delete BEFORE DELETE ON audit_events
BEGIN
    SELECT RAISE(ABORT, 'audit events are append-only');
END;

CREATE TRIGGER audit_events_seal_only BEFORE UPDATE ON audit_events
WHEN OLD.hash IS NOT NULL OR NEW.hash IS NULL OR NEW.prev_hash IS NULL
    OR NEW.id IS NOT OLD.id OR NEW.at IS NOT OLD.at OR NEW.user_id IS NOT OLD.user_id
    OR NEW.key_id IS NOT OLD.key_id OR NEW.action IS NOT OLD.action
    OR NEW.record_type IS NOT OLD.record_type OR NEW.record_id IS NOT OLD.record_id
    OR NEW.parent_type IS NOT OLD.parent_type OR NEW.parent_id IS NOT OLD.parent_id
    OR NEW.changes IS NOT OLD.changes
BEGIN
    SELECT RAISE(ABORT, 'audit events are append-only');
END;

-- Who is writing: set by `db::begin_write` inside each write transaction (writes are
-- serialized), read by the audit triggers. One row.
CREATE TABLE audit_actor (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    user_id INTEGER,
    key_id INTEGER
);
INSERT INTO audit_actor (id, user_id, key_id) VALUES (1, NULL, NULL);
