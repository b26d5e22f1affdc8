-- Issue 30: searches fold letters the same way on both engines, Unicode included.
-- On SQLite `kontor_fold(text)` is not part of the schema: the server registers it on
-- every connection (crates/server/src/text_fold.rs). This migration keeps the numbers of
-- both engines equal.
SELECT 1;
