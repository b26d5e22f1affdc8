//! Serving the browser bundle and compressing API answers (issue 13 § Serve compressed
//! and cache right; `docs/decisions.md` § Compression and caching).
//!
//! - The release build writes `.br` and `.gz` copies beside every bundle file
//!   (`scripts/precompress.sh`, trunk's `post_build` hook); the bundle service answers with
//!   the copy the client accepts (`Accept-Encoding`, brotli first), so serving costs no
//!   compression work per request. A file without copies is served as it is.
//! - File names with trunk's content hash (`app-1a2b3c4d5e6f7a8b.js`) never change their
//!   content: `Cache-Control: public, max-age=31536000, immutable`. Everything else —
//!   `index.html` and the app routes that fall back to it — is `no-cache`, so a new
//!   release is seen on the next visit.
//! - API JSON answers above [`API_COMPRESS_ABOVE`] bytes are compressed on the fly
//!   (brotli or gzip by `Accept-Encoding`); PDFs, archives and small answers are not.

use axum::extract::Request;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Router;
use std::path::Path;
use tower::ServiceExt;
use tower_http::compression::predicate::{Predicate, SizeAbove};
use tower_http::compression::CompressionLayer;
use tower_http::services::{ServeDir, ServeFile};

/// Smallest API answer body (bytes) that is compressed; smaller ones gain nothing.
pub const API_COMPRESS_ABOVE: u16 = 1024;

/// `Cache-Control` of content-hashed bundle files (one year, never revalidated).
pub const IMMUTABLE: &str = "public, max-age=31536000, immutable";

/// `Cache-Control` of everything else the bundle service answers (revalidate each time).
pub const NO_CACHE: &str = "no-cache";

/// Whether `path`'s file name carries a content hash as trunk writes it: the part of the
/// name before the first `.` (and before a `_bg` suffix) ends in `-` and 8–16 lowercase
/// hexadecimal digits (`kontor-app-78c9f429ebb46889_bg.wasm`, `base-17f5097046d8305a.css`).
/// `index.html`, `app.js` and names with other suffixes are not hashed.
pub fn is_hashed_asset(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    let stem = name.split('.').next().unwrap_or(name);
    let stem = stem.strip_suffix("_bg").unwrap_or(stem);
    match stem.rsplit_once('-') {
        Some((base, hash)) => {
            !base.is_empty()
                && (8..=16).contains(&hash.len())
                && hash
                    .bytes()
                    .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
        }
        None => false,
    }
}

/// Middleware of the bundle service: the `Cache-Control` of [`is_hashed_asset`] for
/// successful answers and `Vary: Accept-Encoding` (the precompressed copies differ by it).
async fn cache_control(request: Request, next: Next) -> Response {
    let hashed = is_hashed_asset(request.uri().path());
    let mut response = next.run(request).await;
    let status = response.status();
    let headers = response.headers_mut();
    if status.is_success() || status == StatusCode::NOT_MODIFIED {
        let value = if hashed { IMMUTABLE } else { NO_CACHE };
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(value));
    }
    if !headers.contains_key(header::VARY) {
        headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    }
    response
}

/// Whether `path` names a file rather than an app route: its last segment has a `.`
/// (`/kontor-app-….wasm`, `/split_kontor_exports-….wasm`, `/favicon.svg`). A missing file
/// is a 404 — never `index.html`, which a browser would take for a broken script or
/// chunk (and cache) instead of retrying.
pub fn is_file_path(path: &str) -> bool {
    path.rsplit('/')
        .next()
        .is_some_and(|last| last.contains('.'))
}

/// The bundle in `dir` as a router fallback: files (their `.br`/`.gz` copies when
/// accepted), `index.html` for every other path (the app's routes) and 404 for a missing
/// file ([`is_file_path`]), with [`cache_control`].
pub fn router(dir: &Path) -> Router {
    let index = ServeFile::new(dir.join("index.html"))
        .precompressed_br()
        .precompressed_gzip();
    let app_route = tower::service_fn(move |request: Request| {
        let index = index.clone();
        async move {
            if is_file_path(request.uri().path()) {
                return Ok::<Response, std::convert::Infallible>(
                    StatusCode::NOT_FOUND.into_response(),
                );
            }
            let response = index.oneshot(request).await?;
            Ok(response.map(axum::body::Body::new))
        }
    });
    let files = ServeDir::new(dir)
        .precompressed_br()
        .precompressed_gzip()
        .fallback(app_route);
    Router::new()
        .fallback_service(files)
        .layer(axum::middleware::from_fn(cache_control))
}

/// Whether an API answer is JSON (`application/json…`), the only kind compressed.
fn is_json(
    _: StatusCode,
    _: axum::http::Version,
    headers: &HeaderMap,
    _: &axum::http::Extensions,
) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"))
}

/// The compression of API answers: JSON bodies above [`API_COMPRESS_ABOVE`] bytes, brotli
/// (quality 4, tower-http's default) or gzip as the client accepts.
pub fn api_compression() -> CompressionLayer<impl Predicate> {
    CompressionLayer::new()
        .br(true)
        .gzip(true)
        .compress_when(SizeAbove::new(API_COMPRESS_ABOVE).and(is_json))
}

#[cfg(test)]
mod tests {
    use super::is_hashed_asset;

    #[test]
    fn files_and_app_routes_are_told_apart() {
        use super::is_file_path;
        for file in [
            "/split_kontor_exports-0123456789abcdef.wasm",
            "/kontor/app.js",
            "/favicon.svg",
        ] {
            assert!(is_file_path(file), "{file}");
        }
        for route in [
            "/",
            "/invoices/17",
            "/kontor/settings/api_keys",
            "/invoices/12/payments",
        ] {
            assert!(!is_file_path(route), "{route}");
        }
    }

    #[test]
    fn trunk_hashes_are_recognised() {
        for hashed in [
            "/kontor-app-78c9f429ebb46889_bg.wasm",
            "/kontor-app-78c9f429ebb46889.js",
            "/settings-f3d73ac587421f6.css",
            "/kontor/base-17f5097046d8305a.css",
            "/favicon-f98ac98c2e9b85fd.svg",
            "/kontor-app-78c9f429ebb46889_bg.wasm.br",
        ] {
            assert!(is_hashed_asset(hashed), "{hashed}");
        }
        for plain in [
            "/",
            "/index.html",
            "/app.js",
            "/invoices/17",
            "/position-editor.css",
            "/x-1234567.css",
            "/x-ABCDEF0123456789.css",
            "/-0123456789abcdef.css",
            "/x-0123456789abcdef0.css",
        ] {
            assert!(!is_hashed_asset(plain), "{plain}");
        }
    }
}
