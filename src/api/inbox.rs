//! The supplier inbox (issue 36): the messages read (`GET /inbox/messages`), a poll on
//! demand, and the mailbox settings with their test (admins).

use super::client::{get_one, get_page, send_json};
use super::{ApiError, Page};
use gloo_net::http::Method;
use kontor_model::inbox::{
    InboxMessage, InboxMessageState, InboxPoll, InboxSettings, InboxSettingsUpdate, InboxTest,
};

/// GET /inbox/messages, newest first, 50 a page; one state only when `state` is given.
pub async fn list_inbox_messages(
    state: Option<InboxMessageState>,
    page: u32,
) -> Result<Page<InboxMessage>, ApiError> {
    let mut query = vec![
        ("per_page".to_string(), "50".to_string()),
        ("page".to_string(), page.to_string()),
    ];
    if let Some(s) = state {
        query.push(("state".into(), s.as_str().into()));
    }
    get_page("/inbox/messages", &query).await
}

/// POST /inbox/poll: what this poll read (422 when the inbox is not set up, 502 when the
/// mailbox cannot be read, 503 while another server polls).
pub async fn poll_inbox() -> Result<InboxPoll, ApiError> {
    send_json(Method::POST, "/inbox/poll", &serde_json::json!({})).await
}

/// GET /inbox/settings (admins).
pub async fn get_inbox_settings() -> Result<InboxSettings, ApiError> {
    get_one("/inbox/settings", &[]).await
}

/// PUT /inbox/settings (admins): the stored settings, or 422 naming the fields.
pub async fn update_inbox_settings(
    update: &InboxSettingsUpdate,
) -> Result<InboxSettings, ApiError> {
    send_json(Method::PUT, "/inbox/settings", update).await
}

/// POST /inbox/test (admins): the folder's message count, or 502 naming the failed step.
pub async fn test_inbox() -> Result<InboxTest, ApiError> {
    send_json(Method::POST, "/inbox/test", &serde_json::json!({})).await
}
