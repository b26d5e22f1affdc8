//! The database schema, from one source per change (issue 30):
//!
//! - [`migrator`]: the migrations of an engine — numbers 1–25 are the `.sql` files of
//!   `migrations/sqlite/` and `migrations/postgres/` they were written as; from 26 on each
//!   is written once ([`versions`]) and emitted for both engines by [`ddl`];
//! - [`derived`]: the views and triggers that follow the model's rules, generated per
//!   engine from one definition and installed at every start (as `crate::proof::audit` does with
//!   the audit triggers).
//!
//! `tests/migrations_equal.rs` applies both engines' migrators and compares the schemas
//! they leave.

pub mod ddl;
pub mod derived;
pub mod versions;

use crate::sql::Engine;
use sqlx::migrate::{Migration, MigrationType, Migrator};
use std::borrow::Cow;

/// The migrations of `engine`: its `.sql` files (1–25), then [`versions::VERSIONS`]
/// emitted for it.
pub fn migrator(engine: Engine) -> Migrator {
    let files = match engine {
        Engine::Sqlite => sqlx_macros::migrate!("./migrations/sqlite"),
        Engine::Postgres => sqlx_macros::migrate!("./migrations/postgres"),
    };
    let mut migrations = files.migrations.into_owned();
    for v in versions::VERSIONS {
        migrations.push(Migration::new(
            v.version,
            Cow::Borrowed(v.description),
            MigrationType::Simple,
            Cow::Owned(v.sql(engine)),
            false,
        ));
    }
    Migrator {
        migrations: Cow::Owned(migrations),
        ..files
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_written_once_numbers_continue_the_files() {
        for engine in [Engine::Sqlite, Engine::Postgres] {
            let m = migrator(engine);
            let numbers: Vec<i64> = m.migrations.iter().map(|m| m.version).collect();
            assert!(numbers.windows(2).all(|w| w[1] > w[0]), "{numbers:?}");
            let files = numbers.len() - versions::VERSIONS.len();
            assert_eq!(numbers[files - 1], 25, "{numbers:?}");
            assert!(numbers[files - 1..].windows(2).all(|w| w[1] == w[0] + 1));
            assert_eq!(
                numbers.last(),
                versions::VERSIONS.last().map(|v| v.version).as_ref()
            );
        }
    }
}
