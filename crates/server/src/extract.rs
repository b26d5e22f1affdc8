//! Request extractors whose every rejection is an [`ApiError`] with the JSON error body
//! (`decisions.md` § Errors): JSON bodies, raw query pairs and numeric path ids.

use crate::error::ApiError;
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::{header, request::Parts};
use serde::de::DeserializeOwned;

/// Largest JSON body without a file (1 MiB).
pub const JSON_LIMIT: usize = 1024 * 1024;
/// Largest JSON body carrying a file (16 MiB).
pub const UPLOAD_LIMIT: usize = 16 * 1024 * 1024;

/// A JSON body of at most `LIMIT` bytes, read without ever going through `f64`.
///
/// Rejections: 415 when the Content-Type is not `application/json`, 413 beyond `LIMIT`,
/// 400 for malformed JSON, 422 naming the field for a value of the wrong type.
pub struct JsonBody<T, const LIMIT: usize = JSON_LIMIT>(pub T);

/// Like [`JsonBody`] but an empty body (with or without Content-Type) reads as `None`.
pub struct OptionalJsonBody<T>(pub Option<T>);

fn is_json(req: &Request) -> bool {
    req.headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|mime| {
            let mime = mime.trim().to_ascii_lowercase();
            mime == "application/json"
                || (mime.starts_with("application/") && mime.ends_with("+json"))
        })
}

async fn read_body(req: Request, limit: usize) -> Result<axum::body::Bytes, ApiError> {
    axum::body::to_bytes(req.into_body(), limit)
        .await
        .map_err(|_| ApiError::PayloadTooLarge(limit))
}

/// Parses `bytes` as `T`: syntax errors are 400, type errors 422 with the field path.
pub fn parse_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let result: Result<T, _> = serde_path_to_error::deserialize(&mut de);
    let value = result.map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        match inner.classify() {
            serde_json::error::Category::Data => {
                let field = if path == "." || path.is_empty() {
                    "body".to_string()
                } else {
                    path
                };
                let message = inner.to_string();
                let message = message
                    .split(" at line ")
                    .next()
                    .unwrap_or(&message)
                    .to_string();
                ApiError::field(field, message)
            }
            _ => ApiError::BadRequest(format!("Request body is not valid JSON: {inner}.")),
        }
    })?;
    de.end()
        .map_err(|e| ApiError::BadRequest(format!("Request body is not valid JSON: {e}.")))?;
    Ok(value)
}

impl<S: Send + Sync, T: DeserializeOwned, const LIMIT: usize> FromRequest<S>
    for JsonBody<T, LIMIT>
{
    type Rejection = ApiError;

    async fn from_request(req: Request, _state: &S) -> Result<Self, Self::Rejection> {
        if !is_json(&req) {
            return Err(ApiError::UnsupportedMediaType("application/json"));
        }
        let bytes = read_body(req, LIMIT).await?;
        parse_json(&bytes).map(JsonBody)
    }
}

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for OptionalJsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, _state: &S) -> Result<Self, Self::Rejection> {
        let json = is_json(&req);
        let bytes = read_body(req, JSON_LIMIT).await?;
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(OptionalJsonBody(None));
        }
        if !json {
            return Err(ApiError::UnsupportedMediaType("application/json"));
        }
        parse_json(&bytes).map(|v| OptionalJsonBody(Some(v)))
    }
}

/// The raw query string decoded into `(name, value)` pairs, in order, repeats kept.
pub struct QueryPairs(pub Vec<(String, String)>);

impl QueryPairs {
    /// Borrowed pairs for the model's `from_pairs` parsers.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.0.iter().map(|(a, b)| (a.as_str(), b.as_str()))
    }

    /// The first value of `name`.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

impl<S: Send + Sync> FromRequestParts<S> for QueryPairs {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        let query = parts.uri.query().unwrap_or("");
        Ok(QueryPairs(
            form_urlencoded::parse(query.as_bytes())
                .into_owned()
                .collect(),
        ))
    }
}

/// A numeric `{id}` path segment; anything else is a 404 (no such record).
pub struct IdPath(pub i64);

impl<S: Send + Sync> FromRequestParts<S> for IdPath {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let axum::extract::Path(raw) =
            axum::extract::Path::<String>::from_request_parts(parts, state)
                .await
                .map_err(|_| ApiError::not_found(parts.uri.path().to_string()))?;
        raw.parse::<i64>()
            .map(IdPath)
            .map_err(|_| ApiError::not_found(parts.uri.path().to_string()))
    }
}
