//! The accountant's exports over real HTTP (issue 11, "For the accountant"):
//! `invoices.csv` and `purchases.csv` parsed back (BOM, `;`, CRLF, decimal comma with
//! `locale=de`, one row per document and tax rate), `datev.csv` (EXTF header fields, the
//! column line, a booking's accounts and amount), `documents.zip` (file list, each PDF
//! starts with `%PDF`), the DATEV settings and company numbers, and the refusals.

mod common;

use base64::Engine;
use common::{start, TestServer};
use serde_json::{json, Value};
use std::io::Read;

const PERIOD: &str = "from=2026-11-01&to=2026-11-30";

async fn get_full(
    s: &TestServer,
    key: &str,
    path: &str,
) -> (u16, reqwest::header::HeaderMap, Vec<u8>) {
    let resp = s
        .client
        .get(s.url(path))
        .header("Authorization", format!("Token token={key}"))
        .send()
        .await
        .unwrap();
    let status = resp.status().as_u16();
    let headers = resp.headers().clone();
    (status, headers, resp.bytes().await.unwrap().to_vec())
}

async fn download(s: &TestServer, path: &str) -> (reqwest::header::HeaderMap, Vec<u8>) {
    let (status, headers, bytes) = get_full(s, &s.key, path).await;
    assert_eq!(status, 200, "{path}: {}", String::from_utf8_lossy(&bytes));
    (headers, bytes)
}

/// Parses a `;`-separated CSV that starts with a BOM; every line ends in CRLF.
fn parse_csv(bytes: &[u8]) -> Vec<Vec<String>> {
    assert!(bytes.starts_with(b"\xEF\xBB\xBF"), "no BOM");
    let text = std::str::from_utf8(&bytes[3..]).unwrap();
    assert!(text.ends_with("\r\n"));
    assert!(!text.replace("\r\n", "").contains('\n'), "bare LF");
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(b';')
        .has_headers(false)
        .from_reader(text.as_bytes());
    reader
        .records()
        .map(|r| r.unwrap().iter().map(str::to_string).collect())
        .collect()
}

async fn finalize(s: &TestServer, id: i64) {
    let r = s.finalize(id).await;
    assert_eq!(r.status, 200, "{}", r.body);
}

/// A customer with a debtor number, an invoice at 19 % and 7 % on 2026-11-05 (created
/// finalized), a draft in the period and an invoice finalized from a draft outside it; a supplier and a category,
/// a purchase with a stored PDF on 2026-11-10.
async fn fixture(s: &TestServer) -> (i64, i64) {
    let customer = s
        .post(
            "/companies",
            json!({"name": "Kranzler GmbH", "address": "Kai 1\n20457 Hamburg", "debtor_number": 12345,
                   "vat_identifier": "DE136308783", "country_code": "DE"}),
        )
        .await;
    assert_eq!(customer.status, 200, "{}", customer.body);
    assert_eq!(
        customer.body["debit_number"], 12345,
        "issue 11's name is read"
    );
    let customer = customer.body["id"].as_i64().unwrap();
    let two_rates = s
        .invoice(
            customer,
            json!({"date": "2026-11-05", "due_date": "2099-11-19", "title": "Hosting; \"November\"",
                   "items": [
                       {"type": "item", "title": "Hosting", "quantity": 1, "unit_price": 1000},
                       {"type": "item", "title": "Book", "quantity": 1, "unit_price": 100, "tax": 7, "tax_category": "reduced"}
                   ]}),
        )
        .await;
    assert_eq!(two_rates.status, 200, "{}", two_rates.body);
    assert_eq!(two_rates.body["status"], "created");
    let draft = s
        .invoice(customer, json!({"date": "2026-11-06", "status": "draft"}))
        .await;
    assert_eq!(draft.body["status"], "draft", "{}", draft.body);
    let outside = s
        .invoice(
            customer,
            json!({"date": "2026-12-01", "due_date": "2026-12-15"}),
        )
        .await;
    finalize(s, outside.body["id"].as_i64().unwrap()).await;

    let supplier = s
        .create(
            "/companies",
            json!({"name": "Papier AG", "type": "supplier"}),
        )
        .await;
    let category = s
        .create(
            "/purchases/categories",
            json!({"name": "Office", "credit_account": "4930"}),
        )
        .await;
    let pdf = b"%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF";
    let purchase = s
        .post(
            "/purchases",
            json!({"date": "2026-11-10", "currency": "EUR", "payment_method": "bank_transfer",
                   "company_id": supplier, "receipt_identifier": "INV-77",
                   "file": {"filename": "receipt.pdf", "base64": base64::engine::general_purpose::STANDARD.encode(pdf)},
                   "items": [
                       {"title": "Paper", "total": 100, "tax": 19, "category_id": category},
                       {"title": "Books", "total": 50, "tax": 7}
                   ]}),
        )
        .await;
    assert_eq!(purchase.status, 200, "{}", purchase.body);
    (customer, supplier)
}

#[tokio::test]
async fn invoices_csv_has_one_row_per_document_and_rate() {
    let s = start().await;
    fixture(&s).await;
    let (headers, bytes) = download(&s, &format!("/exports/invoices.csv?{PERIOD}&locale=de")).await;
    assert_eq!(headers["content-type"], "text/csv; charset=utf-8");
    assert_eq!(
        headers["content-disposition"],
        "attachment; filename=\"invoices_2026-11-01_2026-11-30.csv\""
    );
    let rows = parse_csv(&bytes);
    assert_eq!(rows[0][0], "Rechnungsnummer");
    assert_eq!(rows.len(), 3, "header + two rates of one invoice: {rows:?}");
    let (a, b) = (&rows[1], &rows[2]);
    assert_eq!(a[0], "R2611-001");
    assert_eq!(a[0], b[0]);
    assert_eq!(
        &a[1..5],
        ["05.11.2026", "19.11.2099", "Kranzler GmbH", "12345"]
    );
    assert_eq!(
        a[6], "Hosting; \"November\"",
        "quoting survives the round trip"
    );
    // In German the status and VAT category are German words too (issue 34).
    assert_eq!(a[7], "Offen", "{a:?}");
    assert_eq!(
        &a[9..],
        ["Regelsteuersatz", "19", "1000,00", "190,00", "1190,00"]
    );
    assert_eq!(
        &b[9..],
        ["ermäßigter Steuersatz", "7", "100,00", "7,00", "107,00"]
    );

    let (_, bytes) = download(&s, &format!("/exports/invoices.csv?{PERIOD}")).await;
    let rows = parse_csv(&bytes);
    assert_eq!(rows[0][0], "number");
    assert_eq!(rows[1][7], "created");
    assert_eq!(rows[1][9], "standard");
    assert_eq!(&rows[1][11..], ["1000.00", "190.00", "1190.00"]);
    assert_eq!(rows[1][1], "2026-11-05");
}

#[tokio::test]
async fn purchases_csv_lists_every_purchase_per_rate() {
    let s = start().await;
    let (_, supplier) = fixture(&s).await;
    let (headers, bytes) =
        download(&s, &format!("/exports/purchases.csv?{PERIOD}&locale=de")).await;
    assert_eq!(
        headers["content-disposition"],
        "attachment; filename=\"purchases_2026-11-01_2026-11-30.csv\""
    );
    let rows = parse_csv(&bytes);
    assert_eq!(rows.len(), 3, "{rows:?}");
    assert_eq!(rows[0][0], "Belegnummer");
    assert_eq!(&rows[1][..2], ["E2611-0001", "INV-77"]);
    assert_eq!(rows[1][4], "Papier AG");
    assert_eq!(
        rows[1][5],
        (70000 + supplier).to_string(),
        "creditor number from the id"
    );
    assert_eq!(&rows[1][10..], ["19", "100,00", "19,00", "119,00"]);
    assert_eq!(&rows[2][10..], ["7", "50,00", "3,50", "53,50"]);
}

#[tokio::test]
async fn datev_csv_is_an_extf_batch_with_bookings() {
    let s = start().await;
    let (_, supplier) = fixture(&s).await;
    // Without consultant and client number the batch is written with those header
    // fields (11 and 12) empty; DATEV asks for them at import.
    let (_, bytes) = download(&s, &format!("/exports/datev.csv?{PERIOD}")).await;
    let text: String = bytes.iter().map(|&b| b as char).collect();
    let header: Vec<&str> = text.split("\r\n").next().unwrap().split(';').collect();
    assert_eq!(
        &header[..4],
        ["\"EXTF\"", "700", "21", "\"Buchungsstapel\""]
    );
    assert_eq!(&header[10..12], ["", ""]);
    let r = s
        .put(
            "/account",
            json!({"datev": {"consultant_number": 29098, "client_number": 55003}}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["datev"]["consultant_number"], 29098);
    assert_eq!(r.body["datev"]["revenue_accounts"]["standard"], 8400);

    // A pending purchase is not booked (issue 29): nobody approved it yet.
    let (_, pending) = download(&s, &format!("/exports/datev.csv?{PERIOD}")).await;
    let pending: String = pending.iter().map(|&b| b as char).collect();
    assert!(!pending.contains("E2611-0001"), "{pending}");
    assert_eq!(
        pending.split("\r\n").filter(|l| !l.is_empty()).count(),
        2 + 2,
        "header, columns and the two invoice bookings only"
    );
    let purchase = s.get("/purchases").await.body[0]["id"].as_i64().unwrap();
    s.set_purchase_status(&format!("/purchases/{purchase}"), "approved")
        .await;

    let (headers, bytes) = download(&s, &format!("/exports/datev.csv?{PERIOD}")).await;
    assert_eq!(headers["content-type"], "text/csv; charset=windows-1252");
    assert_eq!(
        headers["content-disposition"],
        "attachment; filename=\"EXTF_Buchungsstapel_2026-11-01_2026-11-30.csv\""
    );
    // Windows-1252: the column line's umlauts are single bytes.
    assert!(bytes.windows(7).any(|w| w == b"Gesch\xe4f"));
    assert!(
        !bytes.windows(2).any(|w| w == [0xC3, 0xA4]),
        "no UTF-8 umlauts"
    );
    let text: String = bytes.iter().map(|&b| b as char).collect();
    let lines: Vec<&str> = text.split("\r\n").collect();
    let header: Vec<&str> = lines[0].split(';').collect();
    assert_eq!(header.len(), 31);
    assert_eq!(
        &header[..5],
        ["\"EXTF\"", "700", "21", "\"Buchungsstapel\"", "13"]
    );
    assert_eq!(header[5].len(), 17, "created YYYYMMDDHHMMSSFFF");
    assert_eq!(
        &header[10..16],
        ["29098", "55003", "20260101", "4", "20261101", "20261130"]
    );
    assert!(lines[1].starts_with("Umsatz (ohne Soll/Haben-Kz);Soll/Haben-Kennzeichen;WKZ Umsatz;"));
    assert_eq!(lines[1].split(';').count(), 125);
    // The bookings, read as CSV (a quoted Buchungstext may hold `;`).
    assert!(lines[2].starts_with(
        "1190,00;\"S\";\"EUR\";;;;12345;8400;;0511;\"R2611-001\";;;\"Kranzler GmbH Hosting; \"\"November\"\"\";"
    ), "{}", lines[2]);
    let body = lines[2..].join("\r\n");
    let bookings: Vec<Vec<String>> = csv::ReaderBuilder::new()
        .delimiter(b';')
        .has_headers(false)
        .from_reader(body.as_bytes())
        .records()
        .map(|r| r.unwrap().iter().map(str::to_string).collect())
        .collect();
    assert_eq!(
        bookings.len(),
        4,
        "two invoice rates, two purchase accounts: {bookings:?}"
    );
    assert!(bookings.iter().all(|b| b.len() == 125));
    assert_eq!(bookings[0][13], "Kranzler GmbH Hosting; \"November\"");
    assert_eq!(&bookings[1][..2], ["107,00", "S"]);
    assert_eq!(bookings[1][7], "8300");
    // Purchases: the creditor credited, the category's account with the 19 % key.
    let creditor = (70000 + supplier).to_string();
    assert_eq!(&bookings[2][..2], ["119,00", "H"]);
    assert_eq!(&bookings[2][6..9], [creditor.as_str(), "4930", "9"]);
    assert_eq!(&bookings[3][7..9], ["3300", ""]);
    assert_eq!(bookings[3][10], "E2611-0001");

    // A period across the fiscal year's end is refused, naming `to`.
    let r = s
        .get("/exports/datev.csv?from=2026-12-01&to=2027-01-31")
        .await;
    assert_eq!(r.status, 422);
    assert!(r.body["errors"]["to"].is_array(), "{}", r.body);
}

#[tokio::test]
async fn documents_zip_holds_the_pdfs_and_stored_documents() {
    let s = start().await;
    fixture(&s).await;
    let (headers, bytes) = download(&s, &format!("/exports/documents.zip?{PERIOD}")).await;
    assert_eq!(headers["content-type"], "application/zip");
    assert_eq!(
        headers["content-disposition"],
        "attachment; filename=\"documents_2026-11-01_2026-11-30.zip\""
    );
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
    let mut names: Vec<String> = archive.file_names().map(str::to_string).collect();
    names.sort();
    assert_eq!(
        names,
        [
            "invoices/R2611-001_2026-11-05.pdf",
            "purchases/E2611-0001_2026-11-10.pdf"
        ]
    );
    for name in names {
        let mut content = Vec::new();
        archive
            .by_name(&name)
            .unwrap()
            .read_to_end(&mut content)
            .unwrap();
        assert!(content.starts_with(b"%PDF"), "{name}");
    }
    // An empty period gives an empty ZIP.
    let (_, bytes) = download(&s, "/exports/documents.zip?from=2020-01-01&to=2020-01-31").await;
    assert_eq!(
        zip::ZipArchive::new(std::io::Cursor::new(bytes))
            .unwrap()
            .len(),
        0
    );
}

#[tokio::test]
async fn bad_periods_are_refused_naming_the_parameter() {
    let s = start().await;
    for export in [
        "invoices.csv",
        "purchases.csv",
        "documents.zip",
        "datev.csv",
    ] {
        let r = s.get(&format!("/exports/{export}")).await;
        assert_eq!(r.status, 422, "{export}");
        assert!(
            r.body["errors"]["from"].is_array() && r.body["errors"]["to"].is_array(),
            "{}",
            r.body
        );
        let r = s
            .get(&format!("/exports/{export}?from=2026-11-31&to=2026-11-30"))
            .await;
        assert_eq!(r.status, 422);
        assert!(r.body["errors"]["from"].is_array(), "{}", r.body);
        let r = s
            .get(&format!("/exports/{export}?from=2026-12-01&to=2026-11-30"))
            .await;
        assert_eq!(r.status, 422);
        assert_eq!(
            r.body["errors"]
                .as_object()
                .unwrap()
                .keys()
                .collect::<Vec<_>>(),
            ["to"]
        );
    }
    let r = s
        .get(&format!("/exports/invoices.csv?{PERIOD}&locale=fr"))
        .await;
    assert_eq!(r.status, 422);
    assert!(r.body["errors"]["locale"].is_array());
}

#[tokio::test]
async fn read_only_keys_may_download() {
    let s = start().await;
    fixture(&s).await;
    let pool = s.db().await;
    let key = kontor_server::access::auth::create_key(&pool, "accountant", true)
        .await
        .unwrap()
        .1;
    let (status, _, bytes) = get_full(&s, &key, &format!("/exports/invoices.csv?{PERIOD}")).await;
    assert_eq!(status, 200);
    assert_eq!(parse_csv(&bytes).len(), 3);
    let (status, _, _) = get_full(&s, "wrong", &format!("/exports/invoices.csv?{PERIOD}")).await;
    assert_eq!(status, 401);
}

#[tokio::test]
async fn datev_settings_and_company_numbers_are_checked() {
    let s = start().await;
    let r = s.get("/account").await;
    assert_eq!(
        r.body["datev"],
        json!({"consultant_number": null, "client_number": null, "fiscal_year_start": 1, "account_length": 4,
               "revenue_accounts": {"standard": 8400, "reduced": 8300, "intra_eu": 8125,
                                    "reverse_charge": 8337, "export": 8120, "exempt": 8100},
               "assign_account_numbers": false, "debit_number_start": 10000, "credit_number_start": 70000})
    );
    let r = s
        .put(
            "/account",
            json!({"datev": {"consultant_number": 12, "fiscal_year_start": 13, "account_length": 3,
                             "revenue_accounts": {"standard": 84000}}}),
        )
        .await;
    assert_eq!(r.status, 422);
    let keys: Vec<&String> = r.body["errors"].as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        [
            "datev.account_length",
            "datev.consultant_number",
            "datev.fiscal_year_start",
            "datev.revenue_accounts.standard"
        ]
    );
    let r = s
        .put(
            "/account",
            json!({"datev": {"fiscal_year_start": 7, "account_length": 5, "revenue_accounts": {"standard": 84000}}}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let r = s.get("/account").await;
    assert_eq!(r.body["datev"]["fiscal_year_start"], 7);
    assert_eq!(r.body["datev"]["revenue_accounts"]["standard"], 84000);
    assert_eq!(r.body["datev"]["revenue_accounts"]["reduced"], 8300);

    let r = s
        .post(
            "/companies",
            json!({"name": "Bad", "debtor_number": 70000, "creditor_number": 123}),
        )
        .await;
    assert_eq!(r.status, 422);
    assert!(
        r.body["errors"]["debit_number"].is_array() && r.body["errors"]["credit_number"].is_array()
    );
    let id = s.customer("Good").await;
    let r = s
        .put(
            &format!("/companies/{id}"),
            json!({"creditor_number": 70001}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["credit_number"], 70001);
    assert_eq!(r.body["debit_number"], Value::Null);
    let r = s
        .put(
            &format!("/companies/{id}"),
            json!({"creditor_number": null}),
        )
        .await;
    assert_eq!(r.body["credit_number"], Value::Null);
}
