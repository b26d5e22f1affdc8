//! The migrations written once (issue 30: one schema source): from number 26 on, each is a
//! [`Version`] emitted for both engines; 1–25 stay the `.sql` files of `migrations/`
//! they were written as.

use super::ddl::{Step, Version};

/// Every migration written here, in order.
pub const VERSIONS: &[Version] = &[TEXT_FOLD, SHARED_FUNCTIONS];

/// 26: `kontor_fold`, the same case folding on both engines.
const TEXT_FOLD: Version = Version {
    version: 26,
    description: "text fold",
    why: "Issue 30: searches fold letters the same way on both engines, Unicode included\n\
          (\"ärzte\" finds \"ÄRZTE\"): kontor_fold(text) is the text in lower case; on\n\
          PostgreSQL under the ICU root collation, whatever the cluster's own locale.",
    steps: &[Step::Function {
        name: "kontor_fold",
        postgres: r#"CREATE FUNCTION kontor_fold(t TEXT) RETURNS TEXT
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT lower(t COLLATE "und-x-icu") $$;"#,
    }],
};

/// 27: the other functions one statement text needs on both engines.
const SHARED_FUNCTIONS: Version = Version {
    version: 27,
    description: "shared functions",
    why: "Issue 30: no statement is rewritten at run time. kontor_milli(amount) is an amount\n\
          in exact thousandths (BIGINT); json_each(text) reads a JSON text column the way\n\
          SQLite's json_each does (key, value as text); GREATEST is PostgreSQL's own.",
    steps: &[
        Step::Function {
            name: "kontor_milli",
            postgres: "CREATE FUNCTION kontor_milli(amount NUMERIC) RETURNS BIGINT
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT trunc(amount * 1000)::BIGINT $$;",
        },
        Step::Function {
            name: "json_each",
            postgres: "CREATE FUNCTION json_each(doc TEXT) RETURNS TABLE (key TEXT, value TEXT)
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT NULL::text, v
    FROM json_array_elements_text(
        CASE WHEN json_typeof(doc::json) = 'array' THEN doc::json ELSE '[]'::json END) AS v
    UNION ALL
    SELECT e.key, e.value
    FROM json_each_text(
        CASE WHEN json_typeof(doc::json) = 'object' THEN doc::json ELSE '{}'::json END) AS e
$$;",
        },
    ],
};
