//! `/inbox`: the supplier inbox (issue 36 § The inbox; `docs/decisions.md` § Supplier
//! inbox). An IMAP mailbox the business already has (`GET/PUT /inbox/settings`, admins;
//! `POST /inbox/test`), polled every 5 minutes while enabled and on demand (`POST
//! /inbox/poll`), one process at a time ([`poll`]); every message read is recorded
//! (`GET /inbox/messages`).

pub mod mailbox;
pub mod poll;
pub mod received;
pub mod repo;

use crate::http::caller_context::CallerContext;
use crate::http::error::{ApiError, ApiResult};
use crate::http::extract::JsonBody;
use crate::http::pagination::PageOf;
use crate::lists::{ListQuery, Listing};
use crate::state::AppState;
use axum::extract::State;
use axum::Json;
use kontor_model::inbox::{
    merge_inbox_settings, InboxMessage, InboxMessageState, InboxPoll, InboxSettings,
    InboxSettingsUpdate, InboxTest,
};
use kontor_model::query::one;
use serde::Deserialize;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// Routes `/inbox/settings`, `/inbox/test`, `/inbox/poll`, `/inbox/messages`.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(get_settings, put_settings))
        .routes(routes!(test))
        .routes(routes!(poll_now))
        .routes(routes!(list))
}

/// The inbox settings.
///
/// GET /inbox/settings → 200 `{enabled, host, port, security, user, password_set, folder,
/// processed_folder}` (admins; the password is never shown).
#[utoipa::path(get, path = "/inbox/settings", operation_id = "inbox_settings_get", tag = "inbox",
    responses((status = 200, description = "The inbox settings (the password only as `password_set`).", body = InboxSettings)))]
async fn get_settings(State(state): State<AppState>) -> ApiResult<Json<InboxSettings>> {
    let (config, _) = repo::load_settings(&state.pool).await?;
    Ok(Json(config.view()))
}

/// Change the inbox settings.
///
/// PUT /inbox/settings with the fields to change → 200 with the settings. `password`
/// absent keeps the stored one, `""` removes it. Errors: 422 naming the field (`host`,
/// `port`, `user`, `password`, `folder`, `processed_folder`; enabled settings need a
/// host and a user); 403 for non-admins.
#[utoipa::path(put, path = "/inbox/settings", operation_id = "inbox_settings_update", tag = "inbox",
    request_body = InboxSettingsUpdate,
    responses((status = 200, description = "The settings as stored.", body = InboxSettings)))]
async fn put_settings(
    CallerContext(state, caller, _): CallerContext,
    JsonBody(update): JsonBody<InboxSettingsUpdate>,
) -> ApiResult<Json<InboxSettings>> {
    let (stored, _) = repo::load_settings(&state.pool).await?;
    let next = merge_inbox_settings(&stored, &update).map_err(ApiError::invalid)?;
    repo::save_settings(&state.pool, &next, caller.user_id).await?;
    Ok(Json(next.view()))
}

/// Try the inbox settings.
///
/// POST /inbox/test → 200 `{ok: true, messages}` after connecting, signing in and opening
/// the folder with the stored settings. Errors: 422 when no server or user is set; 502
/// saying which step failed (connecting, TLS, signing in, the folder) — never the
/// password; 403 for non-admins.
#[utoipa::path(post, path = "/inbox/test", operation_id = "inbox_test", tag = "inbox",
    responses((status = 200, description = "The mailbox was reached and the folder opened.", body = InboxTest),
        (status = 502, description = "What failed: connecting, TLS, signing in or opening the folder.", body = kontor_model::error::ErrorBody)))]
async fn test(State(state): State<AppState>) -> ApiResult<Json<InboxTest>> {
    let (config, _) = repo::load_set_up(&state.pool).await?;
    let mut mailbox = mailbox::open(&config).await.map_err(mailbox::unreachable)?;
    let selected = mailbox::select(&mut mailbox, &config.folder).await;
    mailbox::close(mailbox).await;
    Ok(Json(InboxTest {
        ok: true,
        messages: selected.map_err(mailbox::unreachable)?,
    }))
}

/// Poll the inbox now.
///
/// POST /inbox/poll → 200 `{messages, imported, needs_review, ignored, failed}` of this
/// poll (also when the inbox is not enabled: then only on demand). Errors: 422 when no
/// server or user is set; 502 when the mailbox cannot be read (the step named); 503 while
/// another process polls; 403 for read-only keys.
#[utoipa::path(post, path = "/inbox/poll", operation_id = "inbox_poll", tag = "inbox",
    responses((status = 200, description = "What this poll read and what became of it.", body = InboxPoll),
        (status = 502, description = "The mailbox cannot be reached, signed in to or read.", body = kontor_model::error::ErrorBody)))]
async fn poll_now(State(state): State<AppState>) -> ApiResult<Json<InboxPoll>> {
    poll::poll(&state).await.map(Json)
}

/// `GET /inbox/messages` filters.
#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[serde(default)]
#[into_params(parameter_in = Query)]
struct MessageQuery {
    /// `imported`, `needs_review`, `ignored` or `failed`; else 400.
    #[serde(deserialize_with = "one")]
    state: Option<InboxMessageState>,
}

/// GET /inbox/messages → one page of the messages read, newest first (by `received_at`),
/// each with the check result of its e-invoices (`checks`, issue 36); filter `state`. Errors: 400 for a malformed filter.
#[utoipa::path(get, path = "/inbox/messages", operation_id = "inbox_messages_list", tag = "inbox",
    params(kontor_model::query::ListParams, MessageQuery),
    responses((status = 200, description = "One page of the inbox's messages", body = Vec<InboxMessage>)))]
async fn list(
    State(state): State<AppState>,
    list: ListQuery<MessageQuery>,
) -> ApiResult<PageOf<InboxMessage>> {
    let wanted = list.filter.state;
    let listing = Listing {
        columns: repo::COLUMNS,
        from: "FROM inbox_messages m",
        alias: "m",
        custom_properties: false,
        sorts: &[
            ("received_at", "m.received_at"),
            ("created_at", "m.created_at"),
            ("updated_at", "m.updated_at"),
        ],
        default_order: "m.received_at DESC, m.id DESC",
        id: "m.id",
    };
    let mut page = list
        .fetch::<repo::MessageRow, InboxMessage>(&state.pool, &listing, |qb| {
            qb.push(" WHERE TRUE");
            if let Some(s) = wanted {
                qb.push(" AND m.state = ").push_bind(s.as_str());
            }
        })
        .await?;
    repo::add_checks(&state.pool, &mut page.items).await?;
    Ok(page)
}
