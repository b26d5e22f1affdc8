//! The server's one error type. Every variant becomes the JSON body of `decisions.md`
//! § Errors: `{"message": "...", "errors": {...}}` (`errors` on 422 only).

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use kontor_model::error::{messages, ErrorBody, FieldErrors, Message};

/// Result alias for handlers.
pub type ApiResult<T> = Result<T, ApiError>;

/// Every way a request can fail, with its HTTP status.
#[derive(Debug)]
pub enum ApiError {
    /// 400: the body is not valid JSON, or a query parameter has the wrong form.
    BadRequest(String),
    /// 401: missing, malformed or unknown credentials (`WWW-Authenticate: Token realm="api"`).
    Unauthorized,
    /// 401 of POST /session: one message for an unknown e-mail, a wrong password, a
    /// deactivated user and a user without password (issue 12).
    SignInFailed,
    /// 403: a read-only key tried to write, the role does not allow it, or a file link is
    /// invalid or expired (the catalogue message says which, in English and German).
    Forbidden(Message),
    /// 404: unknown id or route. The string names what was not found (`"invoice 7"`).
    NotFound(String),
    /// 405: wrong method on a known path.
    MethodNotAllowed,
    /// 413: body larger than the limit (bytes).
    PayloadTooLarge(usize),
    /// 413: an uploaded file over a limit, with the field and why (issue 32: a bank
    /// statement over 16 MiB, a ZIP that expands too far), in the 422's body shape.
    FileTooLarge(String, FieldErrors),
    /// 415: wrong Content-Type; the string names the expected one
    /// (`application/json`, `multipart/form-data`).
    UnsupportedMediaType(&'static str),
    /// 422: invalid fields (path → messages) with a summary sentence.
    Invalid(String, FieldErrors),
    /// 422: a state rule refuses the request (no field to name); the catalogue message
    /// says why, in English and German.
    Refused(Message),
    /// 409: the request would repeat an existing record (a purchase with the same supplier
    /// and receipt number, issue 11 § Polish). The body is the usual one plus `id` and
    /// `identifier` of the existing record.
    Conflict(Box<Conflict>),
    /// 409: the request cannot be repeated (first-run setup once an admin exists); the
    /// sentence says why.
    AlreadyDone(String),
    /// 429: rate limit exceeded; retry after this many seconds.
    TooManyRequests(u64),
    /// 502: the mail server refused the message or could not be reached.
    BadGateway(String),
    /// 503 with `Retry-After: 5`: the database or the file store does not answer right
    /// now (gone away, restarting, overloaded); nothing was written. The first field
    /// names which (`"database"`, `"file store"`), the second is the cause (logged, never
    /// sent). The server recovers by itself when it answers again (issue 16 § Faults).
    Unavailable(&'static str, String),
    /// 503 with `Retry-After: 5`: too much expensive work of this kind is running or
    /// waiting (password checks, PDF renders, reading an e-invoice; `crate::work::cpu_work`);
    /// nothing was done. The field names the work (`"checking passwords"`).
    Busy(&'static str),
    /// 500: an internal error; the cause is logged, never sent.
    Internal(String),
}

/// What a 409 says: the sentence, the field errors, and the existing record.
#[derive(Debug)]
pub struct Conflict {
    /// The sentence ("A purchase with this receipt number from this supplier exists (E2611-0012).").
    pub message: String,
    /// Field path → messages (`receipt_identifier`, or `file` for an import).
    pub errors: FieldErrors,
    /// Id of the existing record.
    pub id: i64,
    /// Number of the existing record (`E2611-0012`).
    pub identifier: String,
}

impl From<kontor_model::totals::TotalsError> for ApiError {
    /// An amount whose total does not fit: 422 naming the field (`docs/decisions.md`
    /// § Amount ranges (issue 8)).
    fn from(e: kontor_model::totals::TotalsError) -> Self {
        let message = e.message();
        ApiError::field(e.field, message)
    }
}

impl ApiError {
    /// A 422 naming one field.
    pub fn field(field: impl Into<String>, message: impl Into<Message>) -> Self {
        let field = field.into();
        let message = message.into();
        let mut errors = FieldErrors::new();
        errors.insert(field.clone(), vec![message.clone()]);
        ApiError::Invalid(format!("{field} {message}"), errors)
    }

    /// A 422 from a validation result; `Ok(())` when `errors` is empty.
    pub fn check(errors: FieldErrors) -> ApiResult<()> {
        if errors.is_empty() {
            return Ok(());
        }
        Err(ApiError::invalid(errors))
    }

    /// A 422 naming the fields of `errors` (the sentence sums up the first three:
    /// "Validation failed: name is required; …").
    pub fn invalid(errors: FieldErrors) -> Self {
        let summary = errors
            .iter()
            .take(3)
            .map(|(f, m)| {
                format!(
                    "{f} {}",
                    m.first().map(Message::english).unwrap_or("is invalid")
                )
            })
            .collect::<Vec<_>>()
            .join("; ");
        ApiError::Invalid(format!("Validation failed: {summary}"), errors)
    }

    /// A 404 for `what` (`"invoice 7"`).
    pub fn not_found(what: impl Into<String>) -> Self {
        ApiError::NotFound(what.into())
    }

    fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::Unauthorized | ApiError::SignInFailed => StatusCode::UNAUTHORIZED,
            ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::PayloadTooLarge(_) | ApiError::FileTooLarge(..) => {
                StatusCode::PAYLOAD_TOO_LARGE
            }
            ApiError::UnsupportedMediaType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiError::Invalid(..) | ApiError::Refused(_) => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::Conflict(_) | ApiError::AlreadyDone(_) => StatusCode::CONFLICT,
            ApiError::TooManyRequests(_) => StatusCode::TOO_MANY_REQUESTS,
            ApiError::BadGateway(_) => StatusCode::BAD_GATEWAY,
            ApiError::Unavailable(..) | ApiError::Busy(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The catalogue message of a fixed sentence (a refused key, a failed sign-in, the rate
    /// limit, a state rule's refusal); `None` for the others.
    fn coded_sentence(&self) -> Option<Message> {
        match self {
            ApiError::Unauthorized => Some(messages::API_KEY_REFUSED.into()),
            ApiError::SignInFailed => Some(messages::SIGN_IN_FAILED.into()),
            ApiError::TooManyRequests(s) => Some(messages::RATE_LIMITED_N_SECONDS.with([s])),
            ApiError::Refused(m) | ApiError::Forbidden(m) => Some(m.clone()),
            ApiError::NotFound(what) => Some(messages::NOT_FOUND_N.with([what])),
            ApiError::MethodNotAllowed => Some(messages::METHOD_NOT_ALLOWED.into()),
            ApiError::PayloadTooLarge(limit) => {
                Some(messages::BODY_LARGER_THAN_N_BYTES.with([limit]))
            }
            ApiError::UnsupportedMediaType(expected) => {
                Some(messages::BODY_MUST_BE_SENT_AS_N.with([expected]))
            }
            ApiError::Unavailable(what, _) => Some(
                messages::UNAVAILABLE_N_N
                    .with([what.to_string(), UNAVAILABLE_RETRY_SECONDS.to_string()]),
            ),
            ApiError::Busy(what) => Some(
                messages::BUSY_N_N.with([what.to_string(), UNAVAILABLE_RETRY_SECONDS.to_string()]),
            ),
            ApiError::Internal(_) => Some(messages::INTERNAL_ERROR.into()),
            _ => None,
        }
    }

    fn body(self) -> ErrorBody {
        let (message, errors) = match self {
            ApiError::BadRequest(m) => (m, None),
            ApiError::Unauthorized | ApiError::SignInFailed => (
                self.coded_sentence()
                    .map(|m| m.to_string())
                    .unwrap_or_default(),
                None,
            ),
            ApiError::Forbidden(_)
            | ApiError::NotFound(_)
            | ApiError::MethodNotAllowed
            | ApiError::PayloadTooLarge(_)
            | ApiError::UnsupportedMediaType(_) => (
                self.coded_sentence()
                    .map(|m| m.to_string())
                    .unwrap_or_default(),
                None,
            ),
            ApiError::Invalid(m, e) | ApiError::FileTooLarge(m, e) => (m, Some(e)),
            ApiError::Refused(m) => (m.to_string(), Some(FieldErrors::new())),
            ApiError::Conflict(c) => (c.message, Some(c.errors)),
            ApiError::AlreadyDone(m) => (m, None),
            ApiError::TooManyRequests(_) => (
                self.coded_sentence()
                    .map(|m| m.to_string())
                    .unwrap_or_default(),
                None,
            ),
            ApiError::BadGateway(m) => (m, None),
            ApiError::Unavailable(..) | ApiError::Busy(_) | ApiError::Internal(_) => (
                self.coded_sentence()
                    .map(|m| m.to_string())
                    .unwrap_or_default(),
                None,
            ),
        };
        ErrorBody::new(message, errors)
    }
}

impl ApiError {
    /// The JSON body this error answers with (for the CLI, which prints refusals).
    pub fn into_response_body(self) -> serde_json::Value {
        serde_json::to_value(self.body()).unwrap_or_default()
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        if let ApiError::Internal(cause) = &self {
            tracing::error!(%cause, "internal error");
        }
        if let ApiError::Unavailable(what, cause) = &self {
            tracing::warn!(%cause, "{what} unavailable");
        }
        let status = self.status();
        if let ApiError::Conflict(c) = self {
            let body = serde_json::json!({
                "message": c.message,
                "error_codes": kontor_model::error::codes_of(&c.errors),
                "errors": c.errors,
                "id": c.id,
                "identifier": c.identifier,
            });
            let mut response = (status, axum::Json(body)).into_response();
            response.headers_mut().insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json; charset=utf-8"),
            );
            return response;
        }
        let retry = match &self {
            ApiError::TooManyRequests(s) => Some(*s),
            ApiError::Unavailable(..) | ApiError::Busy(_) => Some(UNAVAILABLE_RETRY_SECONDS),
            _ => None,
        };
        let coded = self.coded_sentence();
        let mut response = (status, axum::Json(self.body())).into_response();
        if let Some(message) = coded {
            response.extensions_mut().insert(message);
        }
        let headers = response.headers_mut();
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json; charset=utf-8"),
        );
        if status == StatusCode::UNAUTHORIZED {
            headers.insert(
                header::WWW_AUTHENTICATE,
                HeaderValue::from_static("Token realm=\"api\""),
            );
        }
        if let Some(s) = retry {
            headers.insert(header::RETRY_AFTER, HeaderValue::from(s));
        }
        response
    }
}

/// The `Retry-After` of a 503 ([`ApiError::Unavailable`]), in seconds.
pub const UNAVAILABLE_RETRY_SECONDS: u64 = 5;

/// Whether `e` means the database does not answer right now (rather than refusing this
/// request): no connection within the pool's timeout, a closed pool, a broken link;
/// SQLite's busy, locked, I/O, full or cannot-open codes; PostgreSQL's connection
/// exceptions (SQLSTATE class `08`), a server shutting down or starting (`57P01`–`57P03`),
/// too many connections (`53300`), and a transaction the server gave up to let another
/// through (`40001` serialization failure, `40P01` deadlock), which a retry settles.
pub fn is_unavailable(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::PoolTimedOut
        | sqlx::Error::PoolClosed
        | sqlx::Error::Io(_)
        | sqlx::Error::WorkerCrashed => true,
        sqlx::Error::Database(d) => {
            if let Some(pg) = d.try_downcast_ref::<sqlx::postgres::PgDatabaseError>() {
                let code = pg.code();
                return code.starts_with("08")
                    || matches!(
                        code,
                        "57P01" | "57P02" | "57P03" | "53300" | "40001" | "40P01"
                    );
            }
            d.code()
                .and_then(|c| c.parse::<i64>().ok())
                // The primary result code is the low byte of SQLite's extended code.
                .is_some_and(|c| matches!(c & 0xff, 5 | 6 | 10 | 13 | 14))
        }
        _ => false,
    }
}

impl From<sqlx::Error> for ApiError {
    fn from(e: sqlx::Error) -> Self {
        if is_unavailable(&e) {
            ApiError::Unavailable("database", e.to_string())
        } else {
            ApiError::Internal(format!("database: {e}"))
        }
    }
}

/// Whether `e` is SQLite's foreign-key violation (a referenced row vanished, or a row
/// still referenced was deleted).
pub fn is_foreign_key_violation(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(d) if d.kind() == sqlx::error::ErrorKind::ForeignKeyViolation)
}

/// A mapper for `.map_err`: a foreign-key violation becomes `refusal` (a 422 naming the
/// field the reference came from), every other database error a 500.
pub fn on_foreign_key(refusal: ApiError) -> impl FnOnce(sqlx::Error) -> ApiError {
    move |e| {
        if is_foreign_key_violation(&e) {
            refusal
        } else {
            ApiError::from(e)
        }
    }
}

impl From<kontor_model::query::QueryError> for ApiError {
    fn from(e: kontor_model::query::QueryError) -> Self {
        ApiError::BadRequest(format!("Query parameter {} {}.", e.param, e.message))
    }
}
