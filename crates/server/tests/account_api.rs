//! The account's own data over HTTP (issue 9): GET seeded from the account file, partial
//! PUT, each bad field a 422 with nothing stored, the read-only rule, the logo (PNG, a
//! sanitized SVG, refusals, delete), the write-only SMTP password, the test e-mail through
//! a real SMTP server (aiosmtpd), and number formats (a change applies to the next number,
//! never renumbers, and stays gap-free under concurrency).

mod common;

use common::smtp::{free_port, messages, smtp_server};
use common::PNG;
use common::{reply, start, start_with, TestServer};
use kontor_server::config::{AccountConfig, ServerConfig};
use reqwest::Method;
use serde_json::{json, Value};
use std::time::Duration;

const HOSTILE_SVG: &str = r##"<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 100 40" onload="alert('onload')">
  <script>alert('script')</script>
  <rect width="100" height="40" fill="#0a5" onclick="alert('click')"/>
  <image xlink:href="https://tracker.evil.example/pixel.png" width="1" height="1"/>
  <use href="https://evil.example/sprite.svg#x"/>
  <text x="5" y="25" style="fill: url(https://evil.example/paint)">Kontor</text>
</svg>"##;

/// Puts `bytes` as the logo (multipart part `file`).
async fn put_logo(s: &TestServer, key: &str, name: &str, bytes: Vec<u8>) -> common::Reply {
    s.upload_as(key, reqwest::Method::PUT, "/account/logo", name, &bytes)
        .await
}

#[tokio::test]
async fn get_shows_the_settings_seeded_from_the_account_file_and_the_database_wins_afterwards() {
    let s = start_with(|c| {
        c.account.name = "Seed GmbH".into();
        c.account.vat_identifier = Some("de 136 695 976".into());
        c.account.iban = Some("DE89 3704 0044 0532 0130 00".into());
        c.account.register_court = Some("Amtsgericht Berlin".into());
    })
    .await;
    let r = s.get("/account").await;
    assert_eq!(r.status, 200, "{}", r.body);
    let a = &r.body;
    assert_eq!(a["name"], "Seed GmbH");
    assert_eq!(a["vat_identifier"], "DE136695976");
    assert_eq!(a["iban"], "DE89370400440532013000");
    assert_eq!(a["register_court"], "Amtsgericht Berlin");
    assert_eq!(a["email"], "billing@kontor.example");
    assert_eq!(a["tax_number"], Value::Null);
    assert_eq!(a["currencies"], json!(["EUR", "CHF", "USD"]));
    assert_eq!(a["default_currency"], "EUR");
    assert_eq!(common::num(&a["default_tax"]), "19");
    assert_eq!(a["default_invoice_due_days"], 14);
    assert_eq!(a["invoice_number_format"], "R{YY}{MM}-{NNN}");
    assert_eq!(a["offer_number_format"], "A{YY}{MM}-{NNN}");
    assert_eq!(a["purchase_number_format"], "E{YY}{MM}-{NNNN}");
    assert_eq!(a["document_texts"]["de"]["invoice_footer"], "");
    assert_eq!(a["document_texts"]["en"]["offer_salutation"], "");
    assert_eq!(a["logo"], Value::Null);
    assert_eq!(a["smtp"], Value::Null);
    assert_eq!(a["letter_papers"].as_array().unwrap().len(), 2);

    let r = s.put("/account", json!({"name": "Changed GmbH"})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    // Started again with another file: the database wins.
    let other = AccountConfig {
        name: "File Again AG".into(),
        ..AccountConfig::default()
    };
    // A second server over the same data directory with another account file.
    let second = s.second(|c| c.account = other, "the data has keys").await;
    let again = second.get("/account").await;
    assert_eq!(again.body["name"], "Changed GmbH");
    assert_eq!(again.body["vat_identifier"], "DE136695976");
}

#[tokio::test]
async fn a_bad_account_file_stops_the_first_start() {
    let dir = tempfile::tempdir().unwrap();
    let config = ServerConfig {
        listen: "127.0.0.1:0".parse().unwrap(),
        data_dir: dir.path().to_path_buf(),
        dist_dir: None,
        cors_origins: vec![],
        rate_limit: 0,
        files: None,
        database: None,
        account: AccountConfig {
            iban: Some("DE00 1234".into()),
            ..AccountConfig::default()
        },
    };
    let error = kontor_server::bind(&config).await.err().expect("refused");
    assert!(error.contains("iban"), "{error}");
}

#[tokio::test]
async fn put_changes_only_the_given_fields() {
    let s = start().await;
    let r = s
        .put(
            "/account",
            json!({
                "vat_identifier": "DE136695976",
                "tax_number": "27/123/45678",
                "iban": "de89 3704 0044 0532 0130 00",
                "bic": "cobadeffxxx",
                "bank_name": "Commerzbank",
                "account_holder": "Kontor Demo GmbH",
                "register_court": "Amtsgericht Berlin-Charlottenburg",
                "register_number": "HRB 123456",
                "managing_directors": "Anna Muster",
                "phone": "+49 30 1234567",
                "website": "https://kontor.example",
                "country_code": "de",
                "default_tax": 7,
                "default_invoice_due_days": 30,
                "currencies": ["EUR", "USD"],
                "default_currency": "USD",
                "document_texts": {"en": {"invoice_footer": "Thank you!"}}
            }),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let a = s.get("/account").await.body;
    assert_eq!(a, r.body, "PUT answers what GET shows");
    assert_eq!(a["iban"], "DE89370400440532013000");
    assert_eq!(a["bic"], "COBADEFFXXX");
    assert_eq!(a["country_code"], "DE");
    assert_eq!(common::num(&a["default_tax"]), "7");
    assert_eq!(a["default_invoice_due_days"], 30);
    assert_eq!(a["currencies"], json!(["USD", "EUR"]));
    assert_eq!(a["default_currency"], "USD");
    assert_eq!(a["document_texts"]["en"]["invoice_footer"], "Thank you!");
    assert_eq!(a["document_texts"]["de"]["invoice_footer"], "");
    assert_eq!(a["name"], "Kontor Demo GmbH", "absent fields stay");

    // Documents check currencies against the stored settings, not the file.
    let c = s.customer("Currency AG").await;
    let chf = s.invoice(c, json!({"currency": "CHF"})).await;
    assert_eq!(chf.status, 422, "{}", chf.body);
    assert!(chf.body["errors"]["currency"].is_array(), "{}", chf.body);
    assert_eq!(s.invoice(c, json!({"currency": "USD"})).await.status, 200);

    // An empty text removes a value; null means absent.
    let r = s
        .put("/account", json!({"tax_number": "", "bic": null}))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["tax_number"], Value::Null);
    assert_eq!(r.body["bic"], "COBADEFFXXX");
}

#[tokio::test]
async fn each_bad_field_is_a_422_naming_it_and_nothing_is_stored() {
    let s = start().await;
    let before = s.get("/account").await.body;
    for (body, field) in [
        (json!({"vat_identifier": "DE136695977"}), "vat_identifier"),
        (json!({"iban": "DE89 3704 0044 0532 0130 01"}), "iban"),
        (json!({"country_code": "XX"}), "country_code"),
        (json!({"email": "billing-at-kontor"}), "email"),
        (json!({"bic": "NOTABIC"}), "bic"),
        (json!({"website": "not a website"}), "website"),
        (json!({"default_tax": 120}), "default_tax"),
        (json!({"default_tax": "19"}), "default_tax"),
        (
            json!({"default_invoice_due_days": -1}),
            "default_invoice_due_days",
        ),
        (
            json!({"invoice_number_format": "R{YY}{MM}"}),
            "invoice_number_format",
        ),
        (
            json!({"offer_number_format": "A{MM}-{NNN}"}),
            "offer_number_format",
        ),
        (
            json!({"purchase_number_format": "E {NNN}"}),
            "purchase_number_format",
        ),
        (json!({"default_currency": "JPY"}), "default_currency"),
        (json!({"name": ""}), "name"),
        (json!({"smtp": {"port": 587}}), "smtp.host"),
        (
            json!({"smtp": {"host": "mail.example", "port": 70000}}),
            "smtp.port",
        ),
    ] {
        // Each bad field comes with a good one, which must not be stored either.
        let mut body = body;
        body["tax_number"] = json!("99/999/99999");
        let r = s.put("/account", body.clone()).await;
        assert_eq!(r.status, 422, "{body}: {}", r.body);
        assert!(
            r.body["errors"][field].is_array(),
            "{body} names {field}: {}",
            r.body
        );
        assert_eq!(
            s.get("/account").await.body,
            before,
            "{body} stored nothing"
        );
    }
    let r = s
        .put(
            "/account",
            json!({"iban": "x", "vat_identifier": "y", "email": "z"}),
        )
        .await;
    assert_eq!(r.status, 422);
    let errors = r.body["errors"].as_object().unwrap();
    assert_eq!(
        errors.keys().collect::<Vec<_>>(),
        ["email", "iban", "vat_identifier"]
    );
}

#[tokio::test]
async fn a_read_only_key_cannot_change_the_account() {
    let s = start().await;
    let ro = s.read_only_key().await;
    let status = |method: Method, path: &'static str, body: Option<Value>| {
        s.status_as(&ro, method, path, body)
    };
    assert_eq!(status(Method::GET, "/account", None).await, 200);
    let put = status(Method::PUT, "/account", Some(json!({"name": "Mine"})));
    assert_eq!(put.await, 403);
    assert_eq!(status(Method::DELETE, "/account/logo", None).await, 403);
    let test = status(
        Method::POST,
        "/account/test_email",
        Some(json!({"to": "a@b.example"})),
    );
    assert_eq!(test.await, 403);
    assert_eq!(
        put_logo(&s, &ro, "logo.png", PNG.to_vec()).await.status,
        403
    );
    assert_eq!(s.get("/account").await.body["name"], "Kontor Demo GmbH");
}

#[tokio::test]
async fn a_png_logo_is_stored_served_by_signed_link_and_deleted() {
    let s = start().await;
    let r = put_logo(&s, &s.key, "logo.txt", PNG.to_vec()).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["logo"]["content_type"], "image/png");
    let url = s.get("/account").await.body["logo"]["file_url"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(url.contains("/files/account_logo/") && url.contains("signature="));
    let file = s.client.get(&url).send().await.unwrap();
    assert_eq!(file.status(), 200);
    assert_eq!(file.headers()["content-type"], "image/png");
    assert_eq!(file.bytes().await.unwrap().as_ref(), PNG);
    let forged = s
        .client
        .get(url.replace("signature=", "signature=00"))
        .send()
        .await
        .unwrap();
    assert_eq!(forged.status(), 403);

    let stored: Vec<_> = std::fs::read_dir(s.data_path().join("files/account_logo"))
        .unwrap()
        .collect();
    assert_eq!(stored.len(), 1);
    let r = s.delete("/account/logo", None).await;
    assert_eq!(r.status, 204);
    assert_eq!(s.get("/account").await.body["logo"], Value::Null);
    assert_eq!(
        std::fs::read_dir(s.data_path().join("files/account_logo"))
            .unwrap()
            .count(),
        0,
        "the file is gone"
    );
    assert_eq!(s.client.get(&url).send().await.unwrap().status(), 404);
    assert_eq!(s.delete("/account/logo", None).await.status, 204);
}

#[tokio::test]
async fn an_svg_logo_is_sanitized_before_it_is_stored() {
    let s = start().await;
    let r = put_logo(&s, &s.key, "logo.svg", HOSTILE_SVG.as_bytes().to_vec()).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["logo"]["content_type"], "image/svg+xml");
    let url = r.body["logo"]["file_url"].as_str().unwrap();
    let file = s.client.get(url).send().await.unwrap();
    assert_eq!(file.status(), 200);
    assert_eq!(file.headers()["content-type"], "image/svg+xml");
    assert!(file.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .contains("default-src 'none'"));
    let svg = file.text().await.unwrap();
    for gone in [
        "<script",
        "onload",
        "onclick",
        "alert",
        "evil.example",
        "tracker",
    ] {
        assert!(!svg.contains(gone), "{gone} survived: {svg}");
    }
    assert!(svg.contains("<rect") && svg.contains("Kontor"), "{svg}");
    // Also on disk: what is stored is the sanitized file.
    let dir = s.data_path().join("files/account_logo");
    let path = std::fs::read_dir(dir)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let on_disk = std::fs::read_to_string(path).unwrap();
    assert_eq!(on_disk, svg);

    let bad = put_logo(
        &s,
        &s.key,
        "bad.svg",
        b"<svg xmlns=\"http://www.w3.org/2000/svg\"><g></svg>".to_vec(),
    )
    .await;
    assert_eq!(bad.status, 422, "{}", bad.body);
    assert!(bad.body["errors"]["file"][0]
        .as_str()
        .unwrap()
        .contains("well-formed"));
}

#[tokio::test]
async fn other_files_and_large_logos_are_refused() {
    let s = start().await;
    let jpeg = vec![0xFF, 0xD8, 0xFF, 0xE0, 0, 16, b'J', b'F', b'I', b'F'];
    for (name, bytes) in [
        ("logo.jpg", jpeg),
        ("logo.png", b"just some text".to_vec()),
        ("logo.pdf", b"%PDF-1.7".to_vec()),
    ] {
        let r = put_logo(&s, &s.key, name, bytes).await;
        assert_eq!(r.status, 422, "{name}: {}", r.body);
        assert!(r.body["errors"]["file"].is_array(), "{}", r.body);
    }
    let mut big = PNG.to_vec();
    big.resize(1024 * 1024 + 1, 0);
    let r = put_logo(&s, &s.key, "big.png", big).await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(r.body["errors"]["file"][0]
        .as_str()
        .unwrap()
        .contains("1 MiB"));
    let mut huge = PNG.to_vec();
    huge.resize(3 * 1024 * 1024, 0);
    let r = put_logo(&s, &s.key, "huge.png", huge).await;
    assert_eq!(r.status, 413, "{}", r.body);
    let r = s.put("/account/logo", json!({"file": "x"})).await;
    assert_eq!(r.status, 415);
    assert_eq!(s.get("/account").await.body["logo"], Value::Null);
}

#[tokio::test]
async fn the_smtp_password_is_write_only() {
    let s = start().await;
    let secret = "correct-horse-battery-staple";
    let r = s
        .put(
            "/account",
            json!({"smtp": {"host": "smtp.kontor.example", "security": "tls", "user": "billing", "password": secret}}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        r.body["smtp"],
        json!({"host": "smtp.kontor.example", "port": 465, "security": "tls", "user": "billing", "password_set": true})
    );
    let get = s
        .client
        .get(s.url("/account"))
        .header("Authorization", format!("Token token={}", s.key))
        .send()
        .await
        .unwrap();
    let text = get.text().await.unwrap();
    assert!(!text.contains(secret), "{text}");
    assert!(!r.body.to_string().contains(secret));

    // A partial change keeps the password; "" removes it; null removes SMTP.
    let r = s.put("/account", json!({"smtp": {"port": 2465}})).await;
    assert_eq!(r.body["smtp"]["port"], 2465);
    assert_eq!(r.body["smtp"]["password_set"], true);
    let r = s.put("/account", json!({"smtp": {"password": ""}})).await;
    assert_eq!(r.body["smtp"]["password_set"], false);
    let r = s.put("/account", json!({"smtp": null})).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.body["smtp"], Value::Null);
}

#[tokio::test]
async fn the_test_email_goes_through_the_stored_smtp_settings() {
    let mail = smtp_server().await;
    let s = start().await;
    // Without SMTP: the outbox.
    let r = s
        .post("/account/test_email", json!({"to": "me@kontor.example"}))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body, json!({"emails_to": "me@kontor.example"}));
    assert_eq!(
        std::fs::read_dir(s.data_path().join("outbox"))
            .unwrap()
            .count(),
        1
    );
    // Asked in German, the test message is German (issue 34).
    let r = common::requests::send_json(
        s.keyed(reqwest::Method::POST, "/account/test_email")
            .header("Accept-Language", "de"),
        &json!({"to": "me@kontor.example"}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let german = std::fs::read_dir(s.data_path().join("outbox"))
        .unwrap()
        .flatten()
        .map(|e| std::fs::read_to_string(e.path()).unwrap())
        .any(|m| m.contains("Subject: Kontor: Test-E-Mail"));
    assert!(german, "a German test message");

    // Settings changed over the API apply to the next message.
    let r = s
        .put(
            "/account",
            json!({"email": "office@kontor.example", "smtp": {"host": "127.0.0.1", "port": mail.port, "security": "none"}}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let r = s
        .post(
            "/account/test_email",
            json!({"to": "me@kontor.example; you@kontor.example"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["emails_to"], "me@kontor.example;you@kontor.example");
    tokio::time::sleep(Duration::from_millis(300)).await;
    let all = messages(&mail.maildir.path().join("mail"));
    assert_eq!(all.len(), 1);
    assert!(
        all[0].contains("From: \"Kontor Demo GmbH\" <office@kontor.example>")
            || all[0].contains("From: Kontor Demo GmbH <office@kontor.example>"),
        "{}",
        all[0]
    );
    assert!(
        all[0].contains("X-RcptTo: me@kontor.example, you@kontor.example"),
        "{}",
        all[0]
    );

    for bad in [json!({}), json!({"to": ""}), json!({"to": "nobody"})] {
        let r = s.post("/account/test_email", bad.clone()).await;
        assert_eq!(r.status, 422, "{bad}");
        assert!(r.body["errors"]["to"].is_array(), "{}", r.body);
    }
    // A server that is not there: 502.
    let dead = free_port();
    s.put("/account", json!({"smtp": {"port": dead}})).await;
    let r = s
        .post("/account/test_email", json!({"to": "me@kontor.example"}))
        .await;
    assert_eq!(r.status, 502, "{}", r.body);
}

#[tokio::test]
async fn a_new_number_format_applies_to_the_next_number_and_never_renumbers() {
    let s = start().await;
    let c = s.customer("Format AG").await;
    let first = s.invoice(c, json!({})).await.body;
    assert_eq!(first["identifier"], "R2611-001");
    let draft = s.invoice(c, json!({"status": "draft"})).await.body;

    let r = s
        .put(
            "/account",
            json!({"invoice_number_format": "{YYYY}-{NNNNN}"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let second = s.invoice(c, json!({})).await.body;
    assert_eq!(second["identifier"], "2026-00001");
    let path = format!("/invoices/{}/update_status", draft["id"]);
    let finalized = s.put(&path, json!({"status": "created"})).await;
    assert_eq!(finalized.status, 200, "{}", finalized.body);
    assert_eq!(finalized.body["identifier"], "2026-00002");
    assert_eq!(
        s.get(&format!("/invoices/{}", first["id"])).await.body["identifier"],
        "R2611-001",
        "earlier numbers stay"
    );
    // Back to the monthly format: the month's series continues.
    s.put(
        "/account",
        json!({"invoice_number_format": "R{YY}{MM}-{NNN}"}),
    )
    .await;
    assert_eq!(
        s.invoice(c, json!({})).await.body["identifier"],
        "R2611-002"
    );
    // Offers and purchases have their own formats.
    let r = s
        .put(
            "/account",
            json!({"offer_number_format": "ANG-{YYYY}-{NNNN}"}),
        )
        .await;
    assert_eq!(r.status, 200);
    let offer = s
        .post(
            "/offers",
            json!({"company_id": c, "recipient_address": "Format AG", "date": "2026-11-03", "due_date": "2026-12-03", "title": "Offer", "tax": 19, "items": [{"type": "item", "title": "Work", "quantity": 1, "unit_price": 10}]}),
        )
        .await;
    assert_eq!(offer.status, 200, "{}", offer.body);
    assert_eq!(offer.body["identifier"], "ANG-2026-0001");
    // A bad pattern is refused and the old one stays.
    let r = s
        .put("/account", json!({"invoice_number_format": "{YYYY}-{XX}"}))
        .await;
    assert_eq!(r.status, 422);
    assert!(r.body["errors"]["invoice_number_format"].is_array());
    assert_eq!(
        s.get("/account").await.body["invoice_number_format"],
        "R{YY}{MM}-{NNN}"
    );
}

/// Two formats that print the same numbers from different series (`2026-0{NN}` and
/// `{YYYY}-{NNN}` both print `2026-003`): a number the other series already gave is
/// skipped, never given twice, and each series continues after what it skipped.
#[tokio::test]
async fn a_number_another_format_already_gave_is_skipped() {
    let s = start().await;
    let c = s.customer("Skip AG").await;
    let mut numbers = Vec::new();
    for (format, count) in [
        ("2026-0{NN}", 2),
        ("{YYYY}-{NNN}", 2),
        ("2026-0{NN}", 2),
        ("{YYYY}-{NNN}", 1),
    ] {
        let r = s
            .put("/account", json!({"invoice_number_format": format}))
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
        for _ in 0..count {
            let r = s.invoice(c, json!({})).await;
            assert_eq!(r.status, 200, "{}", r.body);
            numbers.push(r.body["identifier"].as_str().unwrap().to_string());
        }
    }
    assert_eq!(
        numbers,
        ["2026-001", "2026-002", "2026-003", "2026-004", "2026-005", "2026-006", "2026-007"]
    );
}

#[tokio::test]
async fn ten_parallel_finalizations_get_ten_consecutive_numbers() {
    let s = start().await;
    s.put(
        "/account",
        json!({"invoice_number_format": "{YYYY}-{NNNNN}"}),
    )
    .await;
    let c = s.customer("Parallel AG").await;
    let mut ids = Vec::new();
    for _ in 0..10 {
        let r = s.invoice(c, json!({"status": "draft"})).await;
        assert_eq!(r.status, 200, "{}", r.body);
        ids.push(r.body["id"].as_i64().unwrap());
    }
    let tasks: Vec<_> = ids
        .iter()
        .map(|id| {
            let request = s
                .client
                .put(s.url(&format!("/invoices/{id}/update_status")))
                .header("Authorization", format!("Token token={}", s.key))
                .header("Content-Type", "application/json")
                .body(r#"{"status": "created"}"#);
            tokio::spawn(async move { reply(request.send().await.unwrap()).await })
        })
        .collect();
    let mut numbers = Vec::new();
    for t in tasks {
        let r = t.await.unwrap();
        assert_eq!(r.status, 200, "{}", r.body);
        numbers.push(r.body["identifier"].as_str().unwrap().to_string());
    }
    numbers.sort();
    let expected: Vec<String> = (1..=10).map(|n| format!("2026-{n:05}")).collect();
    assert_eq!(numbers, expected);
}
