//! The whole HTTP application: `/api/v1` (authenticated, JSON errors everywhere,
//! including unknown routes and wrong methods), CORS for trusted origins, request tracing,
//! and the browser bundle with fallback to `index.html` for app routes ([`crate::http::bundle`]:
//! precompressed files, cache headers, compressed API answers); Swagger UI at `/api/docs`
//! over `GET /api/v1/openapi.json` ([`crate::http::openapi`]), both without a key.

use crate::http::error::ApiError;
use crate::http::security_headers;
use crate::state::AppState;
use axum::http::{header, HeaderName, HeaderValue, Method};
use axum::routing::{any, post};
use axum::Router;
use std::path::Path;
use tower_http::cors::{AllowOrigin, CorsLayer};
use tower_http::trace::TraceLayer;
use utoipa_axum::router::OpenApiRouter;

async fn not_found() -> ApiError {
    ApiError::not_found("no such route")
}

async fn method_not_allowed() -> ApiError {
    ApiError::MethodNotAllowed
}

/// JSON responses say `application/json; charset=utf-8` (`decisions.md` § Transport).
async fn json_charset(mut response: axum::response::Response) -> axum::response::Response {
    let headers = response.headers_mut();
    if headers
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v == "application/json")
    {
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json; charset=utf-8"),
        );
    }
    response
}

/// Every resource's `router()` merged: the routes of `/api/v1` (relative to it) with their
/// OpenAPI description ([`crate::http::openapi`]). Resource routers are built only with
/// `utoipa_axum::routes!`, so every route has a description.
pub fn api_router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .merge(crate::http::openapi::router())
        .merge(crate::access::session::router())
        .merge(crate::access::password_reset::router())
        .merge(crate::search::router())
        .merge(crate::sent_mail::router())
        .merge(crate::account::router())
        .merge(crate::invoices::router())
        .merge(crate::dashboard::router())
        .merge(crate::recurring::router())
        .merge(crate::invoices::payments::router())
        .merge(crate::reminders::router())
        .merge(crate::reminders::levels::router())
        .merge(crate::billable::activities::router())
        .merge(crate::billable::expenses::router())
        .merge(crate::offers::router())
        .merge(crate::approvals::router())
        .merge(crate::confirmations::router())
        .merge(crate::bank::router())
        .merge(crate::purchases::router())
        .merge(crate::inbox::router())
        .merge(crate::exports::router())
        .merge(crate::events::router())
        .merge(crate::master_data::deals::router())
        .merge(crate::master_data::contacts::router())
        .merge(crate::master_data::companies::router())
        .merge(crate::master_data::projects::router())
        .merge(crate::master_data::articles::router())
        .merge(crate::master_data::text_snippets::router())
        .merge(crate::users::router())
        .merge(crate::users::api_keys::router())
        .merge(crate::proof::audit_events::router())
}

/// The OpenAPI 3.1 description of `/api/v1`: every route of [`api_router`], completed by
/// [`crate::http::openapi::complete`] — what `GET /api/v1/openapi.json` serves.
pub fn openapi_spec() -> utoipa::openapi::OpenApi {
    crate::http::openapi::complete(api_router().split_for_parts().1)
}

/// The `/api/v1` router: [`api_router`] behind [`crate::access::auth::require_key`] (which lets
/// only the public routes of [`crate::access::roles::TABLE`] through without a key and checks
/// every route's role), with JSON errors for unknown routes and wrong methods.
pub fn api(state: AppState) -> Router {
    let (router, description) = api_router().split_for_parts();
    crate::http::openapi::publish(&crate::http::openapi::complete(description));
    router
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        // Inside the key check: a replayed answer is only given to the key that asked.
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            crate::http::idempotency::layer,
        ))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            crate::access::auth::require_key,
        ))
        .layer(axum::middleware::map_response(json_charset))
        .layer(axum::middleware::from_fn(crate::http::localize::localize))
        .layer(crate::http::bundle::api_compression())
        .with_state(state)
}

/// CORS for `origins` (`decisions.md` § Hosting the browser app elsewhere); `None` when
/// no origin besides the server's own is trusted.
pub fn cors(origins: &[String]) -> Option<CorsLayer> {
    let list: Vec<HeaderValue> = origins
        .iter()
        .filter_map(|o| HeaderValue::from_str(o.trim().trim_end_matches('/')).ok())
        .collect();
    if list.is_empty() {
        return None;
    }
    Some(
        CorsLayer::new()
            .allow_origin(AllowOrigin::list(list))
            .allow_methods([
                Method::GET,
                Method::POST,
                Method::PUT,
                Method::PATCH,
                Method::DELETE,
            ])
            .allow_headers([
                header::AUTHORIZATION,
                header::CONTENT_TYPE,
                HeaderName::from_static("idempotency-key"),
            ])
            .expose_headers([
                HeaderName::from_static("x-page"),
                HeaderName::from_static("x-per-page"),
                HeaderName::from_static("x-total"),
                header::LINK,
                header::CONTENT_DISPOSITION,
                HeaderName::from_static("idempotent-replayed"),
            ])
            .max_age(std::time::Duration::from_secs(600)),
    )
}

/// The complete application: API, optional bundle directory, CORS and tracing.
pub fn app(state: AppState, dist: Option<&Path>, cors_origins: &[String]) -> Router {
    let mut app = Router::new()
        .nest("/api/v1", api(state.clone()))
        .merge(
            crate::http::file_routes::router(state)
                .layer(security_headers::csp(security_headers::FILE_POLICY)),
        )
        .route(
            security_headers::REPORT_PATH,
            post(crate::http::csp_report::receive).layer(axum::extract::DefaultBodyLimit::max(
                crate::http::csp_report::MAX_REPORT,
            )),
        )
        // Swagger UI (no key): its routes are more specific than `/api/{*rest}`.
        .merge(
            Router::from(crate::http::openapi::swagger_ui())
                .layer(security_headers::csp(security_headers::DOCS_POLICY)),
        )
        .route("/api", any(not_found))
        .route("/api/{*rest}", any(not_found));
    app = match dist {
        Some(dir) => app.merge(
            crate::http::bundle::router(dir)
                .layer(security_headers::csp(security_headers::bundle_policy())),
        ),
        None => app.fallback(|| async {
            (
                axum::http::StatusCode::NOT_FOUND,
                "The browser bundle is not built; run `trunk build --release`.",
            )
        }),
    };
    // Every response, files above all, says `nosniff` and `Referrer-Policy: same-origin`;
    // what has no policy of its own (the API, its 404s) gets the API's (`docs/decisions.md`
    // § Security headers).
    let app = app
        .layer(security_headers::csp(security_headers::API_POLICY))
        .layer(security_headers::referrer_policy())
        .layer(security_headers::nosniff())
        // Spans name the method and the path only: never headers (keys), bodies
        // (passwords) or the query (password-set tokens, signed file links) — issue 12.
        .layer(TraceLayer::new_for_http().make_span_with(
            |req: &axum::http::Request<axum::body::Body>| {
                tracing::debug_span!("request", method = %req.method(), path = %req.uri().path())
            },
        ));
    match cors(cors_origins) {
        Some(layer) => app.layer(layer),
        None => app,
    }
}
