//! Request extractors whose every rejection is an [`ApiError`] with the JSON error body
//! (`decisions.md` § Errors): JSON bodies, raw query pairs and numeric path ids.

use crate::http::error::ApiError;
use axum::extract::{FromRequest, FromRequestParts, Multipart, Request};
use axum::http::{header, request::Parts, StatusCode};
use kontor_model::error::{messages, Message};
use serde::de::DeserializeOwned;

/// Checks that a request body is sent as `multipart/form-data` (by its `Content-Type`,
/// any case). Errors: 415 naming `multipart/form-data`.
pub fn require_multipart(headers: &axum::http::HeaderMap) -> Result<(), ApiError> {
    let is_multipart = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.to_ascii_lowercase().starts_with("multipart/form-data"));
    if !is_multipart {
        return Err(ApiError::UnsupportedMediaType("multipart/form-data"));
    }
    Ok(())
}

/// The part named `file` of a multipart body (the last one when there are several): its
/// file name as sent ("" when none) and its bytes. Errors: `too_large()` when the body
/// exceeds the route's limit, 400 when the body cannot be read, 422 on `file` when there
/// is no such part.
pub async fn file_part(
    multipart: &mut Multipart,
    too_large: impl Fn() -> ApiError,
) -> Result<(String, Vec<u8>), ApiError> {
    let mut upload = None;
    while let Some(field) = multipart.next_field().await.map_err(|e| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            too_large()
        } else {
            ApiError::BadRequest(format!("The multipart body cannot be read: {e}."))
        }
    })? {
        if field.name() == Some("file") {
            let filename = field.file_name().unwrap_or("").to_string();
            let bytes = field.bytes().await.map_err(|_| too_large())?;
            upload = Some((filename, bytes.to_vec()));
        }
    }
    upload.ok_or_else(|| ApiError::field("file", messages::IS_REQUIRED_MULTIPART_FILE))
}

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

/// serde_json's private map key under which an `arbitrary_precision` number reaches a
/// deserializer; it shows up as a path segment (`tax.$serde_json::private::Number`).
const NUMBER_SEGMENT: &str = "$serde_json::private::Number";

/// The field path of a deserialization error as the 422 names it: `items[2].unit_price`;
/// serde_json's number token is dropped and the root is `body`.
fn field_path(path: &serde_path_to_error::Path) -> String {
    let text = path.to_string();
    let text = text
        .replace(&format!(".{NUMBER_SEGMENT}"), "")
        .replace(NUMBER_SEGMENT, "");
    if text == "." || text.is_empty() {
        "body".to_string()
    } else {
        text
    }
}

/// serde reports a missing field at its parent (`missing field \`status\`` at `body`);
/// the 422 names the field itself (`status`, `items[0].title`) with "is required".
/// Other errors keep `field` and `message`.
pub fn missing_field(field: String, message: &str) -> (String, Message) {
    match message
        .strip_prefix("missing field `")
        .and_then(|rest| rest.split('`').next())
    {
        Some(name) if field == "body" => (name.to_string(), messages::IS_REQUIRED.into()),
        Some(name) => (format!("{field}.{name}"), messages::IS_REQUIRED.into()),
        None => (field, Message::from_english(message)),
    }
}

/// Parses `bytes` as `T`. Only a body that is not JSON at all is a 400; a well-formed JSON
/// body with a value of the wrong type or out of range (`"type": 1`, `"tax": "12.5"`,
/// `"tax": 1e308`, `"date": "2026-1-1"`) is a 422 naming the field.
pub fn parse_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let result: Result<T, _> = serde_path_to_error::deserialize(&mut de);
    let value = result.map_err(|e| {
        let field = field_path(e.path());
        let inner = e.into_inner();
        let is_type_error = match inner.classify() {
            serde_json::error::Category::Data => true,
            // serde_json reports a number or a list where an enum is expected as a syntax
            // error ("expected ident"); the body is valid JSON, so it is the field's type.
            serde_json::error::Category::Syntax => {
                serde_json::from_slice::<serde::de::IgnoredAny>(bytes).is_ok()
            }
            _ => false,
        };
        if !is_type_error {
            return ApiError::BadRequest(format!("Request body is not valid JSON: {inner}."));
        }
        let message = inner.to_string();
        let message = message.split(" at line ").next().unwrap_or(&message);
        let message = match message {
            "expected ident" | "expected value" => "has the wrong type for this field",
            m => m,
        };
        let (field, message) = missing_field(field, message);
        ApiError::field(field, message)
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
///
/// In the API description a route names it once, `params(IdPath)`: the path parameter
/// `id`, a 64-bit integer, the record the path names (the path's resource says which).
pub struct IdPath(pub i64);

impl utoipa::IntoParams for IdPath {
    fn into_params(
        _parameter_in_provider: impl Fn() -> Option<utoipa::openapi::path::ParameterIn>,
    ) -> Vec<utoipa::openapi::path::Parameter> {
        use utoipa::openapi::path::{ParameterBuilder, ParameterIn};
        use utoipa::openapi::schema::{KnownFormat, ObjectBuilder, SchemaFormat, Type};
        vec![ParameterBuilder::new()
            .name("id")
            .parameter_in(ParameterIn::Path)
            .required(utoipa::openapi::Required::True)
            .description(Some(
                "The record's id, named by the path's resource; an unknown id is a 404.",
            ))
            .schema(Some(
                ObjectBuilder::new()
                    .schema_type(Type::Integer)
                    .format(Some(SchemaFormat::KnownFormat(KnownFormat::Int64))),
            ))
            .build()]
    }
}

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

#[cfg(test)]
mod missing_field_tests {
    use super::*;

    #[test]
    fn a_missing_field_is_named() {
        assert_eq!(
            missing_field("body".into(), "missing field `status`"),
            ("status".into(), messages::IS_REQUIRED.into())
        );
        assert_eq!(
            missing_field("items[0]".into(), "missing field `title`"),
            ("items[0].title".into(), messages::IS_REQUIRED.into())
        );
        assert_eq!(
            missing_field("tax".into(), "invalid type: string"),
            ("tax".into(), Message::verbatim("invalid type: string"))
        );
    }
}
