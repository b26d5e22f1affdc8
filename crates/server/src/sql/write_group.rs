//! Group commit of write transactions on both engines (issue 35, `docs/decisions.md` §
//! Fast for everyone, "Group commit").
//!
//! A [`WriteGroup`] keeps at most one write transaction (`BEGIN IMMEDIATE` on SQLite, a
//! plain `BEGIN` on PostgreSQL) open, on a connection of the pool taken for that
//! transaction. Writes take turns in it, first come
//! first served: each runs inside a savepoint of its own ([`Member`]); when it commits, it
//! gives the turn to the next write and waits. The group's transaction commits — one
//! `COMMIT`, one sync of the disk, the audit seal once — when the committer gets its turn
//! after the writes that were already waiting, and only then is each of them answered:
//! nothing is acknowledged before it is durable. Under load several requests share one
//! commit; a lone write commits at once.
//!
//! A write that fails or whose caller is gone (a dropped future) leaves its savepoint
//! open; whoever takes the next turn rolls it back first, so only finished writes commit.
//! A write in which a statement failed never commits, even when its handler goes on to
//! commit (PostgreSQL would have aborted the whole group's transaction, SQLite may have
//! rolled it back): its savepoint is rolled back and its commit fails
//! ([`Member::connection`]). A failed group commit fails every write that waited for it
//! (their work is rolled back together, so numbers stay gap-free). A group holds at most
//! [`MAX_WRITES`] writes: the next one commits it first.

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Weak};
use std::time::Duration;

use sqlx::pool::PoolConnection;
use sqlx::{Pool, Postgres, Sqlite};
use tokio::sync::{oneshot, Mutex, Notify, OwnedMutexGuard};

/// How long a write waits for its turn before it fails as unavailable (503): SQLite's
/// busy timeout (`crate::store::db::open_file`), which bounded the wait for the write lock
/// before writes took turns here.
pub const TURN_TIMEOUT: Duration = Duration::from_secs(10);

/// The most writes one group's transaction holds (each an open savepoint; PostgreSQL
/// keeps the sub-transactions of up to 64 in shared memory, beyond which every reader
/// pays for looking them up): a write that would be one more commits the group first.
pub const MAX_WRITES: usize = 32;

/// An engine whose writes can be committed in groups: how a group's transaction begins,
/// and how a turn is wrapped as a [`super::Tx`].
pub trait GroupEngine: sqlx::Database {
    /// The first statements of a group: its transaction (taking SQLite's write lock at
    /// once) and the first write's savepoint.
    const BEGIN: &'static str;
    /// Runs the `;`-separated statements of `statements` (constants without parameters)
    /// on `conn`, in one command. Errors: the database's.
    fn run<'c>(
        conn: &'c mut Self::Connection,
        statements: &'static str,
    ) -> Pin<Box<dyn Future<Output = Result<(), sqlx::Error>> + Send + 'c>>;
    /// A turn as a transaction.
    fn wrap(member: Member<Self>) -> super::Tx;
    /// The turn of [`GroupEngine::wrap`] back.
    fn unwrap(tx: super::Tx) -> Option<Member<Self>>;
}

impl GroupEngine for Sqlite {
    fn run<'c>(
        conn: &'c mut Self::Connection,
        statements: &'static str,
    ) -> Pin<Box<dyn Future<Output = Result<(), sqlx::Error>> + Send + 'c>> {
        Box::pin(async move { sqlx::Executor::execute(conn, statements).await.map(|_| ()) })
    }
    const BEGIN: &'static str = "BEGIN IMMEDIATE; SAVEPOINT kontor_write";
    fn wrap(member: Member<Self>) -> super::Tx {
        super::Tx::from_sqlite_member(member)
    }
    fn unwrap(tx: super::Tx) -> Option<Member<Self>> {
        tx.into_sqlite_member()
    }
}

impl GroupEngine for Postgres {
    fn run<'c>(
        conn: &'c mut Self::Connection,
        statements: &'static str,
    ) -> Pin<Box<dyn Future<Output = Result<(), sqlx::Error>> + Send + 'c>> {
        Box::pin(async move { sqlx::Executor::execute(conn, statements).await.map(|_| ()) })
    }
    const BEGIN: &'static str = "BEGIN; SAVEPOINT kontor_write";
    fn wrap(member: Member<Self>) -> super::Tx {
        super::Tx::from_pg_member(member)
    }
    fn unwrap(tx: super::Tx) -> Option<Member<Self>> {
        tx.into_pg_member()
    }
}
/// The savepoint of each further write. Earlier writes' savepoints stay open (nested, one
/// per write of the group): `COMMIT` commits them all, and a `ROLLBACK TO` undoes only the
/// newest — one statement per write instead of a `RELEASE` as well.
const SAVEPOINT: &str = "SAVEPOINT kontor_write";
const ROLLBACK_TO: &str = "ROLLBACK TO SAVEPOINT kontor_write";

/// Work run in the group's transaction right before its `COMMIT` (the audit seal of every
/// event the group wrote, set by `crate::store::db` for either engine). An error fails
/// the commit.
pub type GroupHook = Arc<
    dyn for<'a> Fn(
            &'a mut super::Tx,
        ) -> Pin<Box<dyn Future<Output = Result<(), sqlx::Error>> + Send + 'a>>
        + Send
        + Sync,
>;

/// The group commit of one database. Cloning shares it.
pub struct WriteGroup<DB: GroupEngine>(Arc<Shared<DB>>);

impl<DB: GroupEngine> Clone for WriteGroup<DB> {
    fn clone(&self) -> Self {
        WriteGroup(self.0.clone())
    }
}

impl<DB: GroupEngine> std::fmt::Debug for WriteGroup<DB> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("WriteGroup")
    }
}

struct Shared<DB: GroupEngine> {
    pool: Pool<DB>,
    turn: Arc<Mutex<Turn<DB>>>,
    wake: Arc<Notify>,
    before_commit: GroupHook,
}

impl<DB: GroupEngine> Drop for Shared<DB> {
    fn drop(&mut self) {
        // Lets the committer see that the group is gone and end.
        self.wake.notify_one();
    }
}

/// Where the group's transaction stands.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum State {
    /// No transaction open.
    Idle,
    /// A transaction open; the newest savepoint belongs to a write that finished.
    Open,
    /// A write is working in the newest savepoint (or was dropped while it did).
    Writing,
    /// A `BEGIN` was interrupted: whether a transaction is open is unknown.
    Unknown,
}

/// What the turn guards: the group's connection and transaction, the writes waiting for
/// its commit, the audit actor the transaction's `audit_actor` row holds, and whether a
/// statement of the write in its turn failed.
pub(super) struct Turn<DB: GroupEngine> {
    conn: Option<PoolConnection<DB>>,
    state: State,
    waiting: Vec<oneshot::Sender<Result<(), Failure>>>,
    actor: Option<(Option<i64>, Option<i64>)>,
    failed: bool,
}

/// A failed group commit as each waiting write sees it (sqlx's errors cannot be cloned):
/// whether it means the database is unavailable (503) and its text.
#[derive(Clone, Debug)]
pub(super) struct Failure {
    unavailable: bool,
    message: String,
}

impl Failure {
    /// A failed commit is the database being unavailable (503: a full disk, an I/O error,
    /// a lock) unless the hook refused it (500).
    fn of(e: &sqlx::Error) -> Self {
        Failure {
            unavailable: !matches!(e, sqlx::Error::Protocol(_)),
            message: e.to_string(),
        }
    }

    fn into_error(self) -> sqlx::Error {
        if self.unavailable {
            sqlx::Error::Io(std::io::Error::other(self.message))
        } else {
            sqlx::Error::Protocol(format!("group commit failed: {}", self.message))
        }
    }
}

impl<DB: GroupEngine> WriteGroup<DB> {
    /// Group commit on the database of `pool`, with its committer task on the current
    /// Tokio runtime. `before_commit` runs in each group transaction right before its
    /// `COMMIT`.
    pub fn new(pool: &Pool<DB>, before_commit: GroupHook) -> Self {
        let shared = Arc::new(Shared {
            pool: pool.clone(),
            turn: Arc::new(Mutex::new(Turn {
                conn: None,
                state: State::Idle,
                waiting: Vec::new(),
                actor: None,
                failed: false,
            })),
            wake: Arc::new(Notify::new()),
            before_commit,
        });
        let weak = Arc::downgrade(&shared);
        let wake = shared.wake.clone();
        tokio::spawn(committer(weak, wake));
        WriteGroup(shared)
    }

    /// Waits for this write's turn (at most [`TURN_TIMEOUT`]) and opens its savepoint in
    /// the group's transaction (beginning one when none is open, and committing the group
    /// first when it holds [`MAX_WRITES`] writes). Errors: `PoolTimedOut` after the
    /// timeout (503); the database's.
    ///
    /// The turn is taken and the savepoint opened by a task of its own: a caller that goes
    /// away meanwhile (a client hanging up) cannot interrupt a `BEGIN` or `SAVEPOINT`
    /// between being queued for the connection and being known to have run — the next turn
    /// would then roll back a savepoint that is not this write's (a finished write's work)
    /// or one that does not exist. A member the caller no longer waits for is dropped by
    /// the task and rolled back like any abandoned write.
    pub async fn begin(&self) -> Result<Member<DB>, sqlx::Error> {
        let shared = self.0.clone();
        tokio::spawn(async move { shared.open_turn().await })
            .await
            .map_err(|_| sqlx::Error::WorkerCrashed)?
    }

    /// Commits the writes that finished before this call (waiting for the turn after the
    /// writes queued ahead), so that what they wrote is visible on every connection. Used
    /// by the process's write lock (`crate::state::WriteLock`) before a handler reads
    /// outside its transaction. A failed commit is answered to the writes that waited for
    /// it (and logged); this call itself does not fail. Runs as a task of its own, so a
    /// caller that goes away cannot interrupt a commit and leave its writes unanswered.
    pub async fn flush(&self) {
        let shared = self.0.clone();
        let _ = tokio::spawn(async move { shared.commit_finished().await }).await;
    }
}

impl<DB: GroupEngine> Shared<DB> {
    /// Takes the turn after the writes already waiting and commits what finished
    /// ([`settle`]): the committer's work, and a flush's.
    async fn commit_finished(&self) {
        let turn = self.turn.clone().lock_owned().await;
        settle(self, turn).await;
    }

    /// [`WriteGroup::begin`]'s work, run by its task.
    async fn open_turn(&self) -> Result<Member<DB>, sqlx::Error> {
        let mut guard = tokio::time::timeout(TURN_TIMEOUT, self.turn.clone().lock_owned())
            .await
            .map_err(|_| sqlx::Error::PoolTimedOut)?;
        while guard.waiting.len() >= MAX_WRITES {
            // A full group commits before this write begins the next one (again if others
            // filled the next group while this write waited).
            settle(self, guard).await;
            guard = tokio::time::timeout(TURN_TIMEOUT, self.turn.clone().lock_owned())
                .await
                .map_err(|_| sqlx::Error::PoolTimedOut)?;
        }
        let mut member = Member {
            turn: Some(guard),
            wake: self.wake.clone(),
        };
        let turn: &mut Turn<DB> = member.turn.as_deref_mut().expect("the turn is held");
        settle_abandoned(turn).await?;
        if turn.conn.is_none() {
            turn.conn = Some(self.pool.acquire().await?);
        }
        let conn = turn
            .conn
            .as_deref_mut()
            .expect("the group's connection is open");
        let (statement, failed) = match turn.state {
            State::Idle => (DB::BEGIN, State::Unknown),
            _ => (SAVEPOINT, State::Open),
        };
        turn.state = State::Writing;
        if let Err(e) = DB::run(conn, statement).await {
            // `SAVEPOINT` failed: nothing of this write to undo; a failed `BEGIN …` may
            // have opened the transaction or not.
            turn.state = failed;
            return Err(e);
        }
        Ok(member)
    }
}

/// One write's turn in a [`WriteGroup`]: statements run on the group's transaction inside
/// the write's savepoint. Dropped without [`Member::release`], the savepoint is rolled
/// back by whoever takes the next turn.
pub struct Member<DB: GroupEngine> {
    turn: Option<OwnedMutexGuard<Turn<DB>>>,
    wake: Arc<Notify>,
}

/// The commit a released write waits for ([`Member::release`]).
pub struct Pending(oneshot::Receiver<Result<(), Failure>>);

impl Pending {
    /// Waits until the group's transaction holding the write committed. Errors: the
    /// commit's (the write is rolled back with the whole group).
    pub async fn durable(self) -> Result<(), sqlx::Error> {
        match self.0.await {
            Ok(result) => result.map_err(Failure::into_error),
            Err(_) => Err(sqlx::Error::WorkerCrashed),
        }
    }
}

impl<DB: GroupEngine> Member<DB> {
    /// The connection of the group's transaction, and the flag to set when a statement of
    /// this write fails (`crate::sql::Executor::split`): such a write never commits — its
    /// savepoint is rolled back and [`Member::commit`] fails, whatever its handler does
    /// next (on PostgreSQL the failure aborted the group's transaction until the savepoint
    /// is rolled back; SQLite may have rolled back the whole transaction: a full disk, an
    /// I/O error).
    pub fn connection(&mut self) -> (&mut DB::Connection, &mut bool) {
        let turn = self.turn.as_deref_mut().expect("a member holds its turn");
        let conn = turn
            .conn
            .as_deref_mut()
            .expect("the group's connection is open");
        (conn, &mut turn.failed)
    }

    /// Whether the `audit_actor` row already holds `actor` inside the group's transaction
    /// (written by an earlier write of the group: `crate::store::db::begin_write` then
    /// skips writing it again). `actor` is `(user_id, key_id)`.
    pub fn holds_actor(&self, actor: (Option<i64>, Option<i64>)) -> bool {
        self.turn.as_ref().and_then(|t| t.actor) == Some(actor)
    }

    /// Notes that this write set the `audit_actor` row to `actor` ([`Member::holds_actor`]).
    pub fn note_actor(&mut self, actor: (Option<i64>, Option<i64>)) {
        if let Some(turn) = self.turn.as_mut() {
            turn.actor = Some(actor);
        }
    }

    /// Ends the write and waits for the commit of the group's transaction holding it.
    /// Errors: a statement of the write failed (the write is rolled back, the group goes
    /// on); the group commit's.
    pub async fn commit(self) -> Result<(), sqlx::Error> {
        let failed = self.turn.as_ref().is_some_and(|t| t.failed);
        if failed {
            self.rollback().await?;
            return Err(sqlx::Error::Protocol(
                "a statement of this write failed; it was rolled back".into(),
            ));
        }
        self.release().durable().await
    }

    /// Ends the write (its savepoint stays in the group's transaction), gives the turn to
    /// the next write and answers the commit to wait for.
    fn release(mut self) -> Pending {
        let mut turn = self.turn.take().expect("a member holds its turn");
        turn.state = State::Open;
        let (send, receive) = oneshot::channel();
        turn.waiting.push(send);
        drop(turn);
        self.wake.notify_one();
        Pending(receive)
    }

    /// Rolls the write's savepoint back and gives the turn to the next write. Errors: the
    /// database's (the whole group's transaction is then rolled back).
    pub async fn rollback(mut self) -> Result<(), sqlx::Error> {
        // The turn stays in the member while the rollback runs: a caller that goes away
        // meanwhile drops an abandoned member, which wakes the committer to finish it.
        let turn = self.turn.as_deref_mut().expect("a member holds its turn");
        let result = settle_abandoned(turn).await;
        drop(self.turn.take());
        self.wake.notify_one();
        result
    }
}

impl<DB: GroupEngine> Drop for Member<DB> {
    fn drop(&mut self) {
        if let Some(turn) = self.turn.take() {
            let abandoned = matches!(turn.state, State::Writing | State::Unknown);
            drop(turn);
            if abandoned {
                // The committer rolls the savepoint back and ends the group's transaction
                // if no other write comes, so the write lock (SQLite's, PostgreSQL's row
                // locks) is not held meanwhile.
                self.wake.notify_one();
            }
        }
    }
}

/// Undoes what a write that ended without [`Member::release`] left: its savepoint is
/// rolled back (the group's transaction and the writes before it stay), an interrupted
/// `BEGIN` is rolled back whole. When that fails, the whole group's transaction is rolled
/// back and the writes waiting for it fail.
async fn settle_abandoned<DB: GroupEngine>(turn: &mut Turn<DB>) -> Result<(), sqlx::Error> {
    turn.failed = false;
    let statement = match turn.state {
        State::Idle | State::Open => return Ok(()),
        State::Writing => ROLLBACK_TO,
        State::Unknown => "ROLLBACK",
    };
    let Some(conn) = turn.conn.as_deref_mut() else {
        turn.state = State::Idle;
        return Ok(());
    };
    // The actor row may have been changed by the undone write.
    turn.actor = None;
    match DB::run(conn, statement).await {
        Ok(()) => {
            turn.state = match turn.state {
                State::Unknown => State::Idle,
                _ => State::Open,
            };
            if turn.state == State::Idle {
                turn.conn = None;
            }
            Ok(())
        }
        // `BEGIN` never opened a transaction (no write waits: the group was idle).
        Err(_) if turn.state == State::Unknown => {
            turn.state = State::Idle;
            turn.conn = None;
            Ok(())
        }
        Err(e) => {
            tracing::error!(error = %e, "cannot roll back an abandoned write; the group's transaction is rolled back");
            abort(turn, &e).await;
            Err(e)
        }
    }
}

/// Rolls the group's transaction back and gives the connection back to the pool (closed
/// when even the rollback fails, so no transaction stays open on it), and fails every
/// waiting write with `e`.
async fn abort<DB: GroupEngine>(turn: &mut Turn<DB>, e: &sqlx::Error) {
    if let Some(mut conn) = turn.conn.take() {
        if DB::run(&mut conn, "ROLLBACK").await.is_err() {
            let _ = sqlx::Connection::close(conn.detach()).await;
        }
    }
    turn.state = State::Idle;
    turn.actor = None;
    turn.failed = false;
    let failure = Failure::of(e);
    for waiting in turn.waiting.drain(..) {
        let _ = waiting.send(Err(failure.clone()));
    }
}

/// Commits the group's transaction (after the hook) and answers every waiting write.
async fn settle<DB: GroupEngine>(shared: &Shared<DB>, turn: OwnedMutexGuard<Turn<DB>>) {
    let mut member = Member {
        turn: Some(turn),
        wake: shared.wake.clone(),
    };
    let turn: &mut Turn<DB> = member.turn.as_deref_mut().expect("the turn is held");
    if settle_abandoned(turn).await.is_err() || turn.state != State::Open {
        return;
    }
    let waiting = std::mem::take(&mut turn.waiting);
    // The hook runs on the group's transaction as a write of its own would.
    let mut tx = DB::wrap(member);
    let mut result = (shared.before_commit)(&mut tx).await;
    let mut member = DB::unwrap(tx).expect("the committer's turn");
    let turn: &mut Turn<DB> = member.turn.as_deref_mut().expect("the turn is held");
    let conn = turn
        .conn
        .as_deref_mut()
        .expect("the group's connection is open");
    if result.is_ok() && turn.failed {
        result = Err(sqlx::Error::Protocol(
            "a statement before the commit failed".into(),
        ));
    }
    if result.is_ok() {
        result = DB::run(conn, "COMMIT").await;
    }
    turn.actor = None;
    turn.failed = false;
    match &result {
        Ok(()) => {
            turn.state = State::Idle;
            // Back to the pool, with no transaction open.
            turn.conn = None;
        }
        Err(e) => {
            tracing::error!(error = %e, writes = waiting.len(), "group commit failed");
            turn.waiting = Vec::new();
            abort(turn, e).await;
        }
    }
    let answer = result.as_ref().map(|_| ()).map_err(Failure::of);
    // Given back before the answers: the turn is not abandoned.
    drop(member.turn.take());
    for w in waiting {
        let _ = w.send(answer.clone());
    }
}

/// The committer: woken by every released or abandoned write, it takes its turn after the
/// writes already waiting and commits what they wrote. Ends with its group.
async fn committer<DB: GroupEngine>(group: Weak<Shared<DB>>, wake: Arc<Notify>) {
    loop {
        wake.notified().await;
        let Some(shared) = group.upgrade() else {
            return;
        };
        shared.commit_finished().await;
    }
}
