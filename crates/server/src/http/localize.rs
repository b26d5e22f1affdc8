//! Error messages in the caller's language (issue 12): a response layer that, for a
//! request with `Accept-Language` preferring German, rewrites the messages of a 422 body
//! (and of a 403, 404, 405, 409 naming a field, 413, 415, 500 and 503 — issue 34 — and the message of a 401 — a failed sign-in — and of a 429 — the sign-in lockout
//! saying when to try again) by their message codes (`error_codes`, and the catalogue message a handler leaves
//! in the response's extensions;
//! `kontor_model::error::messages`). The body's shape does not change; English
//! is the fallback (`docs/decisions.md` § People, sign-in and roles).

use axum::body::Body;
use axum::extract::Request;
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::Response;
use kontor_model::error::{Message, MessageCode};
use kontor_model::error_text::language;

/// Largest 422 body rewritten (bytes); larger ones pass unchanged.
const LIMIT: usize = 256 * 1024;

/// The statuses whose messages are rewritten (issue 34 added the refusals and the 404s:
/// "every refusal message in the user's language").
const TRANSLATED: [StatusCode; 11] = [
    StatusCode::UNPROCESSABLE_ENTITY,
    StatusCode::CONFLICT,
    StatusCode::UNAUTHORIZED,
    StatusCode::TOO_MANY_REQUESTS,
    StatusCode::FORBIDDEN,
    StatusCode::NOT_FOUND,
    StatusCode::METHOD_NOT_ALLOWED,
    StatusCode::PAYLOAD_TOO_LARGE,
    StatusCode::UNSUPPORTED_MEDIA_TYPE,
    StatusCode::SERVICE_UNAVAILABLE,
    StatusCode::INTERNAL_SERVER_ERROR,
];

/// Middleware: German messages of the statuses in [`TRANSLATED`] for `Accept-Language: de`.
pub async fn localize(req: Request, next: Next) -> Response {
    let german_wanted = req
        .headers()
        .get(header::ACCEPT_LANGUAGE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| language(v) == "de");
    let response = next.run(req).await;
    if !german_wanted || !TRANSLATED.contains(&response.status()) {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let sentence = parts.extensions.get::<Message>().map(Message::german);
    let Ok(bytes) = axum::body::to_bytes(body, LIMIT).await else {
        return Response::from_parts(parts, Body::empty());
    };
    let Ok(mut value) = serde_json::from_slice::<serde_json::Value>(&bytes) else {
        return Response::from_parts(parts, Body::from(bytes));
    };
    translate(&mut value, sentence);
    let text = serde_json::to_vec(&value).unwrap_or_else(|_| bytes.to_vec());
    parts.headers.remove(header::CONTENT_LENGTH);
    parts
        .headers
        .insert(header::CONTENT_LANGUAGE, HeaderValue::from_static("de"));
    Response::from_parts(parts, Body::from(text))
}

/// Rewrites `errors` (every message with a code in `error_codes`) and `message` (as
/// `sentence` — the German of the catalogue message the handler left beside the response
/// — or as the summary of the German field messages) of an error body in German, keeping
/// every other key (a 409's `id`, `identifier`) as it is. A message without a code
/// (outside words, `Message::verbatim`) stays as it is.
fn translate(value: &mut serde_json::Value, sentence: Option<String>) {
    let Some(object) = value.as_object_mut() else {
        return;
    };
    let codes = object.get("error_codes").cloned().unwrap_or_default();
    let mut summary = Vec::new();
    let mut single = None;
    if let Some(errors) = object.get_mut("errors").and_then(|e| e.as_object_mut()) {
        for (field, messages) in errors.iter_mut() {
            let Some(list) = messages.as_array_mut() else {
                continue;
            };
            let english_first = list.first().and_then(|m| m.as_str()).map(str::to_string);
            for (i, m) in list.iter_mut().enumerate() {
                if let Some(german) = codes.get(field).and_then(|c| c.get(i)).and_then(german_of) {
                    *m = serde_json::Value::String(german);
                }
            }
            if let Some(first) = list.first().and_then(|m| m.as_str()) {
                if summary.len() < 3 {
                    summary.push(format!("{field} {first}"));
                }
                if let Some(english) = english_first {
                    single = Some((format!("{field} {english}"), format!("{field} {first}")));
                }
            }
        }
    }
    let german_message = if sentence.is_some() {
        sentence
    } else {
        object
            .get("message")
            .and_then(|m| m.as_str())
            .and_then(|message| {
                if message.starts_with("Validation failed: ") && !summary.is_empty() {
                    Some(format!("Ungültige Eingaben: {}", summary.join("; ")))
                } else {
                    // The sentence of a 422 naming one field (`ApiError::field`): "{field} {message}".
                    single
                        .filter(|(english, _)| english == message)
                        .map(|(_, german)| german)
                }
            })
    };
    if let Some(german) = german_message {
        object.insert("message".into(), serde_json::Value::String(german));
    }
}

/// The German text of a wire code `{"code": …, "params": […]}`, `None` for an unknown code.
fn german_of(code: &serde_json::Value) -> Option<String> {
    let code: MessageCode = serde_json::from_value(code.clone()).ok()?;
    Message::from_code(&code.code, code.params).map(|m| m.german())
}
