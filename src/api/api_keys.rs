//! API keys (admin, issue 12): list, create (the secret is answered once) and revoke.

use super::client::{delete_empty, get_one, send_json};
use super::ApiError;
use gloo_net::http::Method;
use kontor_model::users::{ApiKey, NewApiKey};

/// GET /api_keys: every key, never a secret.
pub async fn list_api_keys() -> Result<Vec<ApiKey>, ApiError> {
    get_one("/api_keys", &[]).await
}

/// POST /api_keys: the new key with its secret in `api_key` (shown only now).
pub async fn create_api_key(name: &str, read_only: bool) -> Result<ApiKey, ApiError> {
    send_json(
        Method::POST,
        "/api_keys",
        &NewApiKey {
            name: Some(name.trim().to_string()),
            read_only: Some(read_only),
        },
    )
    .await
}

/// DELETE /api_keys/{id}: revokes the key (it fails at once).
pub async fn revoke_api_key(id: i64) -> Result<(), ApiError> {
    delete_empty(&format!("/api_keys/{id}")).await
}
