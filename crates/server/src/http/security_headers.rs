//! Security headers of every response (issue 15 § 5; `docs/decisions.md` § Security
//! headers): a Content-Security-Policy per kind of answer, `Referrer-Policy: same-origin`
//! and `X-Content-Type-Options: nosniff`. Handlers that send their own policy (the
//! e-invoice view, stored XML, the logo) keep it: every header here is set only when the
//! response has none.
//!
//! - **The browser app** ([`bundle_policy`]): scripts only from the server's own files plus
//!   WebAssembly compilation (`'wasm-unsafe-eval'`), no inline script or style (one hashed
//!   exception: the e-invoice view's sheet, shown in a sandboxed object-URL frame that
//!   inherits this policy), object URLs for the PDF preview frames, violations reported to
//!   `/csp-report` ([`crate::http::csp_report`]).
//! - **The API** ([`API_POLICY`]): answers are data, never documents: nothing may load and
//!   nothing may frame them.
//! - **Stored files** ([`FILE_POLICY`]): PDFs and images open in a tab or the app's frame;
//!   an uploaded SVG or HTML can run no script and load nothing.
//! - **The API reference** ([`DOCS_POLICY`]): Swagger UI's own files, its inline styles and
//!   data-URL images.

use axum::http::{header, HeaderValue};
use base64::Engine;
use sha2::{Digest, Sha256};
use std::sync::LazyLock;
use tower_http::set_header::SetResponseHeaderLayer;

/// Where browsers send violation reports (`POST`, outside `/api/v1`, no key).
pub const REPORT_PATH: &str = "/csp-report";

/// The policy of every API answer: no loads, no framing.
pub const API_POLICY: &str = "default-src 'none'; frame-ancestors 'none'";

/// The policy of stored files (`/files/…`): nothing runs or loads; only the app frames it.
pub const FILE_POLICY: &str =
    "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; frame-ancestors 'self'";

/// The policy of the API reference (`/api/docs`): Swagger UI's files from the server, its
/// inline styles, data-URL images, and the description fetched from the server.
pub const DOCS_POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; base-uri 'self'; form-action 'none'; frame-ancestors 'none'; report-uri /csp-report";

/// `'sha256-…'` of `text` for a CSP source list.
pub fn csp_hash(text: &str) -> String {
    let digest = Sha256::digest(text.as_bytes());
    format!(
        "'sha256-{}'",
        base64::engine::general_purpose::STANDARD.encode(digest)
    )
}

/// The policy of the browser app's files and pages (see the module docs). Exactly what the
/// app needs:
/// - `script-src 'self' 'wasm-unsafe-eval'`: the loader, glue and chunks, compiled;
/// - `style-src 'self'` plus the hash of [`kontor_einvoice::html::STYLE`];
/// - `img-src 'self' data: blob:` (logo previews), `connect-src 'self' https: blob:` (this
///   server's API, another Kontor server over HTTPS chosen at sign-in, the object URLs
///   the app makes itself);
/// - `frame-src 'self' blob:` and `object-src blob:`: PDF previews and the e-invoice view
///   are object URLs in frames;
/// - `frame-ancestors 'none'`, `base-uri 'self'`, `form-action 'self'`.
pub fn bundle_policy() -> &'static str {
    static POLICY: LazyLock<String> = LazyLock::new(|| {
        format!(
            "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' {}; \
             img-src 'self' data: blob:; font-src 'self'; connect-src 'self' https: blob:; \
             frame-src 'self' blob:; object-src blob:; base-uri 'self'; form-action 'self'; \
             frame-ancestors 'none'; report-uri {REPORT_PATH}",
            csp_hash(kontor_einvoice::html::STYLE)
        )
    });
    &POLICY
}

/// A layer that sets `Content-Security-Policy: policy` on answers without one.
pub fn csp(policy: &str) -> SetResponseHeaderLayer<HeaderValue> {
    SetResponseHeaderLayer::if_not_present(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_str(policy).expect("policies are ASCII"),
    )
}

/// `Referrer-Policy: same-origin` on answers without one.
pub fn referrer_policy() -> SetResponseHeaderLayer<HeaderValue> {
    SetResponseHeaderLayer::if_not_present(
        header::REFERRER_POLICY,
        HeaderValue::from_static("same-origin"),
    )
}

/// `X-Content-Type-Options: nosniff` on answers without it: browsers take the declared type
/// and never guess an executable one.
pub fn nosniff() -> SetResponseHeaderLayer<HeaderValue> {
    SetResponseHeaderLayer::if_not_present(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_app_policy_allows_no_inline_script() {
        let p = bundle_policy();
        assert!(p.contains("script-src 'self' 'wasm-unsafe-eval';"), "{p}");
        assert!(!p.contains("unsafe-inline"), "{p}");
        assert!(p.contains("frame-ancestors 'none'"), "{p}");
    }

    #[test]
    fn hashes_are_csp_sources() {
        // echo -n 'a' | openssl dgst -sha256 -binary | base64
        assert_eq!(
            csp_hash("a"),
            "'sha256-ypeBEsobvcr6wjGzmiPcTaeG7/gUfE5yuYB3ha/uSLs='"
        );
    }
}
