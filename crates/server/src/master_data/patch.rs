//! The partial update (`PUT`) every master-data resource shares: the patch's values are
//! read as the creation body first, then merged onto the stored record
//! ([`kontor_model::master_data::merge_patch`]).

use crate::http::error::{ApiError, ApiResult};
use kontor_model::master_data::merge_patch;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

/// Reads `patch` (a `PUT` body) as the creation body `N`, so that a value of the wrong
/// type is named before anything is loaded. Errors: as
/// [`crate::http::extract::parse_json`] (400 for a body that is not JSON, 422 naming the
/// field).
pub fn check_patch_types<N: DeserializeOwned>(patch: &Value) -> ApiResult<()> {
    let _typed: N = crate::http::extract::parse_json(patch.to_string().as_bytes())?;
    Ok(())
}

/// The body `stored` becomes with `patch` merged onto it (absent: unchanged; `null`:
/// cleared, except the `keep_on_null` fields). Errors: 400 `Request body: ….` when
/// `patch` is not an object or the merged record does not read as `N`.
pub fn merged_body<N: Serialize + DeserializeOwned>(
    stored: &N,
    patch: &Value,
    keep_on_null: &[&str],
) -> ApiResult<N> {
    merge_patch(stored, patch, keep_on_null)
        .map_err(|m| ApiError::BadRequest(format!("Request body: {m}.")))
}
