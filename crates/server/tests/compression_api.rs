//! Issue 13 § Serve compressed and cache right, over HTTP: API JSON above 1 kB comes
//! compressed (gzip or brotli as accepted) and decompresses to the same JSON; small
//! answers and PDFs do not; the bundle's precompressed copies are served by
//! `Accept-Encoding` with `immutable` caching for hashed files and `no-cache` for
//! `index.html` and the app routes.

mod common;

use common::{invoice_body, start, start_with};
use std::io::Read;

fn gunzip(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(bytes)
        .read_to_end(&mut out)
        .expect("a gzip body");
    out
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    enc.write_all(bytes).unwrap();
    enc.finish().unwrap()
}

async fn raw(
    s: &common::TestServer,
    path: &str,
    accept: Option<&str>,
    key: bool,
) -> reqwest::Response {
    let mut req = s.client.get(format!("{}{path}", s.base));
    if key {
        req = req.header("Authorization", format!("Token token={}", s.key));
    }
    if let Some(a) = accept {
        req = req.header("Accept-Encoding", a);
    }
    req.send().await.unwrap()
}

fn header(r: &reqwest::Response, name: &str) -> String {
    r.headers()
        .get(name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string()
}

#[tokio::test]
async fn large_api_json_is_compressed_small_answers_and_pdfs_are_not() {
    let s = start().await;
    let customer = s.customer("Hafen Logistik GmbH").await;
    let mut first = 0;
    for n in 0..6 {
        let mut body = invoice_body(customer);
        body["title"] = serde_json::json!(format!("Storage month {n}"));
        let r = s.post("/invoices", body).await;
        assert!(r.status.is_success(), "{}", r.body);
        if n == 0 {
            first = r.body["id"].as_i64().unwrap();
        }
    }
    let plain = raw(&s, "/api/v1/invoices", None, true).await;
    assert_eq!(header(&plain, "content-encoding"), "");
    let plain: serde_json::Value = serde_json::from_slice(&plain.bytes().await.unwrap()).unwrap();
    assert!(serde_json::to_vec(&plain).unwrap().len() > 1024);

    let gz = raw(&s, "/api/v1/invoices", Some("gzip"), true).await;
    assert_eq!(gz.status(), 200);
    assert_eq!(header(&gz, "content-encoding"), "gzip");
    assert_eq!(header(&gz, "x-total"), "6", "paging headers stay");
    assert!(header(&gz, "content-type").starts_with("application/json"));
    let bytes = gz.bytes().await.unwrap();
    let json: serde_json::Value = serde_json::from_slice(&gunzip(&bytes)).unwrap();
    assert_eq!(
        common::unsigned(json),
        common::unsigned(plain.clone()),
        "the compressed answer is the same JSON"
    );
    assert!(bytes.len() * 2 < serde_json::to_vec(&plain).unwrap().len());

    let br = raw(&s, "/api/v1/invoices", Some("br;q=1.0, gzip;q=0.5"), true).await;
    assert_eq!(header(&br, "content-encoding"), "br");

    // Small answers (an error body) are sent as they are.
    let missing = raw(&s, "/api/v1/invoices/999999", Some("gzip, br"), true).await;
    assert_eq!(missing.status(), 404);
    assert_eq!(header(&missing, "content-encoding"), "");
    let body: serde_json::Value = missing.json().await.unwrap();
    assert!(body["message"].is_string());

    // A PDF is not JSON: never compressed by the server.
    let pdf = raw(
        &s,
        &format!("/api/v1/invoices/{first}.pdf"),
        Some("gzip, br"),
        true,
    )
    .await;
    assert_eq!(pdf.status(), 200);
    assert_eq!(header(&pdf, "content-encoding"), "");
    assert!(pdf.bytes().await.unwrap().starts_with(b"%PDF"));
}

#[tokio::test]
async fn the_bundle_is_served_precompressed_with_cache_headers() {
    let dist = tempfile::tempdir().unwrap();
    let d = dist.path();
    let index = b"<html>kontor app index</html>".repeat(20);
    let js = b"console.log('kontor');\n".repeat(200);
    std::fs::write(d.join("index.html"), &index).unwrap();
    std::fs::write(d.join("index.html.gz"), gzip(&index)).unwrap();
    std::fs::write(d.join("kontor-app-78c9f429ebb46889.js"), &js).unwrap();
    std::fs::write(d.join("kontor-app-78c9f429ebb46889.js.gz"), gzip(&js)).unwrap();
    // The brotli copy's bytes are only compared, never decoded here.
    std::fs::write(d.join("kontor-app-78c9f429ebb46889.js.br"), b"brotli bytes").unwrap();
    std::fs::write(d.join("app.js"), "console.log(1)").unwrap();
    let path = d.to_path_buf();
    let s = start_with(move |c| c.dist_dir = Some(path)).await;
    let js_path = "/kontor-app-78c9f429ebb46889.js";

    let br = raw(&s, js_path, Some("gzip, deflate, br"), false).await;
    assert_eq!(br.status(), 200);
    assert_eq!(header(&br, "content-encoding"), "br");
    assert_eq!(
        header(&br, "cache-control"),
        "public, max-age=31536000, immutable"
    );
    assert!(header(&br, "content-type").contains("javascript"));
    assert!(header(&br, "vary")
        .to_ascii_lowercase()
        .contains("accept-encoding"));
    assert_eq!(br.bytes().await.unwrap().as_ref(), b"brotli bytes");

    let gz = raw(&s, js_path, Some("gzip"), false).await;
    assert_eq!(header(&gz, "content-encoding"), "gzip");
    assert_eq!(gunzip(&gz.bytes().await.unwrap()), js);

    let plain = raw(&s, js_path, None, false).await;
    assert_eq!(header(&plain, "content-encoding"), "");
    assert_eq!(plain.bytes().await.unwrap().as_ref(), js.as_slice());

    // index.html and the app's routes: revalidated on every visit, compressed too.
    for route in ["/", "/index.html", "/invoices/17"] {
        let page = raw(&s, route, Some("gzip"), false).await;
        assert_eq!(page.status(), 200, "{route}");
        assert_eq!(header(&page, "cache-control"), "no-cache", "{route}");
        assert_eq!(header(&page, "content-encoding"), "gzip", "{route}");
        assert_eq!(gunzip(&page.bytes().await.unwrap()), index, "{route}");
    }
    // A file without a hash in its name is not immutable; without copies it is sent plain.
    let unhashed = raw(&s, "/app.js", Some("gzip, br"), false).await;
    assert_eq!(header(&unhashed, "cache-control"), "no-cache");
    assert_eq!(header(&unhashed, "content-encoding"), "");
    assert_eq!(unhashed.text().await.unwrap(), "console.log(1)");
    // A missing file (a chunk after a half-finished deploy) is a 404, not the page.
    let missing = raw(
        &s,
        "/split_kontor_exports-0123456789abcdef.wasm",
        Some("br"),
        false,
    )
    .await;
    assert_eq!(missing.status(), 404);
    // The API is not the bundle: no fallback, no bundle caching.
    let api = raw(&s, "/api/v1/nothing-here", Some("gzip"), true).await;
    assert_eq!(api.status(), 404);
    assert_ne!(
        header(&api, "cache-control"),
        "public, max-age=31536000, immutable"
    );
}
