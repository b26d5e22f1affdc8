-- Idempotency-Key (issue 15 § 3; docs/decisions.md § Idempotency-Key).
--
-- A POST with an `Idempotency-Key` header is answered once per (API key, idempotency key)
-- within 24 hours: the first request's row is `pending` while its handler runs and `done`
-- with the answer (status, content type, location, body) afterwards; a retry with the same
-- request hash gets that answer again. The row lives in the database, not the process, so
-- any server process answers the retry. `created_at` is Unix seconds (for the 24-hour
-- window and the purge).
CREATE TABLE idempotency_keys (
    key_id INTEGER NOT NULL,
    idem_key TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('pending', 'done')),
    status INTEGER,
    content_type TEXT,
    location TEXT,
    body BLOB,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (key_id, idem_key)
);
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
