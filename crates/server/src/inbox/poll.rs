//! One poll of the inbox (issue 36 § The inbox): under the `inbox_poll` lease (one process
//! at a time when several serve one database), sign in, read up to
//! [`mailbox::MAX_PER_POLL`] messages of the folder, and for each one not recorded yet (by
//! `Message-ID` and SHA-256 of its bytes) or recorded as failed: import every e-invoice it
//! carries through the import of `POST /purchases/import`, make a purchase "to be
//! completed" of every PDF without e-invoice data, record the message with its state, and
//! move it to the processed folder — unless it failed, then it stays for the next poll.
//!
//! A message is recorded before it moves, so a crash between the two leaves a recorded
//! message in the folder that the next poll only moves. A crash between an import and the
//! record reads the message again: its e-invoices are then found as duplicates of the
//! purchases made (the import's duplicate rule, supplier and BT-1), so nothing is imported
//! twice.

use super::mailbox::{self, Mailbox};
use super::received::{self, Document, Received};
use super::repo::{self, NewRecord};
use crate::access::auth::Caller;
use crate::http::error::{ApiError, ApiResult};
use crate::state::AppState;
use kontor_model::einvoice_check::DefectClass;
use kontor_model::error::messages;
use kontor_model::inbox::{
    message_state, AttachmentKind, DocumentOutcome, InboxConfig, InboxMessageState, InboxPoll,
    REASON_SEPARATOR,
};
use kontor_model::offer::FileUpload;
use kontor_model::purchase::{NewPurchase, NewPurchaseItem, PaymentMethod};
use sha2::Digest;
use std::sync::Arc;
use std::time::Duration;

/// The lease's name in `job_leases`.
pub const LEASE: &str = "inbox_poll";
/// How long a poll may hold the lease (a poll that takes longer is cut off first).
pub const LEASE_SECONDS: i64 = 600;
/// The longest a whole poll may take.
pub const POLL_BUDGET: Duration = Duration::from_secs(540);
/// How often the enabled inbox is polled.
pub const EVERY: Duration = Duration::from_secs(300);
/// Time budget of reading one message's MIME structure.
const READ_BUDGET: Duration = Duration::from_secs(10);
/// The tag of purchases made from a PDF without e-invoice data.
pub const TO_COMPLETE_TAG: &str = "to be completed";

/// One poll at a time within this process (the lease keeps other processes out).
static POLLING: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// Polls the mailbox of the stored settings once (also when not `enabled`: on demand).
/// Errors: 422 when no server or user is set; 503 while another process polls; 502 when
/// the mailbox cannot be reached, signed in to or read (the sentence names the step); the
/// database's.
pub async fn poll(state: &AppState) -> ApiResult<InboxPoll> {
    let (config, user_id) = repo::load_set_up(&state.pool).await?;
    let _one = POLLING.lock().await;
    let holder = state.process_id.to_string();
    if !crate::work::leases::acquire(&state.pool, LEASE, &holder, LEASE_SECONDS).await? {
        return Err(ApiError::Busy("reading the inbox"));
    }
    let result = tokio::time::timeout(POLL_BUDGET, poll_mailbox(state, &config, user_id)).await;
    let _ = crate::work::leases::release(&state.pool, LEASE, &holder).await;
    match result {
        Ok(r) => r,
        Err(_) => Err(ApiError::BadGateway(format!(
            "The inbox poll took longer than {} seconds and was stopped; the next poll goes on.",
            POLL_BUDGET.as_secs()
        ))),
    }
}

/// The poll's work while holding the lease.
async fn poll_mailbox(
    state: &AppState,
    config: &InboxConfig,
    user_id: Option<i64>,
) -> ApiResult<InboxPoll> {
    let mut mailbox = mailbox::open(config).await.map_err(mailbox::unreachable)?;
    let result = read_folder(state, config, user_id, &mut mailbox).await;
    mailbox::close(mailbox).await;
    result
}

async fn read_folder(
    state: &AppState,
    config: &InboxConfig,
    user_id: Option<i64>,
    mailbox: &mut Mailbox,
) -> ApiResult<InboxPoll> {
    mailbox::select(mailbox, &config.folder)
        .await
        .map_err(mailbox::unreachable)?;
    let listed = mailbox::list(mailbox).await.map_err(mailbox::unreachable)?;
    let mut counts = InboxPoll::default();
    let mut folder_ready = false;
    for message in listed {
        let too_large = message.size > mailbox::MAX_MESSAGE;
        let raw = match mailbox::fetch(mailbox, message.uid, too_large).await {
            Ok(raw) => raw,
            Err(e) => {
                tracing::warn!(error = %e, uid = message.uid, "inbox: a message cannot be read");
                continue;
            }
        };
        let handled = handle(state, user_id, &raw, too_large).await?;
        let Some(state_now) = handled else {
            // A copy of a message recorded before: only moved.
            move_processed(mailbox, config, message.uid, &mut folder_ready).await;
            continue;
        };
        counts.count(state_now);
        if state_now != InboxMessageState::Failed {
            move_processed(mailbox, config, message.uid, &mut folder_ready).await;
        }
    }
    Ok(counts)
}

async fn move_processed(mailbox: &mut Mailbox, config: &InboxConfig, uid: u32, ready: &mut bool) {
    if !*ready {
        mailbox::ensure_folder(mailbox, &config.processed_folder).await;
        *ready = true;
    }
    if let Err(e) = mailbox::move_to(mailbox, uid, &config.processed_folder).await {
        tracing::warn!(error = %e, "inbox: a processed message could not be moved");
    }
}

/// Handles one message's bytes `raw` (only its header when `too_large`): the state it was
/// recorded in, or `None` when it was recorded before in a final state. Errors: the
/// database's when the record cannot be written (the poll stops; the message stays).
async fn handle(
    state: &AppState,
    user_id: Option<i64>,
    raw: &[u8],
    too_large: bool,
) -> ApiResult<Option<InboxMessageState>> {
    let hash = hex::encode(sha2::Sha256::digest(raw));
    let bytes = Arc::new(raw.to_vec());
    let read = crate::work::cpu_work::run(
        crate::work::cpu_work::Kind::Import,
        READ_BUDGET,
        || ApiError::Busy("reading e-mail"),
        move || received::read(&bytes),
    )
    .await;
    // A message that cannot be read now (too many reads at once) is tried again; one
    // that cannot be read at all, or not within the budget, needs a person.
    let mut forced: Option<(InboxMessageState, String)> = None;
    let read = match read {
        Ok(Ok(r)) => r,
        Ok(Err(why)) => {
            forced = Some((InboxMessageState::NeedsReview, why));
            Received::default()
        }
        Err(e) => {
            let again = matches!(e, ApiError::Busy(_));
            forced = Some((
                if again {
                    InboxMessageState::Failed
                } else {
                    InboxMessageState::NeedsReview
                },
                format!("the message could not be read: {}", sentence(&e)),
            ));
            Received::default()
        }
    };
    let existing = repo::find(&state.pool, read.message_id.as_deref(), &hash).await?;
    if matches!(existing, Some((_, s)) if s != InboxMessageState::Failed) {
        return Ok(None);
    }
    let received_at = read.date.unwrap_or_else(crate::store::db::now);
    let (message_state, reason, purchases) = if let Some((s, why)) = forced {
        (s, Some(why), Vec::new())
    } else if too_large {
        (
            InboxMessageState::NeedsReview,
            Some(
                kontor_model::error::messages::INBOX_MESSAGE_TOO_LARGE_N
                    .with([mailbox::MAX_MESSAGE / (1024 * 1024)])
                    .english()
                    .to_string(),
            ),
            Vec::new(),
        )
    } else {
        let owner = user_id.unwrap_or(1);
        let mut outcomes = Vec::new();
        for document in &read.documents {
            outcomes.push(import(state, owner, &read, document, received_at).await);
        }
        let (s, reason, ids) = message_state(&outcomes);
        // What was skipped (too large, too many, a broken ZIP) needs a person too.
        let (s, reason) = if read.skipped.is_empty() {
            (s, reason)
        } else {
            let skipped = read.skipped.join(REASON_SEPARATOR);
            let reason = match (s, reason) {
                (InboxMessageState::Ignored, _) | (_, None) => skipped,
                (_, Some(r)) => format!("{r}{REASON_SEPARATOR}{skipped}"),
            };
            let s = if s == InboxMessageState::Failed {
                s
            } else {
                InboxMessageState::NeedsReview
            };
            (s, Some(reason))
        };
        (s, reason, ids)
    };
    repo::write(
        &state.pool,
        existing.map(|(id, _)| id),
        &NewRecord {
            message_id: read.message_id.as_deref(),
            content_hash: &hash,
            received_at,
            from: &read.from,
            subject: &read.subject,
            state: message_state,
            reason: reason.as_deref(),
            purchase_ids: &purchases,
        },
    )
    .await?;
    Ok(Some(message_state))
}

/// Whether `e` says something about the document (it stays unimported) rather than a
/// passing failure (the message is read again).
fn about_the_document(e: &ApiError) -> bool {
    matches!(e, ApiError::Invalid(..) | ApiError::Refused(_))
}

/// The sentence of a refused document.
fn sentence(e: &ApiError) -> String {
    match e {
        ApiError::Invalid(message, fields) => fields
            .values()
            .flatten()
            .map(|m| m.english().to_string())
            .next()
            .unwrap_or_else(|| message.clone()),
        other => format!("{other:?}"),
    }
}

/// Imports one document of a message.
async fn import(
    state: &AppState,
    owner: i64,
    read: &Received,
    document: &Document,
    received_at: chrono::DateTime<chrono::Utc>,
) -> DocumentOutcome {
    let label = if document.filename.is_empty() {
        "attachment".to_string()
    } else {
        document.filename.clone()
    };
    let bytes = Arc::new(document.bytes.clone());
    let sender = Some(read.from.as_str()).filter(|f| !f.is_empty());
    match crate::purchases::import_bytes(state, &document.filename, bytes, owner, sender).await {
        Ok(crate::purchases::Imported::Created(id, check)) => {
            let rules = || check.rules().join(", ");
            match check.class {
                Some(DefectClass::Formal) => DocumentOutcome::Defective(
                    id,
                    messages::INBOX_FORMAL_DEFECT_N_N
                        .with([label.clone(), rules()])
                        .english()
                        .to_string(),
                ),
                Some(DefectClass::Content) => DocumentOutcome::Defective(
                    id,
                    messages::INBOX_CONTENT_DEFECT_N_N
                        .with([label.clone(), rules()])
                        .english()
                        .to_string(),
                ),
                _ => DocumentOutcome::Imported(id),
            }
        }
        Ok(crate::purchases::Imported::Duplicate(id, _)) => DocumentOutcome::Imported(id),
        Err(e) if about_the_document(&e) && document.kind == AttachmentKind::Pdf => {
            match to_complete(state, owner, read, document, received_at).await {
                Ok(id) => DocumentOutcome::ToComplete(id),
                Err(e) if about_the_document(&e) => {
                    DocumentOutcome::Rejected(format!("{label}: {}", sentence(&e)))
                }
                Err(e) => DocumentOutcome::Failed(format!("{label}: {}", sentence(&e))),
            }
        }
        Err(e) if about_the_document(&e) => {
            DocumentOutcome::Rejected(format!("{label}: {}", sentence(&e)))
        }
        Err(e) => DocumentOutcome::Failed(format!("{label}: {}", sentence(&e))),
    }
}

/// A purchase "to be completed" with the PDF attached: dated the message's day, one
/// position of 0 to fill in, titled by the subject, tagged [`TO_COMPLETE_TAG`]; its info
/// names the sender. Errors: as `POST /purchases`.
async fn to_complete(
    state: &AppState,
    owner: i64,
    read: &Received,
    document: &Document,
    received_at: chrono::DateTime<chrono::Utc>,
) -> ApiResult<i64> {
    use base64::Engine;
    let settings = crate::account::repo::load(&state.pool).await?;
    let title: String = if read.subject.is_empty() {
        document.filename.clone()
    } else {
        read.subject.clone()
    }
    .chars()
    .take(200)
    .collect();
    let filename = if document.filename.is_empty() {
        "document.pdf".to_string()
    } else {
        document.filename.clone()
    };
    let body = NewPurchase {
        date: Some(received_at.date_naive()),
        currency: Some(settings.account.default_currency.clone()),
        payment_method: Some(PaymentMethod::BankTransfer),
        items: Some(vec![NewPurchaseItem {
            title: Some(if title.is_empty() {
                filename.clone()
            } else {
                title.clone()
            }),
            total: Some(rust_decimal::Decimal::ZERO),
            tax: Some(rust_decimal::Decimal::ZERO),
            ..Default::default()
        }]),
        title: Some(title),
        info: Some(format!(
            "From {} on {}: to be completed from the attached PDF.",
            if read.from.is_empty() {
                "an unknown sender"
            } else {
                &read.from
            },
            received_at.format("%Y-%m-%d %H:%M UTC")
        )),
        tags: Some(vec![TO_COMPLETE_TAG.into()]),
        file: Some(FileUpload {
            filename: Some(filename),
            base64: Some(base64::engine::general_purpose::STANDARD.encode(&document.bytes)),
        }),
        ..Default::default()
    };
    let caller = Caller::internal(owner, "inbox");
    crate::purchases::create_purchase(state, &caller, body).await
}

/// The poll every [`EVERY`] while the inbox is enabled; dropping it stops it.
pub struct Every(tokio::task::JoinHandle<()>);

impl Drop for Every {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Starts polling the enabled inbox: first a few seconds after the start (messages that
/// arrived while the server was down), then every [`EVERY`]. Failures are logged.
pub fn spawn_every(state: AppState) -> Every {
    Every(tokio::spawn(async move {
        let start = tokio::time::Instant::now() + Duration::from_secs(5);
        let mut ticker = tokio::time::interval_at(start, EVERY);
        ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticker.tick().await;
            match repo::load_settings(&state.pool).await {
                Ok((config, _)) if config.enabled => {
                    if let Err(e) = poll(&state).await {
                        tracing::warn!(error = ?e, "inbox poll failed");
                    }
                }
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, "inbox: cannot read the settings"),
            }
        }
    }))
}
