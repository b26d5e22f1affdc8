-- Issue 29: books that stay whole, and idempotency keys that survive a crash (the same
-- change as ../sqlite/0025_books_and_recovery.sql, which explains each column).
ALTER TABLE account_settings ADD COLUMN finalized_invoice_deletion TEXT NOT NULL DEFAULT 'admins'
    CHECK (finalized_invoice_deletion IN ('admins', 'never'));

ALTER TABLE idempotency_keys ADD COLUMN owner TEXT;
ALTER TABLE idempotency_keys ADD COLUMN committed BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE idempotency_keys ADD COLUMN audit_from BIGINT;

CREATE TABLE server_processes (
    id TEXT PRIMARY KEY,
    seen_at BIGINT NOT NULL
);
