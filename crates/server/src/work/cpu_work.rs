//! CPU-heavy work, off the async threads and bounded (issue 29 § Bounded resources;
//! `docs/decisions.md` § Proof, "Bounded resources").
//!
//! Hashing a password (argon2id: 19 MiB and tens of milliseconds each), rendering a PDF
//! (up to hundreds of megabytes for thousands of positions) and reading an incoming
//! e-invoice never run on the async runtime, and never more than [`permits`] at once per
//! kind: 100 parallel sign-ins took the server from 156 MB to 2.1 GB before. Work beyond
//! the permits waits in a queue of at most [`MAX_WAITING`] per kind, each for at most
//! [`MAX_WAIT`]; beyond that the request is answered 503 with `Retry-After`
//! ([`ApiError::Busy`]) and nothing was done. Each job also has a time budget: the
//! request stops waiting when it passes (the job itself, bounded by the input limits,
//! finishes on its thread and only then gives its permit back, so the bound holds).

use crate::http::error::ApiError;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;
use std::time::Duration;
use tokio::sync::Semaphore;

/// The kinds of expensive work, each with its own permits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// argon2id hashes and verifications.
    Password,
    /// PDF renders (Typst) and Factur-X assembly.
    Document,
    /// Reading an incoming e-invoice (PDF and XML parsing).
    Import,
}

impl Kind {
    /// What the 503 says Kontor is busy with.
    fn busy(self) -> &'static str {
        match self {
            Kind::Password => "checking passwords",
            Kind::Document => "rendering documents",
            Kind::Import => "reading e-invoices",
        }
    }
}

/// Longest wait for a permit before the request is answered 503.
pub const MAX_WAIT: Duration = Duration::from_secs(10);
/// Most requests waiting for a permit of one kind; one more is answered 503 at once.
pub const MAX_WAITING: usize = 32;

/// How many jobs of each kind run at once: the machine's cores (at least 2, at most 8).
/// Memory bound per kind: passwords 19 MiB each; documents about 300 MB each at 1,000
/// positions (docs/benchmarks.md).
pub fn permits() -> usize {
    std::thread::available_parallelism()
        .map(usize::from)
        .unwrap_or(2)
        .clamp(2, 8)
}

struct Pool {
    semaphore: Semaphore,
    waiting: AtomicUsize,
}

/// A place in a pool's queue, given back when dropped.
struct Waiting<'a> {
    count: &'a AtomicUsize,
    /// How many were waiting before this one.
    ahead: usize,
}

impl<'a> Waiting<'a> {
    fn enter(count: &'a AtomicUsize) -> Self {
        let ahead = count.fetch_add(1, Ordering::SeqCst);
        Waiting { count, ahead }
    }
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.count.fetch_sub(1, Ordering::SeqCst);
    }
}

fn pool(kind: Kind) -> &'static Pool {
    static POOLS: OnceLock<[Pool; 3]> = OnceLock::new();
    let pools = POOLS.get_or_init(|| {
        std::array::from_fn(|_| Pool {
            semaphore: Semaphore::new(permits()),
            waiting: AtomicUsize::new(0),
        })
    });
    &pools[kind as usize]
}

/// Runs `job` on tokio's blocking threads once a permit of `kind` is free, and waits for
/// it at most `budget`.
///
/// Errors: [`ApiError::Busy`] (503 + `Retry-After`) when [`MAX_WAITING`] requests already
/// wait or no permit comes within [`MAX_WAIT`]; `on_timeout()` when the job runs past
/// `budget`; 500 when the job panicked (the panic stays on its thread: the server goes
/// on).
pub async fn run<T: Send + 'static>(
    kind: Kind,
    budget: Duration,
    on_timeout: impl FnOnce() -> ApiError,
    job: impl FnOnce() -> T + Send + 'static,
) -> Result<T, ApiError> {
    let pool = pool(kind);
    // Counted while waiting; the guard gives the place back also when the request is
    // dropped meanwhile (the client went away), so the count cannot leak.
    let waiting = Waiting::enter(&pool.waiting);
    if waiting.ahead >= MAX_WAITING {
        return Err(ApiError::Busy(kind.busy()));
    }
    let permit = tokio::time::timeout(MAX_WAIT, pool.semaphore.acquire()).await;
    drop(waiting);
    let permit = match permit {
        Ok(Ok(permit)) => permit,
        _ => return Err(ApiError::Busy(kind.busy())),
    };
    // The permit (of a pool that lives as long as the process) moves onto the blocking
    // thread and is given back when the job ends, also when the request stopped waiting.
    let task = tokio::task::spawn_blocking(move || {
        let result = job();
        drop(permit);
        result
    });
    match tokio::time::timeout(budget, task).await {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(e)) => Err(ApiError::Internal(format!("{kind:?} job: {e}"))),
        Err(_) => Err(on_timeout()),
    }
}

/// Gives memory the allocator keeps after a large job back to the system (glibc:
/// `malloc_trim(0)`, which returns the free pages of every arena; elsewhere nothing).
/// Without it a render of 5,000 positions left about 1.7 GB resident for good, since the
/// blocking threads' arenas kept their freed pages (issue 29, measured in
/// `tests/hardening_api.rs`). Takes about a millisecond; called after renders that took
/// over 100 ms.
pub fn return_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only walks the allocator's own free lists; it takes no
    // pointers and is safe to call from any thread at any time.
    unsafe {
        libc::malloc_trim(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn no_more_than_the_permits_run_at_once_and_the_queue_is_bounded() {
        let running = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let mut tasks = Vec::new();
        for _ in 0..(permits() + MAX_WAITING + 8) {
            let (running, most) = (running.clone(), most.clone());
            tasks.push(tokio::spawn(run(
                Kind::Import,
                Duration::from_secs(30),
                || ApiError::Internal("timeout".into()),
                move || {
                    let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                    most.fetch_max(now, Ordering::SeqCst);
                    std::thread::sleep(Duration::from_millis(50));
                    running.fetch_sub(1, Ordering::SeqCst);
                },
            )));
        }
        let mut busy = 0;
        for t in tasks {
            match t.await.unwrap() {
                Ok(()) => {}
                Err(ApiError::Busy(_)) => busy += 1,
                Err(e) => panic!("{e:?}"),
            }
        }
        assert!(most.load(Ordering::SeqCst) <= permits());
        assert!(
            busy >= 1,
            "the queue beyond {MAX_WAITING} waiting is refused"
        );
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn requests_dropped_while_waiting_give_their_place_back() {
        // Hold every permit, then start and drop many waiting requests.
        let hold = (0..permits())
            .map(|_| {
                tokio::spawn(run(
                    Kind::Password,
                    Duration::from_secs(30),
                    || ApiError::Internal("timeout".into()),
                    || std::thread::sleep(Duration::from_millis(400)),
                ))
            })
            .collect::<Vec<_>>();
        tokio::time::sleep(Duration::from_millis(50)).await;
        for _ in 0..(MAX_WAITING * 2) {
            let waiting = tokio::spawn(run(
                Kind::Password,
                Duration::from_secs(30),
                || ApiError::Internal("timeout".into()),
                || (),
            ));
            tokio::time::sleep(Duration::from_millis(1)).await;
            waiting.abort();
        }
        for h in hold {
            h.await.unwrap().unwrap();
        }
        assert_eq!(pool(Kind::Password).waiting.load(Ordering::SeqCst), 0);
        run(
            Kind::Password,
            Duration::from_secs(5),
            || ApiError::Internal("timeout".into()),
            || (),
        )
        .await
        .expect("not busy once the queue is empty");
    }

    #[tokio::test]
    async fn a_job_past_its_budget_answers_the_timeout_and_a_panic_stays_on_its_thread() {
        let late = run(
            Kind::Document,
            Duration::from_millis(20),
            || {
                ApiError::field(
                    "file",
                    kontor_model::error::messages::TAKES_TOO_LONG_TO_READ,
                )
            },
            || std::thread::sleep(Duration::from_millis(300)),
        )
        .await;
        assert!(matches!(late, Err(ApiError::Invalid(..))), "{late:?}");
        let panicked = run(
            Kind::Document,
            Duration::from_secs(5),
            || ApiError::Internal("timeout".into()),
            || panic!("boom"),
        )
        .await;
        assert!(matches!(panicked, Err(ApiError::Internal(_))));
    }
}
