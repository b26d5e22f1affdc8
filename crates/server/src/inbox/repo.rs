//! The inbox's rows (issue 36): the settings (`inbox_settings`, one row with id 1) and
//! the record of every message read (`inbox_messages`).

use crate::store::db::{now, ts, Ts};
use kontor_model::inbox::{InboxConfig, InboxMessage, InboxMessageState, InboxSecurity};

/// The stored settings and the admin who saved them; the defaults (disabled, nothing
/// set) before the first save. Errors: the database's.
pub async fn load_settings(
    pool: &crate::sql::Db,
) -> Result<(InboxConfig, Option<i64>), sqlx::Error> {
    type Row = (
        bool,
        String,
        i64,
        String,
        String,
        Option<String>,
        String,
        String,
        Option<i64>,
    );
    let row: Option<Row> = crate::sql::query_as(
        "SELECT enabled, host, port, security, username, password, folder, processed_folder, user_id \
         FROM inbox_settings WHERE id = 1",
    )
    .fetch_optional(pool)
    .await?;
    Ok(match row {
        None => (InboxConfig::default(), None),
        Some((enabled, host, port, security, user, password, folder, processed, user_id)) => (
            InboxConfig {
                enabled,
                host,
                port: u16::try_from(port).unwrap_or(0),
                security: InboxSecurity::parse(&security).unwrap_or_default(),
                user,
                password,
                folder,
                processed_folder: processed,
            },
            user_id,
        ),
    })
}

/// The stored settings ([`load_settings`]) when a server and a user are set. Errors: 422
/// `inbox_not_set_up` otherwise; the database's.
pub async fn load_set_up(
    pool: &crate::sql::Db,
) -> crate::http::error::ApiResult<(InboxConfig, Option<i64>)> {
    let (config, user_id) = load_settings(pool).await?;
    if config.host.is_empty() || config.user.is_empty() {
        return Err(crate::http::error::ApiError::Refused(
            kontor_model::error::messages::INBOX_NOT_SET_UP.into(),
        ));
    }
    Ok((config, user_id))
}

/// Stores `config`, saved by user `user_id`. Errors: the database's.
pub async fn save_settings(
    pool: &crate::sql::Db,
    config: &InboxConfig,
    user_id: i64,
) -> Result<(), sqlx::Error> {
    crate::sql::query(
        "INSERT INTO inbox_settings (id, enabled, host, port, security, username, password, folder, \
         processed_folder, user_id, updated_at) VALUES (1, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10) \
         ON CONFLICT (id) DO UPDATE SET enabled = excluded.enabled, host = excluded.host, \
         port = excluded.port, security = excluded.security, username = excluded.username, \
         password = excluded.password, folder = excluded.folder, \
         processed_folder = excluded.processed_folder, user_id = excluded.user_id, \
         updated_at = excluded.updated_at",
    )
    .bind(config.enabled)
    .bind(&config.host)
    .bind(i64::from(config.port))
    .bind(config.security.as_str())
    .bind(&config.user)
    .bind(config.password.as_deref())
    .bind(&config.folder)
    .bind(&config.processed_folder)
    .bind(user_id)
    .bind(ts(now()))
    .execute(pool)
    .await?;
    Ok(())
}

/// The columns of [`MessageRow`], for the list and single reads.
pub const COLUMNS: &str =
    "m.id, m.message_id, m.received_at, m.sender, m.subject, m.state, m.reason, m.purchase_ids";

/// One row of `inbox_messages` as listed.
#[derive(sqlx_macros::FromRow)]
pub struct MessageRow {
    id: i64,
    message_id: Option<String>,
    received_at: Ts,
    sender: String,
    subject: String,
    state: String,
    reason: Option<String>,
    purchase_ids: String,
}

impl From<MessageRow> for InboxMessage {
    fn from(r: MessageRow) -> Self {
        InboxMessage {
            id: r.id,
            message_id: r.message_id,
            received_at: r.received_at.0,
            from: r.sender,
            subject: r.subject,
            state: InboxMessageState::parse(&r.state).unwrap_or(InboxMessageState::Failed),
            reason: r.reason,
            purchase_ids: serde_json::from_str(&r.purchase_ids).unwrap_or_default(),
            checks: Vec::new(),
        }
    }
}

/// The record of a message already read with this `Message-ID` or content hash: its id
/// and state. Errors: the database's.
pub async fn find(
    pool: &crate::sql::Db,
    message_id: Option<&str>,
    content_hash: &str,
) -> Result<Option<(i64, InboxMessageState)>, sqlx::Error> {
    let row: Option<(i64, String)> = crate::sql::query_as(
        "SELECT id, state FROM inbox_messages WHERE content_hash = $1 \
         OR (message_id IS NOT NULL AND message_id = $2) ORDER BY id LIMIT 1",
    )
    .bind(content_hash)
    .bind(message_id)
    .fetch_optional(pool)
    .await?;
    Ok(row.map(|(id, state)| {
        (
            id,
            InboxMessageState::parse(&state).unwrap_or(InboxMessageState::Failed),
        )
    }))
}

/// A message's record as written.
pub struct NewRecord<'a> {
    /// `Message-ID`, if any.
    pub message_id: Option<&'a str>,
    /// SHA-256 of the message's bytes (hex).
    pub content_hash: &'a str,
    /// Its date (or when it was read).
    pub received_at: chrono::DateTime<chrono::Utc>,
    /// Sender address.
    pub from: &'a str,
    /// Subject.
    pub subject: &'a str,
    /// What became of it.
    pub state: InboxMessageState,
    /// Why, when not imported.
    pub reason: Option<&'a str>,
    /// The purchases made from it.
    pub purchase_ids: &'a [i64],
}

/// Writes the record `new`, over record `existing` (a failed message read again) when
/// given. Errors: the database's.
pub async fn write(
    pool: &crate::sql::Db,
    existing: Option<i64>,
    new: &NewRecord<'_>,
) -> Result<(), sqlx::Error> {
    let ids = serde_json::to_string(new.purchase_ids).unwrap_or_else(|_| "[]".into());
    let at = ts(now());
    match existing {
        Some(id) => {
            crate::sql::query(
                "UPDATE inbox_messages SET state = $1, reason = $2, purchase_ids = $3, \
                 sender = $4, subject = $5, received_at = $6, updated_at = $7 WHERE id = $8",
            )
            .bind(new.state.as_str())
            .bind(new.reason)
            .bind(&ids)
            .bind(new.from)
            .bind(new.subject)
            .bind(ts(new.received_at))
            .bind(at)
            .bind(id)
            .execute(pool)
            .await?;
        }
        None => {
            crate::sql::query(
                "INSERT INTO inbox_messages (message_id, content_hash, received_at, sender, subject, \
                 state, reason, purchase_ids, created_at, updated_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)",
            )
            .bind(new.message_id)
            .bind(new.content_hash)
            .bind(ts(new.received_at))
            .bind(new.from)
            .bind(new.subject)
            .bind(new.state.as_str())
            .bind(new.reason)
            .bind(&ids)
            .bind(at)
            .execute(pool)
            .await?;
        }
    }
    Ok(())
}

/// Fills each message's `checks` from its purchases' stored e-invoice checks (issue 36):
/// one lookup by primary key per purchase of the page (at most a page of messages times the
/// documents of each). Errors: the database's.
pub async fn add_checks(
    pool: &crate::sql::Db,
    messages: &mut [kontor_model::inbox::InboxMessage],
) -> Result<(), sqlx::Error> {
    use kontor_model::einvoice_check::EinvoiceCheck;
    use kontor_model::inbox::InboxDocumentCheck;
    for message in messages.iter_mut() {
        for id in &message.purchase_ids {
            let stored: Option<Option<String>> =
                crate::sql::query_scalar("SELECT einvoice_check FROM purchases WHERE id = $1")
                    .bind(id)
                    .fetch_optional(pool)
                    .await?;
            let Some(check) = stored
                .flatten()
                .and_then(|c| serde_json::from_str::<EinvoiceCheck>(&c).ok())
            else {
                continue;
            };
            let rules = check.rules().into_iter().map(str::to_string).collect();
            message.checks.push(InboxDocumentCheck {
                purchase_id: *id,
                valid: check.valid,
                class: check.class,
                rules,
            });
        }
    }
    Ok(())
}
