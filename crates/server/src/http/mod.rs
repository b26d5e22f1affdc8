//! The HTTP edge of the server: the routers and what every request passes through —
//! the app bundle and the API description, security headers, body and path extractors,
//! the one error type, paging headers, German messages, trusted link origins and
//! idempotent replays.

pub mod bundle;
pub mod caller_context;
pub mod csp_report;
pub mod error;
pub mod extract;
pub mod file_routes;
pub mod idempotency;
pub mod links;
pub mod localize;
pub mod openapi;
pub mod pagination;
pub mod request_claim;
pub mod routes;
pub mod security_headers;
pub mod write_request;
