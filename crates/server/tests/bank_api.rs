//! Issue 32 § Statements in and § Matching over HTTP: a camt.053 import books what is
//! certain by itself (the payment reference, the invoice number with the open amount),
//! suggests the rest, never imports an entry twice; a transfer is matched by hand to one or
//! two invoices, undone, ignored; a statement with matches cannot be deleted; a payment
//! deleted from an invoice sets its transaction back; hostile and wrong files are refused
//! naming `file`; read-only keys get 403.

mod common;

use base64::Engine;
use common::{kept_summary_is_exact, start, TestServer};
use serde_json::{json, Value};

/// A camt.053.001.08 statement of account DE89… with `entries` (amount, CRDT/DBIT, date,
/// bank reference, counterparty, text or `RF…` structured reference).
fn camt053(entries: &[(&str, &str, &str, &str, &str, &str)]) -> String {
    let mut body = String::new();
    for (amount, sign, date, reference, name, text) in entries {
        let remittance = if text.starts_with("RF") {
            format!("<Strd><CdtrRefInf><Ref>{text}</Ref></CdtrRefInf></Strd>")
        } else {
            format!("<Ustrd>{text}</Ustrd>")
        };
        let party = if *sign == "CRDT" { "Dbtr" } else { "Cdtr" };
        body.push_str(&format!(
            r#"<Ntry><Amt Ccy="EUR">{amount}</Amt><CdtDbtInd>{sign}</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts>
<BookgDt><Dt>{date}</Dt></BookgDt><ValDt><Dt>{date}</Dt></ValDt><AcctSvcrRef>{reference}</AcctSvcrRef>
<NtryDtls><TxDtls><Refs><EndToEndId>NOTPROVIDED</EndToEndId></Refs><RltdPties><{party}><Pty><Nm>{name}</Nm></Pty></{party}></RltdPties>
<RmtInf>{remittance}</RmtInf></TxDtls></NtryDtls></Ntry>"#
        ));
    }
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt>
<GrpHdr><MsgId>M1</MsgId><CreDtTm>2026-11-21T06:00:00</CreDtTm></GrpHdr>
<Stmt><Id>S1</Id><FrToDt><FrDtTm>2026-11-20T00:00:00</FrDtTm><ToDtTm>2026-11-20T23:59:59</ToDtTm></FrToDt>
<Acct><Id><IBAN>DE89370400440532013000</IBAN></Id><Ccy>EUR</Ccy></Acct>
<Bal><Tp><CdOrPrtry><Cd>OPBD</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">1000.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2026-11-19</Dt></Dt></Bal>
<Bal><Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">2000.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2026-11-20</Dt></Dt></Bal>
{body}</Stmt></BkToCstmrStmt></Document>"#
    )
}

async fn import(s: &TestServer, name: &str, bytes: &[u8]) -> common::Reply {
    let b64 = base64::engine::general_purpose::STANDARD.encode(bytes);
    s.post("/bank_statements", json!({"filename": name, "base64": b64}))
        .await
}

async fn invoice(s: &TestServer, customer: i64, price: u32) -> Value {
    let r = s
        .invoice(customer, json!({"items": [{"type": "item", "title": "Work", "quantity": 1, "unit_price": price}], "tax": 0}))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.body
}

async fn customer(s: &TestServer) -> i64 {
    let r = s
        .post(
            "/companies",
            json!({"name": "Hafen Logistik GmbH", "type": "customer", "email": "ap@example.com"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.body["id"].as_i64().unwrap()
}

async fn status(s: &TestServer, id: &Value) -> String {
    s.get(&format!("/invoices/{id}")).await.body["status"]
        .as_str()
        .unwrap()
        .to_string()
}

#[tokio::test]
async fn an_import_books_what_is_certain_suggests_the_rest_and_never_twice() {
    let s = start().await;
    let c = customer(&s).await;
    let a = invoice(&s, c, 100).await;
    let b = invoice(&s, c, 200).await;
    let d = invoice(&s, c, 300).await;
    let e = invoice(&s, c, 300).await;
    let reference = a["payment_reference"].as_str().unwrap().to_string();
    let number_b = b["identifier"].as_str().unwrap().to_string();
    let file = camt053(&[
        (
            "100.00",
            "CRDT",
            "2026-11-20",
            "REF-1",
            "Hafen Logistik",
            &reference,
        ),
        (
            "200.00",
            "CRDT",
            "2026-11-20",
            "REF-2",
            "Hafen Logistik",
            &format!("Rechnung {number_b}"),
        ),
        (
            "300.00",
            "CRDT",
            "2026-11-20",
            "REF-3",
            "Hafen Logistik",
            "Zahlung November",
        ),
        (
            "4.90",
            "DBIT",
            "2026-11-20",
            "REF-4",
            "Sparkasse",
            "Kontofuehrung",
        ),
    ]);
    let r = import(&s, "2026-11-20.xml", file.as_bytes()).await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.body["format"], "camt.053");
    assert_eq!(r.body["account_iban"], "DE89370400440532013000");
    assert_eq!(
        (r.body["entries"].as_i64(), r.body["duplicates"].as_i64()),
        (Some(4), Some(0))
    );
    assert_eq!(
        (r.body["matched"].as_i64(), r.body["suggested"].as_i64()),
        (Some(2), Some(1))
    );
    let closing: rust_decimal::Decimal = r.body["closing_balance"].to_string().parse().unwrap();
    assert_eq!(closing, rust_decimal::Decimal::from(2000));
    assert_eq!(status(&s, &a["id"]).await, "paid");
    assert_eq!(status(&s, &b["id"]).await, "paid");
    assert_ne!(status(&s, &d["id"]).await, "paid");
    // The payment is dated at the booking date and names its transaction.
    let payments = s
        .get(&format!("/invoices/payments?invoice_id={}", a["id"]))
        .await;
    assert_eq!(payments.body[0]["date"], "2026-11-20");

    // The same file again, and an overlapping one: nothing is booked twice.
    let again = import(&s, "again.xml", file.as_bytes()).await;
    assert_eq!(again.status, 201, "{}", again.body);
    assert_eq!(
        (
            again.body["entries"].as_i64(),
            again.body["duplicates"].as_i64()
        ),
        (Some(0), Some(4))
    );
    assert_eq!(
        s.get(&format!("/invoices/payments?invoice_id={}", a["id"]))
            .await
            .body
            .as_array()
            .unwrap()
            .len(),
        1
    );

    // The suggestion: both 300.00 invoices, nothing booked.
    let suggested = s.get("/bank_transactions?state=suggested").await;
    assert_eq!(
        suggested.body.as_array().unwrap().len(),
        1,
        "{}",
        suggested.body
    );
    let t = &suggested.body[0];
    let ids: Vec<i64> = t["suggestions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["invoice_id"].as_i64().unwrap())
        .collect();
    assert!(
        ids.contains(&d["id"].as_i64().unwrap()) && ids.contains(&e["id"].as_i64().unwrap()),
        "{t}"
    );
    assert!(t["suggestions"][0]["reasons"]
        .as_array()
        .unwrap()
        .contains(&json!("amount_equals_open")));
    // Confirm one: the invoice is paid; undo: open again, the transaction unmatched.
    let id = t["id"].as_i64().unwrap();
    let m = s
        .post(
            &format!("/bank_transactions/{id}/match"),
            json!({"invoice_id": d["id"]}),
        )
        .await;
    assert_eq!(m.status, 200, "{}", m.body);
    assert_eq!(m.body["state"], "matched");
    assert_eq!(m.body["matches"][0]["invoice_id"], d["id"]);
    assert_eq!(status(&s, &d["id"]).await, "paid");
    let again = s
        .post(
            &format!("/bank_transactions/{id}/match"),
            json!({"invoice_id": e["id"]}),
        )
        .await;
    assert_eq!(
        again.status, 422,
        "a matched transaction is not matched twice"
    );
    let undo = s
        .delete(&format!("/bank_transactions/{id}/match"), None)
        .await;
    assert_eq!(undo.status, 200, "{}", undo.body);
    assert_eq!(undo.body["state"], "unmatched");
    assert_eq!(undo.body["matches"], json!([]));
    assert_ne!(status(&s, &d["id"]).await, "paid");

    // Ignore the fee and undo it; the list filters by state and term.
    let fee = s.get("/bank_transactions?term=kontofuehrung").await;
    assert_eq!(fee.body.as_array().unwrap().len(), 1);
    let fee_id = fee.body[0]["id"].as_i64().unwrap();
    assert_eq!(
        s.post(&format!("/bank_transactions/{fee_id}/ignore"), json!({}))
            .await
            .body["state"],
        "ignored"
    );
    assert_eq!(
        s.get("/bank_transactions?state=ignored")
            .await
            .body
            .as_array()
            .unwrap()
            .len(),
        1
    );
    assert_eq!(
        s.delete(&format!("/bank_transactions/{fee_id}/ignore"), None)
            .await
            .body["state"],
        "unmatched"
    );
    assert_eq!(s.get("/bank_transactions?state=bogus").await.status, 422);

    // A statement with matches cannot be deleted.
    let statement = r.body["id"].as_i64().unwrap();
    let refused = s
        .delete(&format!("/bank_statements/{statement}"), None)
        .await;
    assert_eq!(refused.status, 422, "{}", refused.body);
    // Deleting a payment booked from the bank sets its transaction back to unmatched.
    let payment = s
        .get(&format!("/invoices/payments?invoice_id={}", a["id"]))
        .await
        .body[0]["id"]
        .clone();
    assert_eq!(
        s.delete(&format!("/invoices/payments/{payment}"), None)
            .await
            .status,
        204
    );
    let first = s
        .get(&format!(
            "/bank_transactions?bank_statement_id={statement}&term={}",
            &reference[..6]
        ))
        .await;
    assert_eq!(first.body[0]["state"], "unmatched", "{}", first.body);
}

#[tokio::test]
async fn one_transfer_pays_two_invoices_and_never_more_than_it_carries() {
    let s = start().await;
    let c = customer(&s).await;
    let a = invoice(&s, c, 100).await;
    let b = invoice(&s, c, 150).await;
    let file = camt053(&[(
        "250.00",
        "CRDT",
        "2026-11-20",
        "X-1",
        "Hafen Logistik",
        "Sammelzahlung",
    )]);
    let r = import(&s, "s.xml", file.as_bytes()).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let t = s.get("/bank_transactions").await.body[0]["id"]
        .as_i64()
        .unwrap();
    let too_much = s
        .post(&format!("/bank_transactions/{t}/match"), json!({"allocations": [{"invoice_id": a["id"], "amount": 100}, {"invoice_id": b["id"], "amount": 151}]}))
        .await;
    assert_eq!(too_much.status, 422, "{}", too_much.body);
    assert!(
        too_much.body["errors"]["allocations"].is_array(),
        "{}",
        too_much.body
    );
    assert_ne!(status(&s, &a["id"]).await, "paid", "nothing was booked");
    let split = s
        .post(&format!("/bank_transactions/{t}/match"), json!({"allocations": [{"invoice_id": a["id"], "amount": 100}, {"invoice_id": b["id"], "amount": 150}]}))
        .await;
    assert_eq!(split.status, 200, "{}", split.body);
    assert_eq!(split.body["matches"].as_array().unwrap().len(), 2);
    assert_eq!(status(&s, &a["id"]).await, "paid");
    assert_eq!(status(&s, &b["id"]).await, "paid");
    // Undo removes exactly those two payments.
    assert_eq!(
        s.delete(&format!("/bank_transactions/{t}/match"), None)
            .await
            .status,
        200
    );
    assert_eq!(s.get("/invoices/payments").await.body, json!([]));
    // A credit never pays a purchase.
    let purchase = s
        .post("/purchases", json!({"date": "2026-11-10", "currency": "EUR", "payment_method": "bank_transfer", "title": "Chairs",
            "items": [{"title": "Chairs", "total": 250, "tax": 19, "tax_included": true}]}))
        .await;
    assert_eq!(purchase.status, 200, "{}", purchase.body);
    let wrong = s
        .post(
            &format!("/bank_transactions/{t}/match"),
            json!({"purchase_id": purchase.body["id"]}),
        )
        .await;
    assert_eq!(wrong.status, 422, "{}", wrong.body);
    assert!(
        wrong.body["errors"]["purchase_id"].is_array(),
        "{}",
        wrong.body
    );
    // Without matches the statement can be deleted, with its transactions.
    let statement = r.body["id"].as_i64().unwrap();
    assert_eq!(
        s.delete(&format!("/bank_statements/{statement}"), None)
            .await
            .status,
        204
    );
    assert_eq!(s.get("/bank_transactions").await.body, json!([]));
    assert_eq!(
        s.get(&format!("/bank_statements/{statement}")).await.status,
        404
    );
}

#[tokio::test]
async fn debits_pay_purchases_by_receipt_number_and_mt940_is_read() {
    let s = start().await;
    let purchase = s
        .post("/purchases", json!({"date": "2026-11-10", "currency": "EUR", "payment_method": "bank_transfer", "title": "Chairs",
            "receipt_identifier": "RE-4711", "items": [{"title": "Chairs", "total": 119, "tax": 19, "tax_included": true}]}))
        .await;
    assert_eq!(purchase.status, 200, "{}", purchase.body);
    let mt940 = ":20:STARTUMS\r\n:25:37040044/0532013000\r\n:28C:00001/001\r\n:60F:C261119EUR1000,00\r\n\
:61:2611201120DR119,00NMSCNONREF//B-77\r\n:86:177?00SEPA-UEBERWEISUNG?20SVWZ+Rechnung RE-4711?32Buero Mueller\r\n\
:62F:C261120EUR881,00\r\n-\r\n";
    let r = import(&s, "umsatz.sta", mt940.as_bytes()).await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.body["format"], "mt940");
    assert_eq!(r.body["matched"], 1, "{}", r.body);
    let p = s.get(&format!("/purchases/{}", purchase.body["id"])).await;
    let payments = p.body["payments"].as_array().unwrap();
    assert_eq!(payments.len(), 1, "{}", p.body);
    assert_eq!(payments[0]["date"], "2026-11-20");
    let paid: rust_decimal::Decimal = payments[0]["total"].to_string().parse().unwrap();
    assert_eq!(paid, rust_decimal::Decimal::from(119));
}

#[tokio::test]
async fn hostile_and_wrong_files_are_refused_naming_file_and_read_only_keys_get_403() {
    let s = start().await;
    for (name, bytes) in [
        ("x.png", b"\x89PNG\r\n\x1a\n0000".to_vec()),
        ("x.txt", b"hello, this is not a statement".to_vec()),
        ("x.xml", b"<?xml version=\"1.0\"?><Invoice/>".to_vec()),
        (
            "x.xml",
            b"<?xml version=\"1.0\"?><!DOCTYPE d [<!ENTITY e SYSTEM \"file:///etc/passwd\">]><Document>&e;</Document>".to_vec(),
        ),
    ] {
        let r = import(&s, name, &bytes).await;
        assert_eq!(r.status, 422, "{name}: {}", r.body);
        assert!(r.body["errors"]["file"].is_array(), "{}", r.body);
    }
    // A ZIP bomb: 70 MiB of zeros compress to a few kB.
    let mut zipped = Vec::new();
    {
        use std::io::Write;
        let mut w = zip::ZipWriter::new(std::io::Cursor::new(&mut zipped));
        let options = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated);
        w.start_file("big.xml", options).unwrap();
        let chunk = vec![b' '; 1024 * 1024];
        for _ in 0..70 {
            w.write_all(&chunk).unwrap();
        }
        w.finish().unwrap();
    }
    let r = import(&s, "bomb.zip", &zipped).await;
    assert_eq!(r.status, 413, "{}", r.body);
    assert!(r.body["errors"]["file"].is_array(), "{}", r.body);
    assert_eq!(
        s.get("/bank_statements").await.body,
        json!([]),
        "nothing stored"
    );
    // No file at all.
    let r = s
        .post("/bank_statements", json!({"filename": "x.xml"}))
        .await;
    assert_eq!(r.status, 422);
    // Read-only keys read but never write.
    let key = s.read_only_key().await;
    let body = json!({"filename": "x.xml", "base64": "PGE+"});
    let status = s
        .status_as(&key, reqwest::Method::POST, "/bank_statements", Some(body))
        .await;
    assert_eq!(status, 403);
    assert_eq!(
        s.status_as(&key, reqwest::Method::GET, "/bank_transactions", None)
            .await,
        200
    );
}

#[tokio::test]
async fn two_transfers_quoting_different_references_are_two_payments() {
    let s = start().await;
    let c = customer(&s).await;
    let a = invoice(&s, c, 100).await;
    let b = invoice(&s, c, 100).await;
    let file = camt053(&[
        (
            "100.00",
            "CRDT",
            "2026-11-20",
            "NONREF",
            "Hafen Logistik",
            a["payment_reference"].as_str().unwrap(),
        ),
        (
            "100.00",
            "CRDT",
            "2026-11-20",
            "NONREF",
            "Hafen Logistik",
            b["payment_reference"].as_str().unwrap(),
        ),
    ]);
    let r = import(&s, "two.xml", file.as_bytes()).await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(
        (r.body["entries"].as_i64(), r.body["duplicates"].as_i64()),
        (Some(2), Some(0)),
        "{}",
        r.body
    );
    assert_eq!(r.body["matched"], 2);
    assert_eq!(status(&s, &a["id"]).await, "paid");
    assert_eq!(status(&s, &b["id"]).await, "paid");
}

/// A statement of hundreds of entries: every entry is found again as a duplicate by the
/// chunked key lookup (several chunks, the last one short), and the ~500 audit events of
/// one request are sealed whole in chunks — `audit verify` passes and none stays unsealed.
#[tokio::test]
async fn a_large_statement_is_checked_for_duplicates_and_sealed_whole() {
    let s = common::start().await;
    // 2,100 entries: more than one statement's worth of transactions and of seals (2,000
    // rows per JSON parameter).
    let rows: Vec<(String, String)> = (0..2_100)
        .map(|n| (format!("{}.{:02}", 10 + n, n % 100), format!("BIG-{n}")))
        .collect();
    let entries: Vec<(&str, &str, &str, &str, &str, &str)> = rows
        .iter()
        .map(|(amount, reference)| {
            (
                amount.as_str(),
                "CRDT",
                "2026-11-20",
                reference.as_str(),
                "Irgendwer",
                "Spende",
            )
        })
        .collect();
    let xml = camt053(&entries);
    let first = import(&s, "big.xml", xml.as_bytes()).await;
    assert_eq!(first.status, 201, "{}", first.body);
    assert_eq!(first.body["entries"], 2_100);
    assert_eq!(first.body["duplicates"], 0);
    let again = import(&s, "big-again.xml", xml.as_bytes()).await;
    assert_eq!(again.status, 201, "{}", again.body);
    assert_eq!(again.body["entries"], 0);
    assert_eq!(again.body["duplicates"], 2_100);
    let listed = s.get("/bank_transactions?per_page=1&page=1").await;
    assert_eq!(listed.status, 200, "{}", listed.body);
    assert_eq!(
        listed.headers.get("x-total").and_then(|v| v.to_str().ok()),
        Some("2100")
    );
    let out = s.cli(&["audit", "verify"]);
    assert!(
        out.contains("intact") && out.contains("(and 0 not sealed yet)"),
        "{out}"
    );
}

#[tokio::test]
async fn a_statement_paying_hundreds_of_invoices_books_each_once_with_its_discount_and_event() {
    // 230 transfers booked together (issue 32 § Performance: one statement of JSON rows
    // for the payments, one for their events, the kept totals paused and followed once);
    // every invoice must end as if paid by hand.
    let s = start().await;
    let c = customer(&s).await;
    let mut invoices = Vec::new();
    for n in 0..230 {
        let extra = if n % 20 == 3 {
            // 2 % Skonto for 14 days: 98.00 settles the 100.00 invoice.
            json!({"items": [{"type": "item", "title": "Work", "quantity": 1, "unit_price": 100}], "tax": 0,
                   "date": "2026-11-10", "cash_discount": 2, "cash_discount_days": 14})
        } else {
            json!({"items": [{"type": "item", "title": "Work", "quantity": 1, "unit_price": 100}], "tax": 0})
        };
        let r = s.invoice(c, extra).await;
        assert_eq!(r.status, 200, "{}", r.body);
        invoices.push(r.body);
    }
    let rows: Vec<(String, String, String)> = invoices
        .iter()
        .enumerate()
        .map(|(n, inv)| {
            let amount = match n % 20 {
                3 => "98.00",
                7 => "40.00",
                _ => "100.00",
            };
            (
                amount.to_string(),
                format!("MANY-{n}"),
                inv["payment_reference"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let entries: Vec<(&str, &str, &str, &str, &str, &str)> = rows
        .iter()
        .map(|(amount, reference, text)| {
            (
                amount.as_str(),
                "CRDT",
                "2026-11-20",
                reference.as_str(),
                "Hafen Logistik",
                text.as_str(),
            )
        })
        .collect();
    let r = import(&s, "many.xml", camt053(&entries).as_bytes()).await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(
        (r.body["entries"].as_i64(), r.body["matched"].as_i64()),
        (Some(230), Some(230)),
        "{}",
        r.body
    );
    for (n, inv) in invoices.iter().enumerate() {
        let want = if n % 20 == 7 {
            "partially_paid"
        } else {
            "paid"
        };
        assert_eq!(status(&s, &inv["id"]).await, want, "invoice {n}");
    }
    // Each invoice has exactly its one payment, naming its transaction; a Skonto payment
    // records the 2.00 taken.
    let transactions = s
        .get("/bank_transactions?state=matched&per_page=100&page=1")
        .await;
    assert_eq!(transactions.status, 200, "{}", transactions.body);
    for n in [0usize, 3, 7, 99, 100, 123, 199, 200, 229] {
        let inv = &invoices[n];
        let payments = s
            .get(&format!("/invoices/payments?invoice_id={}", inv["id"]))
            .await;
        let list = payments.body.as_array().unwrap();
        assert_eq!(list.len(), 1, "invoice {n}: {}", payments.body);
        assert!(list[0]["bank_transaction_id"].as_i64().is_some(), "{n}");
        let paid: rust_decimal::Decimal = list[0]["paid_total"].to_string().parse().unwrap();
        let discount: rust_decimal::Decimal = list[0]["cash_discount"].to_string().parse().unwrap();
        let (want_paid, want_discount) = match n % 20 {
            3 => ("98", "2"),
            7 => ("40", "0"),
            _ => ("100", "0"),
        };
        assert_eq!(paid, want_paid.parse().unwrap(), "invoice {n}");
        assert_eq!(discount, want_discount.parse().unwrap(), "invoice {n}");
        let t = s
            .get(&format!(
                "/bank_transactions/{}",
                list[0]["bank_transaction_id"]
            ))
            .await;
        // The transaction booked is the one quoting this invoice's reference.
        let reference = inv["payment_reference"].as_str().unwrap();
        assert!(t.body.to_string().contains(reference), "{n}: {}", t.body);
        assert_eq!(
            t.body["amount"]
                .to_string()
                .trim_matches('"')
                .parse::<rust_decimal::Decimal>()
                .unwrap(),
            paid,
            "{n}"
        );
        // One payment event with the payment's id and the transaction.
        let events = s.get(&format!("/invoices/{}/events", inv["id"])).await;
        let payment_events: Vec<&Value> = events
            .body
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["kind"] == "payment")
            .collect();
        assert_eq!(payment_events.len(), 1, "invoice {n}: {}", events.body);
        assert_eq!(
            payment_events[0]["data"]["payment_id"], list[0]["id"],
            "{n}"
        );
        assert_eq!(
            payment_events[0]["data"]["bank_transaction_id"], list[0]["bank_transaction_id"],
            "{n}"
        );
    }
    // The dashboard's kept totals follow the bookings exactly: 230 × 100.00 gross, of which
    // 12 × 60.00 stay open (the partial payments); the Skonto invoices are settled.
    let open = |summary: &Value| -> rust_decimal::Decimal {
        summary["totals"][0]["open_amount"]
            .to_string()
            .trim_matches('"')
            .parse()
            .unwrap()
    };
    let kept = kept_summary_is_exact(&s, "after the import").await;
    assert_eq!(open(&kept), rust_decimal::Decimal::from(720), "{kept}");
    let undone = &transactions.body[0];
    let r = s
        .delete(&format!("/bank_transactions/{}/match", undone["id"]), None)
        .await;
    assert!(r.status.is_success(), "{}", r.body);
    let kept = kept_summary_is_exact(&s, "after undoing one match").await;
    let amount: rust_decimal::Decimal = undone["amount"]
        .to_string()
        .trim_matches('"')
        .parse()
        .unwrap();
    assert!(
        open(&kept) == rust_decimal::Decimal::from(720) + amount
            || open(&kept) == rust_decimal::Decimal::from(820),
        "the undone transfer's amount is open again (a Skonto invoice: its full 100.00): {kept}"
    );
    let out = s.cli(&["audit", "verify"]);
    assert!(out.contains("intact"), "{out}");
}
