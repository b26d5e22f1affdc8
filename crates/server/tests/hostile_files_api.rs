//! Issue 29 § Parsers and § Bounded resources, on the real server binary
//! (`KONTOR_SERVER_BIN`, else cargo's): files built to break a parser are refused with 422
//! naming `file`, store nothing, and the process keeps answering with its memory in
//! bounds — a 2 KB PDF nested 1,000 deep, an SVG nested 100,000 deep, a PDF whose
//! embedded invoice is deflated twice (1 GiB inside 1 MB), an object-stream bomb, an
//! XML element with 100,000 attributes (refused in under 2 s while another request is
//! answered in under 1 s), a 30,000 × 30,000 pixel PNG logo, a blur-filter SVG logo.

mod common;

use common::einvoice::plain_pdf::{pdf_of, stream};
use common::process::{self, ServerProcess};
use common::TestServer;
use reqwest::Method;
use std::io::Write;
use std::time::{Duration, Instant};

/// zlib of `bytes`.
fn zlib(bytes: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

/// zlib of `size` bytes of `byte`, compressed while streaming (nothing of that size is
/// ever held).
fn zlib_of_repeated(byte: u8, size: usize) -> Vec<u8> {
    let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    let chunk = vec![byte; 1024 * 1024];
    for _ in 0..size / chunk.len() {
        e.write_all(&chunk).unwrap();
    }
    e.finish().unwrap()
}

/// A Factur-X-shaped PDF whose embedded `factur-x.xml` stream has `filters` and `data`.
fn pdf_with_embedded(filters: &str, data: &[u8]) -> Vec<u8> {
    pdf_of(&[
        b"<< /Type /Catalog /Names << /EmbeddedFiles << /Names [(factur-x.xml) 2 0 R] >> >> >>"
            .to_vec(),
        b"<< /Type /Filespec /F (factur-x.xml) /UF (factur-x.xml) /EF << /F 3 0 R >> >>".to_vec(),
        stream(&format!("/Type /EmbeddedFile /Filter {filters}"), data),
    ])
}

/// A PDF whose object 2 is an object stream holding the zlib bytes `deflated`.
fn object_stream_pdf(deflated: &[u8]) -> Vec<u8> {
    pdf_of(&[
        b"<< /Type /Catalog >>".to_vec(),
        stream("/Type /ObjStm /N 1 /First 4 /Filter /FlateDecode", deflated),
    ])
}

async fn import(s: &TestServer, name: &str, bytes: &[u8]) -> common::Reply {
    s.upload(Method::POST, "/purchases/import", name, bytes)
        .await
}

/// Imports `bytes` as `name` and asserts the refusal ([`assert_refused`]) says `reason`.
async fn refused_because(s: &TestServer, name: &str, bytes: &[u8], what: &str, reason: &str) {
    let r = import(s, name, bytes).await;
    assert_refused(s, &r, what).await;
    let said = r.body["errors"]["file"][0].as_str().unwrap_or_default();
    assert!(said.contains(reason), "{what}: {said}");
}

/// Asserts that the first `file` error of `r` says `reason`.
fn assert_file_error_says(r: &common::Reply, reason: &str) {
    assert!(
        r.body["errors"]["file"][0]
            .as_str()
            .unwrap()
            .contains(reason),
        "{}",
        r.body
    );
}

/// Uploads `bytes` as the account logo `name` and asserts a 422 whose `file` error says
/// `reason`.
async fn logo_refused_because(s: &TestServer, name: &str, bytes: &[u8], reason: &str) {
    let r = s.upload(Method::PUT, "/account/logo", name, bytes).await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert_file_error_says(&r, reason);
}

/// The refusal of a hostile file: 422 naming `file`, and nothing stored.
async fn assert_refused(s: &TestServer, r: &common::Reply, what: &str) {
    assert_eq!(r.status, 422, "{what}: {}", r.body);
    assert!(r.body["errors"]["file"].is_array(), "{what}: {}", r.body);
    assert_eq!(
        s.get("/purchases").await.body.as_array().map(Vec::len),
        Some(0),
        "{what}: nothing stored"
    );
}

fn server() -> ServerProcess {
    process::start(&[], &[])
}

#[tokio::test(flavor = "multi_thread")]
async fn deep_pdfs_and_svgs_are_refused_and_the_server_keeps_answering() {
    let mut p = server();
    let s = &p.server;
    // 2 KB: an array nested 1,000 deep (it aborted the process before).
    let deep = pdf_of(&[
        b"<< /Type /Catalog >>".to_vec(),
        format!("{}{}", "[".repeat(1000), "]".repeat(1000)).into_bytes(),
    ]);
    assert!(deep.len() < 2300, "{}", deep.len());
    refused_because(
        s,
        "deep.pdf",
        &deep,
        "deep PDF",
        "nests arrays or dictionaries more than 32 levels",
    )
    .await;
    // The same nesting inside a compressed object stream.
    let deep_objects = zlib(format!("3 0 {}{}", "[".repeat(5000), "]".repeat(5000)).as_bytes());
    refused_because(
        s,
        "deep-objects.pdf",
        &object_stream_pdf(&deep_objects),
        "deep object stream",
        "more than 32 levels",
    )
    .await;

    // An SVG logo nested 100,000 deep (it aborted the process in the sanitizer).
    let svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\">{}{}</svg>",
        "<g>".repeat(100_000),
        "</g>".repeat(100_000)
    );
    logo_refused_because(s, "logo.svg", svg.as_bytes(), "64 levels").await;
    assert_eq!(
        s.get("/account").await.body["logo"],
        serde_json::Value::Null
    );
    assert_eq!(s.get("/session").await.status, 200, "still answering");
    assert!(p.is_running(), "the process did not abort");
}

#[tokio::test(flavor = "multi_thread")]
async fn compression_bombs_are_refused_while_inflating() {
    let mut p = server();
    let before = p.rss_mib();
    // 1 GiB of `<` deflated twice: about a kilobyte.
    let once = zlib_of_repeated(b'<', 1024 * 1024 * 1024);
    let twice = zlib(&once);
    let bomb = pdf_with_embedded("[/FlateDecode /FlateDecode]", &twice);
    assert!(bomb.len() < 64 * 1024, "{}", bomb.len());
    let s = &p.server;
    refused_because(
        s,
        "bomb.pdf",
        &bomb,
        "double-deflate bomb",
        "decompresses to more than 16 MiB",
    )
    .await;
    // An object-stream bomb: 512 MiB of spaces as the compressed objects.
    let spaces = zlib_of_repeated(b' ', 512 * 1024 * 1024);
    refused_because(
        s,
        "objstm-bomb.pdf",
        &object_stream_pdf(&spaces),
        "object stream bomb",
        "decompresses to more than 16 MiB",
    )
    .await;
    assert_eq!(s.get("/session").await.status, 200);
    let peak = p.peak_mib();
    assert!(
        peak < before + 100,
        "the peak resident memory grew from {before} MiB to {peak} MiB"
    );
    assert!(p.is_running());
}

#[tokio::test(flavor = "multi_thread")]
async fn a_hundred_thousand_attributes_are_refused_fast_without_blocking_others() {
    let p = server();
    let s = &p.server;
    let mut xml = String::from(
        "<?xml version=\"1.0\"?><Invoice xmlns=\"urn:oasis:names:specification:ubl:schema:xsd:Invoice-2\"><a",
    );
    for i in 0..100_000 {
        xml.push_str(&format!(" a{i}=\"1\""));
    }
    xml.push_str("/></Invoice>");
    assert!(xml.len() > 1_000_000);
    let started = Instant::now();
    let (refused, other) = tokio::join!(import(s, "attributes.xml", xml.as_bytes()), async {
        // Another request while the import runs.
        tokio::time::sleep(Duration::from_millis(20)).await;
        let asked = Instant::now();
        let r = s.get("/invoices").await;
        (r.status, asked.elapsed())
    });
    let took = started.elapsed();
    assert_refused(s, &refused, "100,000 attributes").await;
    assert_file_error_says(&refused, "more than 64 attributes");
    assert!(took < Duration::from_secs(2), "refused after {took:?}");
    assert_eq!(other.0, 200);
    assert!(
        other.1 < Duration::from_secs(1),
        "the other request took {:?}",
        other.1
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn huge_and_costly_logos_are_refused_or_made_cheap() {
    let p = server();
    let s = &p.server;
    // A 30,000 × 30,000 pixel PNG in a few hundred kilobytes: refused by its header.
    let mut png = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut png, 30_000, 30_000);
        encoder.set_color(png::ColorType::Grayscale);
        encoder.set_depth(png::BitDepth::One);
        encoder.set_compression(png::Compression::High);
        let mut writer = encoder.write_header().unwrap();
        let mut stream = writer.stream_writer().unwrap();
        let row = vec![0u8; 30_000 / 8];
        for _ in 0..30_000 {
            stream.write_all(&row).unwrap();
        }
        stream.finish().unwrap();
    }
    assert!(png.len() < 1024 * 1024, "{}", png.len());
    logo_refused_because(s, "big.png", &png, "30000 × 30000 pixels").await;
    // A blur filter is dropped when the SVG is stored: the PDF stays fast.
    let blur = r##"<svg xmlns="http://www.w3.org/2000/svg" width="400" height="100"><defs><filter id="b"><feGaussianBlur stdDeviation="60"/></filter></defs><rect width="400" height="100" fill="#123" filter="url(#b)" style="filter: blur(30px)"/></svg>"##;
    let r = s
        .upload(Method::PUT, "/account/logo", "blur.svg", blur.as_bytes())
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let url = r.body["logo"]["file_url"].as_str().unwrap().to_string();
    let stored = reqwest::get(&url).await.unwrap().text().await.unwrap();
    assert!(
        !stored.contains("filter") && !stored.contains("blur"),
        "{stored}"
    );
    assert!(stored.contains("<rect"), "{stored}");
}

#[tokio::test(flavor = "multi_thread")]
async fn imported_texts_are_limited() {
    let p = server();
    let s = &p.server;
    // A note (BT-22) of 30,000 characters in an otherwise valid-looking UBL invoice.
    let long = "x".repeat(30_000);
    let xml = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
<cbc:ID>X-1</cbc:ID><cbc:IssueDate>2026-11-10</cbc:IssueDate><cbc:InvoiceTypeCode>380</cbc:InvoiceTypeCode>
<cbc:Note>{long}</cbc:Note><cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>
<cac:AccountingSupplierParty><cac:Party><cac:PartyLegalEntity><cbc:RegistrationName>Lieferant GmbH</cbc:RegistrationName></cac:PartyLegalEntity></cac:Party></cac:AccountingSupplierParty>
<cac:TaxTotal><cbc:TaxAmount currencyID="EUR">19.00</cbc:TaxAmount><cac:TaxSubtotal><cbc:TaxableAmount currencyID="EUR">100.00</cbc:TaxableAmount><cbc:TaxAmount currencyID="EUR">19.00</cbc:TaxAmount><cac:TaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>19</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:TaxCategory></cac:TaxSubtotal></cac:TaxTotal>
<cac:LegalMonetaryTotal><cbc:LineExtensionAmount currencyID="EUR">100.00</cbc:LineExtensionAmount><cbc:TaxExclusiveAmount currencyID="EUR">100.00</cbc:TaxExclusiveAmount><cbc:TaxInclusiveAmount currencyID="EUR">119.00</cbc:TaxInclusiveAmount><cbc:PayableAmount currencyID="EUR">119.00</cbc:PayableAmount></cac:LegalMonetaryTotal>
<cac:InvoiceLine><cbc:ID>1</cbc:ID><cbc:InvoicedQuantity unitCode="C62">1</cbc:InvoicedQuantity><cbc:LineExtensionAmount currencyID="EUR">100.00</cbc:LineExtensionAmount><cac:Item><cbc:Name>Paper</cbc:Name><cac:ClassifiedTaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>19</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:ClassifiedTaxCategory></cac:Item><cac:Price><cbc:PriceAmount currencyID="EUR">100.00</cbc:PriceAmount></cac:Price></cac:InvoiceLine>
</Invoice>"#
    );
    refused_because(
        s,
        "long-note.xml",
        xml.as_bytes(),
        "a 30,000-character note",
        "BT-22 invoice note is longer than 20000 characters",
    )
    .await;
    // The same document with a short note imports.
    let fine = xml.replace(&long, "Vielen Dank");
    let r = import(s, "short-note.xml", fine.as_bytes()).await;
    assert_eq!(r.status, 201, "{}", r.body);
}

#[tokio::test(flavor = "multi_thread")]
async fn concurrent_large_renders_are_bounded_and_give_their_memory_back() {
    let p = server();
    let s = &p.server;
    let c = s.customer("Kranzler GmbH").await;
    let items: Vec<serde_json::Value> = (0..5000)
        .map(|n| {
            serde_json::json!({"type": "item", "title": format!("Position {n}: Beratung und Umsetzung"),
                "quantity": 1, "unit": "h", "unit_price": 95})
        })
        .collect();
    let inv = s.invoice(c, serde_json::json!({"items": items})).await;
    assert_eq!(inv.status, 200, "{}", inv.body);
    let id = inv.body["id"].as_i64().unwrap();
    // The engine (fonts, the template) loads once with the first document: measured after.
    let small = s.invoice(c, serde_json::json!({})).await.body["id"]
        .as_i64()
        .unwrap();
    let (status, _, _) = s.bytes(&format!("/invoices/{small}.pdf")).await;
    assert_eq!(status, 200);
    let before = p.rss_mib();
    let render = || async move {
        let (status, kind, pdf) = s.bytes(&format!("/invoices/{id}.pdf")).await;
        (status, kind, pdf.len())
    };
    let (a, b, c) = tokio::join!(render(), render(), render());
    for (status, kind, len) in [a, b, c] {
        assert_eq!((status, kind.as_str()), (200, "application/pdf"));
        assert!(len > 100_000, "{len} bytes for 5,000 positions");
    }
    let peak = p.peak_mib();
    tokio::time::sleep(std::time::Duration::from_secs(1)).await;
    let after = p.rss_mib();
    eprintln!(
        "three renders of 5,000 positions: {before} MiB before, peak {peak} MiB, {after} MiB after"
    );
    assert!(
        peak < before + 1000,
        "at most the permitted renders at once: peak {peak} MiB from {before} MiB"
    );
    // Before issue 29 three such renders kept 1.7 GB for good; measured now: about
    // 250 MiB more than before stays (docs/decisions.md § Bounded resources).
    assert!(
        after < before + 400,
        "the memory went back to the system: {after} MiB after, {before} MiB before"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_hundred_parallel_wrong_sign_ins_get_429s_within_bounded_memory() {
    let p = server();
    let s = &p.server;
    let mut create = process::command(
        s.dir.path(),
        &[
            "users",
            "create",
            "--email",
            "admin@example.com",
            "--firstname",
            "Ada",
            "--lastname",
            "Admin",
            "--role",
            "admin",
            "--password-stdin",
        ],
        &[],
    )
    .stdin(std::process::Stdio::piped())
    .spawn()
    .unwrap();
    create
        .stdin
        .take()
        .unwrap()
        .write_all(b"Kupfer-Tisch-Regen-42\n")
        .unwrap();
    assert!(create.wait().unwrap().success());
    let before = p.peak_mib();
    let client = reqwest::Client::new();
    let tries = (0..100).map(|n| {
        let (client, url) = (client.clone(), s.url("/session"));
        tokio::spawn(async move {
            client
                .post(url)
                .header("Content-Type", "application/json")
                .body(
                    serde_json::json!({"email": "admin@example.com", "password": format!("Wrong-{n}-password")})
                        .to_string(),
                )
                .send()
                .await
                .unwrap()
                .status()
                .as_u16()
        })
    });
    let mut statuses = Vec::new();
    for t in tries {
        statuses.push(t.await.unwrap());
    }
    let refused = statuses.iter().filter(|s| **s == 429).count();
    let wrong = statuses.iter().filter(|s| **s == 401).count();
    assert_eq!((wrong, refused), (5, 95), "{statuses:?}");
    let peak = p.peak_mib();
    assert!(
        peak < before + 300,
        "100 parallel sign-ins took the peak from {before} MiB to {peak} MiB"
    );
}
