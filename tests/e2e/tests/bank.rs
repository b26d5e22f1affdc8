//! Issue 32 end to end: a camt.053 statement dropped on the Bank page pays two invoices by
//! itself (the payment reference, the number with the open amount); a suggestion is
//! confirmed with one click; a transfer is matched by hand to two invoices (the remainder
//! shown), and that match is undone; the dashboard says what is left to review; the
//! invoice's payments and history say the payment came from the bank; two files chosen at
//! once are imported one after the other, each with its result; the page in German; the
//! GiroCode of an invoice PDF reads with `zbarimg` and carries the payment reference.
//!
//! Run: `trunk build --release && CHROMEDRIVER=/usr/bin/chromedriver cargo test -p kontor-e2e
//! --test bank -- --test-threads=1`.

use kontor_e2e::Server;
use serde_json::{json, Value};

fn camt053(entries: &[(&str, &str, &str)]) -> String {
    let mut body = String::new();
    for (n, (amount, name, text)) in entries.iter().enumerate() {
        let remittance = if text.starts_with("RF") {
            format!("<Strd><CdtrRefInf><Ref>{text}</Ref></CdtrRefInf></Strd>")
        } else {
            format!("<Ustrd>{text}</Ustrd>")
        };
        body.push_str(&format!(
            r#"<Ntry><Amt Ccy="EUR">{amount}</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts>
<BookgDt><Dt>2026-11-20</Dt></BookgDt><ValDt><Dt>2026-11-20</Dt></ValDt><AcctSvcrRef>E2E-{n}</AcctSvcrRef>
<NtryDtls><TxDtls><RltdPties><Dbtr><Pty><Nm>{name}</Nm></Pty></Dbtr></RltdPties><RmtInf>{remittance}</RmtInf></TxDtls></NtryDtls></Ntry>"#
        ));
    }
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><GrpHdr><MsgId>M</MsgId><CreDtTm>2026-11-21T06:00:00</CreDtTm></GrpHdr>
<Stmt><Id>S</Id><Acct><Id><IBAN>DE89370400440532013000</IBAN></Id><Ccy>EUR</Ccy></Acct>{body}</Stmt></BkToCstmrStmt></Document>"#
    )
}

async fn invoice(server: &Server, customer: i64, price: u32) -> Value {
    server
        .post(
            "/invoices",
            json!({"customer_id": customer, "recipient_address": "Hafen Logistik GmbH\nHafenstraße 5\n20457 Hamburg",
                "date": "2026-11-02", "due_date": "2099-12-31", "title": "Work", "tax": 0, "currency": "EUR",
                "items": [{"type": "item", "title": "Work", "quantity": 1, "unit_price": price}]}),
        )
        .await
}

async fn status(server: &Server, invoice: &Value) -> String {
    server.get(&format!("/invoices/{}", invoice["id"])).await["status"]
        .as_str()
        .unwrap()
        .to_string()
}

/// The QR codes on page 1 of `pdf`, as `zbarimg --raw` reads them.
fn zbar(pdf: &[u8]) -> String {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("i.pdf"), pdf).unwrap();
    let ok = std::process::Command::new("pdftoppm")
        .args(["-r", "300", "-gray", "-singlefile", "-f", "1", "-l", "1"])
        .arg(dir.path().join("i.pdf"))
        .arg(dir.path().join("page"))
        .status()
        .expect("pdftoppm");
    assert!(ok.success());
    let out = std::process::Command::new("zbarimg")
        .args(["--raw", "-q", "-Sbinary"])
        .arg(dir.path().join("page.pgm"))
        .output()
        .expect("zbarimg (Debian zbar-tools)");
    String::from_utf8(out.stdout).unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_statement_pays_invoices_by_itself_and_the_rest_is_one_click() {
    let (server, customer) = Server::with_customer("Hafen Logistik GmbH").await;
    server
        .put(
            "/account",
            json!({"name": "Kontor Test GmbH", "address": "Musterstraße 1\n10115 Berlin", "account_holder": "Kontor Test GmbH",
                "iban": "DE89370400440532013000", "bic": "COBADEFFXXX"}),
        )
        .await;
    let a = invoice(&server, customer, 100).await;
    let b = invoice(&server, customer, 200).await;
    let c = invoice(&server, customer, 300).await;
    let d = invoice(&server, customer, 50).await;
    let e = invoice(&server, customer, 70).await;

    // The GiroCode of invoice A reads with zbarimg and carries its reference.
    let reference = a["payment_reference"].as_str().unwrap().to_string();
    let pdf = server.get_raw(&format!("/invoices/{}.pdf", a["id"])).await;
    let code = zbar(&pdf.bytes);
    assert!(
        code.starts_with(
            "BCD\n002\n1\nSCT\nCOBADEFFXXX\nKontor Test GmbH\nDE89370400440532013000\nEUR100.00\n"
        ),
        "{code:?}"
    );
    assert!(code.trim_end().ends_with(&reference), "{code:?}");

    let file = camt053(&[
        ("100.00", "Hafen Logistik", &reference),
        (
            "200.00",
            "Hafen Logistik",
            &format!("Rechnung {}", b["identifier"].as_str().unwrap()),
        ),
        ("300.00", "Hafen Logistik", "Zahlung"),
        ("120.00", "Hafen Logistik", "Sammelzahlung"),
    ]);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("auszug-2026-11-20.xml");
    std::fs::write(&path, file).unwrap();

    let browser = server.signed_in_browser().await;
    let bw = &browser;
    bw.click(".sidenav a[href$='/bank']").await;
    bw.wait_text("Import statements").await;
    let input = bw.find("#bank-file").await;
    input
        .send_keys(path.to_str().unwrap())
        .await
        .expect("choose the file");
    bw.wait_text("4 new, 0 already imported, 2 booked by themselves, 1 with suggestions")
        .await;
    assert_eq!(status(&server, &a).await, "paid");
    assert_eq!(status(&server, &b).await, "paid");
    bw.theme_screenshots("bank-01-imported").await;

    // The suggestion: one click books it.
    let suggested = server.get("/bank_transactions?state=suggested").await;
    let t_c = suggested[0]["id"].as_i64().unwrap();
    bw.click(&format!("#confirm-{t_c}-0")).await;
    bw.wait_text("Payment booked.").await;
    assert_eq!(status(&server, &c).await, "paid");

    // The transfer of 120.00 by hand: D (50) and E (70), the remainder reaches 0.
    let unmatched = server.get("/bank_transactions?state=unmatched").await;
    let t_de = unmatched[0]["id"].as_i64().unwrap();
    bw.click("#bank-tab-unmatched").await;
    bw.click(&format!("#manual-{t_de}")).await;
    bw.click(&format!("dialog[open] [data-candidate='{}']", d["id"]))
        .await;
    bw.click(&format!("dialog[open] [data-candidate='{}']", e["id"]))
        .await;
    bw.wait_js(
        "const r = document.querySelector(arguments[0]); return !!r && /0[.,]00/.test(r.textContent);",
        vec![json!(format!("#manual-rest-{t_de}"))],
    )
    .await;
    bw.screenshot("bank-02-manual").await;
    bw.click(&format!("#manual-book-{t_de}")).await;
    bw.wait_js("return !document.querySelector('dialog[open]');", vec![])
        .await;
    assert_eq!(status(&server, &d).await, "paid");
    assert_eq!(status(&server, &e).await, "paid");

    // Undo that match: both invoices are open again.
    bw.click("#bank-tab-matched").await;
    bw.click(&format!("#unmatch-{t_de}")).await;
    bw.wait_text("Match undone").await;
    assert_ne!(status(&server, &d).await, "paid");
    assert_ne!(status(&server, &e).await, "paid");
    bw.theme_screenshots("bank-03-matched").await;

    // The dashboard says one transaction is left to review.
    bw.click(".sidenav a[href$='/dashboard']").await;
    bw.wait_text("1 bank transactions to review").await;
    // The invoice shows where its payment came from.
    bw.open(&server.base, &format!("/invoices/{}/payments", a["id"]))
        .await;
    bw.wait_text("From the bank statement").await;
    bw.wait_text("Hafen Logistik").await;
    // So does its history.
    bw.open(&server.base, &format!("/invoices/{}/history", a["id"]))
        .await;
    bw.wait_text("From the bank statement (transaction").await;

    // Two files at once: the first statement again (all duplicates) and a new one.
    let again = dir.path().join("auszug-kopie.xml");
    std::fs::copy(&path, &again).unwrap();
    let fresh = dir.path().join("auszug-neu.xml");
    std::fs::write(
        &fresh,
        camt053(&[("42.00", "Hafen Logistik", "Trinkgeld")]).replace("E2E-", "NEU-"),
    )
    .unwrap();
    bw.click(".sidenav a[href$='/bank']").await;
    bw.wait_text("Import statements").await;
    let input = bw.find("#bank-file").await;
    input
        .send_keys(&format!("{}\n{}", again.display(), fresh.display()))
        .await
        .expect("choose two files");
    bw.wait_text("auszug-kopie.xml: 0 new, 4 already imported")
        .await;
    bw.wait_text("auszug-neu.xml: 1 new, 0 already imported")
        .await;

    // In German.
    bw.client
        .execute("localStorage.setItem('kontor.language', 'de');", vec![])
        .await
        .unwrap();
    bw.client.refresh().await.unwrap();
    bw.wait_text("Kontoauszüge importieren").await;
    bw.click("#bank-tab-unmatched").await;
    bw.wait_text("Von Hand zuordnen").await;
    bw.theme_screenshots("bank-04-de").await;
    browser.close().await;
}
