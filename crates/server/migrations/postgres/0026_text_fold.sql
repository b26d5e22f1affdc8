-- Issue 30: searches fold letters the same way on both engines, Unicode included
-- ("ärzte" finds "ÄRZTE"): `kontor_fold(text)` is the text in lower case under the ICU
-- root collation, whatever the cluster's own locale (SQLite: crates/server/src/text_fold.rs).
CREATE FUNCTION kontor_fold(t TEXT) RETURNS TEXT
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT lower(t COLLATE "und-x-icu") $$;
