-- Issue 29: books that stay whole, and idempotency keys that survive a crash.
--
-- `finalized_invoice_deletion`: who may delete a finalized invoice that was neither sent
-- nor paid — `admins` (with a reason; the default) or `never` (GoBD; reversal only).
ALTER TABLE account_settings ADD COLUMN finalized_invoice_deletion TEXT NOT NULL DEFAULT 'admins'
    CHECK (finalized_invoice_deletion IN ('admins', 'never'));

-- An idempotency key's request, while pending: which server process runs it (`owner`, see
-- `server_processes`), whether one of its write transactions committed (`committed`, set
-- inside that transaction, so it is true exactly when the write happened) and the last
-- audit event before it (`audit_from`: its first own event names the record it wrote).
-- A pending key whose process is gone is resolved by the next retry: not committed → the
-- request runs again; committed → the record's representation is answered.
ALTER TABLE idempotency_keys ADD COLUMN owner TEXT;
ALTER TABLE idempotency_keys ADD COLUMN committed INTEGER NOT NULL DEFAULT 0;
ALTER TABLE idempotency_keys ADD COLUMN audit_from INTEGER;

-- The server processes on this database and when each last said it was alive (Unix
-- seconds, every few seconds).
CREATE TABLE server_processes (
    id TEXT PRIMARY KEY,
    seen_at INTEGER NOT NULL
);
