//! The pools and connections of both engines ([`Db`], [`Tx`]) and what a statement runs on
//! ([`Executor`], [`Target`]).

use sqlx::postgres::{PgConnection, PgPool};
use sqlx::sqlite::{SqliteConnection, SqlitePool};
use sqlx::{Postgres, Sqlite};

use super::write_group::{Member, WriteGroup};

/// A turn in SQLite's write group.
type SqliteMember = Member<Sqlite>;
/// A turn in PostgreSQL's write group.
type PgMember = Member<Postgres>;

/// The storage engine behind a [`Db`] or [`Tx`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// Embedded SQLite, the default (`<data>/kontor.db` or `--database sqlite://…`).
    Sqlite,
    /// A PostgreSQL server (`--database postgres://…`).
    Postgres,
}

/// The database pool of either engine. Cloning is cheap (the pools are shared handles).
#[derive(Clone, Debug)]
pub enum Db {
    /// SQLite pool, with the group commit of its writes when the server opened it
    /// ([`crate::sql::write_group`]; `None`: each write commits by itself).
    Sqlite(SqlitePool, Option<WriteGroup<Sqlite>>),
    /// PostgreSQL pool, with the group commit of its writes as on SQLite.
    Postgres(PgPool, Option<WriteGroup<Postgres>>),
}

impl From<SqlitePool> for Db {
    fn from(pool: SqlitePool) -> Self {
        Db::Sqlite(pool, None)
    }
}

impl Db {
    /// Which engine this pool talks to.
    pub fn engine(&self) -> Engine {
        match self {
            Db::Sqlite(..) => Engine::Sqlite,
            Db::Postgres(..) => Engine::Postgres,
        }
    }

    /// A deferred transaction (SQLite `BEGIN`, PostgreSQL `BEGIN` at READ COMMITTED).
    /// Errors: the database's.
    pub async fn begin(&self) -> Result<Tx, sqlx::Error> {
        Ok(Tx(
            match self {
                Db::Sqlite(p, _) => Inner::SqliteTx(p.begin().await?),
                Db::Postgres(p, _) => Inner::PgTx(p.begin().await?),
            },
            None,
        ))
    }

    /// A transaction opened with `statement` on SQLite (`"BEGIN IMMEDIATE"`) and with a
    /// plain `BEGIN` on PostgreSQL, where writers lock rows, not the file. Errors: the
    /// database's.
    ///
    /// On SQLite the `BEGIN` runs as a task of its own, which the caller's future being
    /// dropped cannot interrupt: sqlx (0.8.6) runs a custom `BEGIN` and then asks the
    /// connection whether a transaction is open, a second wait; a request dropped between
    /// the two (its client hung up while it waited for the write lock) left the
    /// transaction open on a connection back in the pool, holding SQLite's write lock for
    /// good — every later write waited for the busy timeout or failed (found by `wrk`
    /// stopping mid-request, issue 35; `concurrent_writes_api.rs`). A transaction begun for
    /// a caller that is gone is dropped with the task's answer, which rolls it back.
    pub async fn begin_sqlite_with(&self, statement: &'static str) -> Result<Tx, sqlx::Error> {
        Ok(Tx(
            match self {
                Db::Sqlite(p, _) => {
                    let p = p.clone();
                    let begun = tokio::spawn(async move { p.begin_with(statement).await })
                        .await
                        .map_err(|_| sqlx::Error::WorkerCrashed)??;
                    Inner::SqliteTx(begun)
                }
                Db::Postgres(p, _) => Inner::PgTx(p.begin().await?),
            },
            None,
        ))
    }

    /// A pooled connection outside any transaction (each statement commits by itself).
    /// Errors: the database's (pool timeout, connection refused).
    pub async fn acquire(&self) -> Result<Tx, sqlx::Error> {
        Ok(Tx(
            match self {
                Db::Sqlite(p, _) => Inner::SqliteConn(p.acquire().await?),
                Db::Postgres(p, _) => Inner::PgConn(p.acquire().await?),
            },
            None,
        ))
    }

    /// This pool with its writes committed in groups ([`WriteGroup`]): `before_commit`
    /// runs in each group's transaction right before its `COMMIT`.
    pub fn with_write_group(self, before_commit: super::write_group::GroupHook) -> Db {
        match self {
            Db::Sqlite(p, _) => {
                let group = WriteGroup::new(&p, before_commit);
                Db::Sqlite(p, Some(group))
            }
            Db::Postgres(p, _) => {
                let group = WriteGroup::new(&p, before_commit);
                Db::Postgres(p, Some(group))
            }
        }
    }

    /// Whether this pool commits its writes in groups ([`Db::with_write_group`]).
    pub fn has_write_group(&self) -> bool {
        matches!(self, Db::Sqlite(_, Some(_)) | Db::Postgres(_, Some(_)))
    }

    /// Commits the writes of the pool's group that finished before this call, so that
    /// every connection sees them ([`WriteGroup::flush`]); nothing without a group.
    pub async fn flush_writes(&self) {
        match self {
            Db::Sqlite(_, Some(group)) => group.flush().await,
            Db::Postgres(_, Some(group)) => group.flush().await,
            _ => {}
        }
    }

    /// A write's turn in the pool's [`WriteGroup`] as a transaction (statements run inside
    /// the write's savepoint; [`Tx::commit`] answers once the group committed), or `None`
    /// without a group. Errors: `PoolTimedOut` when the turn does not come within
    /// [`super::write_group::TURN_TIMEOUT`]; the database's.
    pub async fn begin_in_group(&self) -> Result<Option<Tx>, sqlx::Error> {
        match self {
            Db::Sqlite(_, Some(group)) => {
                Ok(Some(Tx(Inner::SqliteMember(group.begin().await?), None)))
            }
            Db::Postgres(_, Some(group)) => {
                Ok(Some(Tx(Inner::PgMember(group.begin().await?), None)))
            }
            _ => Ok(None),
        }
    }

    /// Closes the pool, waiting for connections in use to come back (after committing the
    /// group's finished writes, which gives its connection back).
    pub async fn close(&self) {
        self.flush_writes().await;
        match self {
            Db::Sqlite(p, _) => p.close().await,
            Db::Postgres(p, _) => p.close().await,
        }
    }

    /// Which database this pool opens, as text that is equal for two pools of the same
    /// database in one process (the SQLite file's path; PostgreSQL's host, port and
    /// database name — never the password). The audit keys are registered under it
    /// (`crate::proof::audit_key::register`).
    pub fn identity(&self) -> String {
        match self {
            Db::Sqlite(p, _) => {
                let options = p.connect_options();
                let path = options.get_filename();
                let path = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
                format!("sqlite:{}", path.display())
            }
            Db::Postgres(p, _) => {
                let o = p.connect_options();
                format!(
                    "postgres:{}:{}/{}",
                    o.get_host(),
                    o.get_port(),
                    o.get_database().unwrap_or("")
                )
            }
        }
    }

    /// The SQLite pool, when this is SQLite (backups and file-level tools).
    pub fn as_sqlite(&self) -> Option<&SqlitePool> {
        match self {
            Db::Sqlite(p, _) => Some(p),
            Db::Postgres(..) => None,
        }
    }
}

/// A transaction or a pooled connection of either engine, with the work to run inside it
/// right before it commits ([`Tx::before_commit`]). Dropped without
/// [`commit`](Tx::commit), a transaction rolls back.
pub struct Tx(Inner, Option<BeforeCommit>);

/// Work run inside a transaction right before its `COMMIT` (set by
/// `crate::store::db::begin_write`: the audit seal of the transaction's own events, so a
/// write request commits once instead of once for its rows and again for their seals).
/// An error fails the commit: the transaction rolls back.
pub type BeforeCommit = Box<
    dyn for<'a> FnOnce(
            &'a mut Tx,
        ) -> std::pin::Pin<
            Box<dyn std::future::Future<Output = Result<(), sqlx::Error>> + Send + 'a>,
        > + Send,
>;

enum Inner {
    SqliteTx(sqlx::Transaction<'static, Sqlite>),
    SqliteConn(sqlx::pool::PoolConnection<Sqlite>),
    SqliteOwn(Box<SqliteConnection>),
    SqliteMember(SqliteMember),
    PgMember(PgMember),
    PgTx(sqlx::Transaction<'static, Postgres>),
    PgConn(sqlx::pool::PoolConnection<Postgres>),
}

impl Tx {
    /// A turn in SQLite's [`WriteGroup`] as a transaction (the committer's, for its hook).
    pub(super) fn from_sqlite_member(member: SqliteMember) -> Self {
        Tx(Inner::SqliteMember(member), None)
    }

    /// The turn of [`Tx::from_sqlite_member`] back.
    pub(super) fn into_sqlite_member(self) -> Option<SqliteMember> {
        match self.0 {
            Inner::SqliteMember(m) => Some(m),
            _ => None,
        }
    }

    /// A turn in PostgreSQL's [`WriteGroup`] as a transaction (the committer's, for its
    /// hook).
    pub(super) fn from_pg_member(member: PgMember) -> Self {
        Tx(Inner::PgMember(member), None)
    }

    /// The turn of [`Tx::from_pg_member`] back.
    pub(super) fn into_pg_member(self) -> Option<PgMember> {
        match self.0 {
            Inner::PgMember(m) => Some(m),
            _ => None,
        }
    }

    /// Whether this write is a turn in a [`WriteGroup`] whose transaction's `audit_actor`
    /// row already holds `actor` (`(user_id, key_id)`, written by an earlier write of the
    /// group: `crate::store::db::begin_write` then skips writing it again).
    pub fn group_holds_actor(&self, actor: (Option<i64>, Option<i64>)) -> bool {
        match &self.0 {
            Inner::SqliteMember(m) => m.holds_actor(actor),
            Inner::PgMember(m) => m.holds_actor(actor),
            _ => false,
        }
    }

    /// Notes, for a turn in a [`WriteGroup`], that this write set the `audit_actor` row to
    /// `actor` ([`Tx::group_holds_actor`]); nothing otherwise.
    pub fn group_notes_actor(&mut self, actor: (Option<i64>, Option<i64>)) {
        match &mut self.0 {
            Inner::SqliteMember(m) => m.note_actor(actor),
            Inner::PgMember(m) => m.note_actor(actor),
            _ => {}
        }
    }

    /// Wraps a SQLite connection opened outside any pool (the CLI's file tools).
    pub fn from_sqlite(conn: SqliteConnection) -> Self {
        Tx(Inner::SqliteOwn(Box::new(conn)), None)
    }

    /// Which engine this transaction runs on.
    pub fn engine(&self) -> Engine {
        match &self.0 {
            Inner::SqliteTx(_)
            | Inner::SqliteConn(_)
            | Inner::SqliteOwn(_)
            | Inner::SqliteMember(_) => Engine::Sqlite,
            Inner::PgTx(_) | Inner::PgConn(_) | Inner::PgMember(_) => Engine::Postgres,
        }
    }

    /// Runs `work` inside this transaction right before it commits (replacing work set
    /// earlier). Nothing runs when the transaction rolls back or is dropped.
    pub fn before_commit(&mut self, work: BeforeCommit) {
        self.1 = Some(work);
    }

    /// Commits a transaction, after the work of [`Tx::before_commit`] (whose error rolls
    /// it back); nothing for a plain connection. Errors: the database's.
    pub async fn commit(mut self) -> Result<(), sqlx::Error> {
        if let Some(work) = self.1.take() {
            work(&mut self).await?;
        }
        match self.0 {
            Inner::SqliteTx(t) => t.commit().await,
            // Answered once the group's transaction holding this write committed.
            Inner::SqliteMember(m) => m.commit().await,
            Inner::PgMember(m) => m.commit().await,
            Inner::PgTx(t) => t.commit().await,
            Inner::SqliteConn(_) | Inner::SqliteOwn(_) | Inner::PgConn(_) => Ok(()),
        }
    }

    /// Closes a connection opened with [`Tx::from_sqlite`] (releasing its file); a
    /// transaction rolls back, a pooled connection goes back to its pool.
    pub async fn close(self) {
        if let Inner::SqliteOwn(c) = self.0 {
            let _ = sqlx::Connection::close(*c).await;
        }
    }

    /// Rolls a transaction back; nothing for a plain connection. Errors: the database's.
    pub async fn rollback(self) -> Result<(), sqlx::Error> {
        match self.0 {
            Inner::SqliteTx(t) => t.rollback().await,
            Inner::SqliteMember(m) => m.rollback().await,
            Inner::PgMember(m) => m.rollback().await,
            Inner::PgTx(t) => t.rollback().await,
            Inner::SqliteConn(_) | Inner::SqliteOwn(_) | Inner::PgConn(_) => Ok(()),
        }
    }
}

/// Where a statement runs: a pool or one connection, of either engine.
pub enum Target<'e> {
    /// Any connection of a SQLite pool.
    SqlitePool(&'e SqlitePool),
    /// One SQLite connection (inside a transaction or not).
    Sqlite(&'e mut SqliteConnection),
    /// Any connection of a PostgreSQL pool.
    PgPool(&'e PgPool),
    /// One PostgreSQL connection.
    Pg(&'e mut PgConnection),
}

/// What a statement can run on: `&Db` or `&mut Tx`.
pub trait Executor<'e> {
    /// The pool or connection to run on, and for a write's turn in a [`WriteGroup`] the
    /// flag the statement sets when it fails ([`Member::note_failed`]: such a write never
    /// commits).
    fn split(self) -> (Target<'e>, Option<&'e mut bool>);
}

impl<'e> Executor<'e> for &'e Db {
    fn split(self) -> (Target<'e>, Option<&'e mut bool>) {
        let target = match self {
            Db::Sqlite(p, _) => Target::SqlitePool(p),
            Db::Postgres(p, _) => Target::PgPool(p),
        };
        (target, None)
    }
}

impl<'e> Executor<'e> for &'e mut Tx {
    fn split(self) -> (Target<'e>, Option<&'e mut bool>) {
        match &mut self.0 {
            Inner::SqliteTx(t) => (Target::Sqlite(t), None),
            Inner::SqliteConn(c) => (Target::Sqlite(c), None),
            Inner::SqliteOwn(c) => (Target::Sqlite(c), None),
            Inner::SqliteMember(m) => {
                let (conn, failed) = m.connection();
                (Target::Sqlite(conn), Some(failed))
            }
            Inner::PgTx(t) => (Target::Pg(t), None),
            Inner::PgConn(c) => (Target::Pg(c), None),
            Inner::PgMember(m) => {
                let (conn, failed) = m.connection();
                (Target::Pg(conn), Some(failed))
            }
        }
    }
}

impl<'e> Executor<'e> for &'e mut &mut Tx {
    fn split(self) -> (Target<'e>, Option<&'e mut bool>) {
        (&mut **self).split()
    }
}
