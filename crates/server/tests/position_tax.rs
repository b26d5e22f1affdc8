//! VAT per position over real HTTP (issue 10 contract § Per-position VAT): 7 % and 19 %
//! positions on one invoice or offer with their totals and `tax_breakdown`, the 422s of the
//! position fields, reverse charge, reversals, old clients without the fields, and the
//! per-rate tax lines of the PDF (checked with `pdftotext`).

mod common;

use common::{num, pdftotext, start, TestServer};
use serde_json::{json, Value};

fn mixed_items() -> Value {
    json!([
        {"type": "title", "title": "Catering", "tax": 7, "tax_category": "reduced"},
        {"type": "item", "title": "Consulting", "quantity": 1, "unit": "h", "unit_price": 100},
        {"type": "item", "title": "Food", "quantity": 2, "unit_price": 25, "tax": 7, "tax_category": "reduced"},
        {"type": "item", "title": "Book", "net_total": 10, "tax": 7, "tax_category": "reduced"}
    ])
}

fn breakdown(v: &Value) -> Vec<(String, String, String, String)> {
    v["tax_breakdown"]
        .as_array()
        .unwrap_or_else(|| panic!("no tax_breakdown in {v}"))
        .iter()
        .map(|g| {
            (
                g["tax_category"].as_str().unwrap().to_string(),
                num(&g["tax"]),
                num(&g["net_total"]),
                num(&g["tax_total"]),
            )
        })
        .collect()
}

fn group(
    category: &str,
    tax: &str,
    net: &str,
    tax_total: &str,
) -> (String, String, String, String) {
    (category.into(), tax.into(), net.into(), tax_total.into())
}

/// The VAT breakdown of [`mixed_items`] without discount: 100 × 19 % = 19.00;
/// (50 + 10) × 7 % = 4.20.
fn mixed_breakdown() -> Vec<(String, String, String, String)> {
    vec![
        group("standard", "19", "100.00", "19.00"),
        group("reduced", "7", "60.00", "4.20"),
    ]
}

/// Creates an invoice for `customer` with `overrides`; asserts that it was stored (200)
/// with the VAT groups `groups` ([`group`]: category, rate, net, tax) and returns the reply.
async fn invoice_in_groups(
    s: &TestServer,
    customer: i64,
    overrides: Value,
    groups: Vec<(String, String, String, String)>,
) -> common::Reply {
    let r = s.invoice(customer, overrides).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(breakdown(&r.body), groups);
    r
}

/// The line of `text` (a PDF's) with the position table's header.
fn table_header(text: &str) -> &str {
    text.lines()
        .find(|l| l.contains("Beschreibung"))
        .unwrap_or_else(|| panic!("no table header:\n{text}"))
}

async fn pdf_text(s: &TestServer, path: &str) -> String {
    let (status, _, bytes) = s.bytes(path).await;
    assert_eq!(status, 200, "{path}");
    pdftotext(&bytes)
}

#[tokio::test]
async fn seven_and_nineteen_percent_positions_are_totalled_per_rate() {
    let s = start().await;
    let c = s.customer("Mixed GmbH").await;
    let r = s.invoice(c, json!({"items": mixed_items()})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let inv = &r.body;
    // 100 × 19 % = 19.00; (50 + 10) × 7 % = 4.20
    assert_eq!(num(&inv["net_total"]), "160.00");
    assert_eq!(num(&inv["gross_total"]), "183.20");
    assert_eq!(breakdown(inv), mixed_breakdown());
    let items = inv["items"].as_array().unwrap();
    assert_eq!(items[0]["tax"], Value::Null, "non-items carry no VAT");
    assert_eq!(items[0]["tax_category"], Value::Null);
    assert_eq!(items[1]["tax"], Value::Null, "inherits: stored null");
    assert_eq!(items[1]["tax_category"], Value::Null);
    assert_eq!(num(&items[2]["tax"]), "7");
    assert_eq!(items[2]["tax_category"], "reduced");
    assert_eq!(items[3]["tax_category"], "reduced");
    assert_eq!(items[2]["tax_exemption_reason"], Value::Null);

    // GET and the list show the same breakdown.
    let id = inv["id"].as_i64().unwrap();
    let got = s.get(&format!("/invoices/{id}")).await;
    assert_eq!(breakdown(&got.body), breakdown(inv));
    assert_eq!(got.body["items"], inv["items"]);
    let list = s.get("/invoices").await;
    assert_eq!(list.status, 200, "{}", list.body);
    let row = list
        .body
        .as_array()
        .or_else(|| list.body["items"].as_array())
        .or_else(|| list.body["data"].as_array())
        .and_then(|rows| rows.iter().find(|r| r["id"] == id).cloned())
        .unwrap_or_else(|| panic!("invoice {id} not in {}", list.body));
    assert_eq!(breakdown(&row), breakdown(inv));

    // A discount is applied per group and rounded there.
    let r = invoice_in_groups(
        &s,
        c,
        json!({"items": mixed_items(), "discount": 3}),
        vec![
            group("standard", "19", "97.00", "18.43"),
            group("reduced", "7", "58.20", "4.07"),
        ],
    )
    .await;
    assert_eq!(num(&r.body["net_total"]), "155.20");
    assert_eq!(num(&r.body["gross_total"]), "177.70");

    // The PDF: one tax line per rate and the rate per position.
    let text = pdf_text(&s, &format!("/invoices/{id}.pdf")).await;
    assert!(text.contains("USt. 19 % auf 100,00 EUR"), "{text}");
    assert!(text.contains("USt. 7 % auf 60,00 EUR"), "{text}");
    assert!(
        text.contains("4,20 EUR") && text.contains("19,00 EUR"),
        "{text}"
    );
    assert!(text.contains("183,20 EUR"), "{text}");
    let header = table_header(&text);
    assert!(
        header.contains("USt."),
        "several rates print the rate column:\n{text}"
    );
    assert!(text.contains("19 %"), "{text}");
}

#[tokio::test]
async fn old_clients_without_the_fields_get_the_same_totals() {
    let s = start().await;
    let c = s.customer("Old Client").await;
    let standard = vec![group("standard", "19", "250.00", "47.50")];
    let r = invoice_in_groups(&s, c, json!({}), standard).await;
    assert_eq!(num(&r.body["net_total"]), "250.00");
    assert_eq!(num(&r.body["gross_total"]), "297.50");
    let r = invoice_in_groups(
        &s,
        c,
        json!({"tax": 0, "discount": 10}),
        vec![group("zero", "0", "225.00", "0.00")],
    )
    .await;
    assert_eq!(num(&r.body["gross_total"]), "225.00");
    // No counted items (a draft without positions) → [].
    let r = s.invoice(c, json!({"status": "draft", "items": []})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["tax_breakdown"], json!([]));
    // The single-rate PDF keeps its tax line and prints no rate column.
    let r = s.invoice(c, json!({})).await;
    let id = r.body["id"].as_i64().unwrap();
    let text = pdf_text(&s, &format!("/invoices/{id}.pdf")).await;
    assert!(text.contains("USt. 19 % auf 250,00 EUR"), "{text}");
    let header = table_header(&text);
    assert!(
        !header.contains("USt."),
        "a single rate prints no rate column:\n{text}"
    );
}

#[tokio::test]
async fn position_fields_are_validated_with_their_paths() {
    let s = start().await;
    let c = s.customer("Strict").await;
    let cases = [
        (
            json!({"type": "item", "title": "A", "net_total": 10, "tax_category": "exempt"}),
            "items[0].tax_exemption_reason",
        ),
        (
            json!({"type": "item", "title": "A", "net_total": 10, "tax_category": "exempt", "tax_exemption_reason": "  "}),
            "items[0].tax_exemption_reason",
        ),
        (
            json!({"type": "item", "title": "A", "net_total": 10, "tax_category": "standard", "tax": 0}),
            "items[0].tax",
        ),
        (
            json!({"type": "item", "title": "A", "net_total": 10, "tax_category": "export", "tax": 19}),
            "items[0].tax",
        ),
        (
            json!({"type": "item", "title": "A", "net_total": 10, "tax": 101}),
            "items[0].tax",
        ),
        (
            json!({"type": "item", "title": "A", "net_total": 10, "tax": -1}),
            "items[0].tax",
        ),
        (
            json!({"type": "item", "title": "A", "net_total": 10, "tax": "7"}),
            "items[0].tax",
        ),
        (
            json!({"type": "item", "title": "A", "net_total": 10, "tax_category": "luxury"}),
            "items[0].tax_category",
        ),
        (
            json!({"type": "item", "title": "A", "net_total": 10, "tax_category": "exempt", "tax_exemption_reason": "x".repeat(501)}),
            "items[0].tax_exemption_reason",
        ),
    ];
    for (item, field) in cases {
        let r = s.invoice(c, json!({"items": [item.clone()]})).await;
        assert_eq!(r.status, 422, "{item}: {}", r.body);
        assert!(
            r.body["errors"][field].is_array(),
            "{item} should name {field}: {}",
            r.body
        );
    }
    // A standard position on a 0 % document needs its own rate.
    let r = s
        .invoice(c, json!({"tax": 0, "items": [{"type": "item", "title": "A", "net_total": 10, "tax_category": "standard"}]}))
        .await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(r.body["errors"]["items[0].tax"].is_array(), "{}", r.body);
    // Exempt with a reason is fine; its reason is stored.
    let exempt = json!({"items": [
        {"type": "item", "title": "Training", "net_total": 200, "tax_category": "exempt", "tax_exemption_reason": "Steuerfrei nach § 4 Nr. 21 UStG"},
        {"type": "item", "title": "Room", "net_total": 100}
    ]});
    let groups = vec![
        group("standard", "19", "100.00", "19.00"),
        group("exempt", "0", "200.00", "0.00"),
    ];
    let r = invoice_in_groups(&s, c, exempt, groups).await;
    assert_eq!(
        r.body["items"][0]["tax_exemption_reason"],
        "Steuerfrei nach § 4 Nr. 21 UStG"
    );
    assert_eq!(num(&r.body["gross_total"]), "319.00");
    let id = r.body["id"].as_i64().unwrap();
    let text = pdf_text(&s, &format!("/invoices/{id}.pdf")).await;
    assert!(text.contains("Steuerfrei nach § 4 Nr. 21 UStG"), "{text}");
    assert!(text.contains("USt. 19 % auf 100,00 EUR"), "{text}");
    // Fields on non-item positions are ignored (stored null), not refused.
    let r = s
        .invoice(
            c,
            json!({"items": [
                {"type": "title", "title": "T", "tax_category": "exempt"},
                {"type": "item", "title": "A", "net_total": 10}
            ]}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["items"][0]["tax_category"], Value::Null);
}

#[tokio::test]
async fn reverse_charge_documents_derive_the_category_and_refuse_own_rates() {
    let s = start().await;
    let uk = s
        .post(
            "/companies",
            json!({"name": "UK Ltd", "address": "1 High St\nLondon", "country_code": "GB",
                   "customer_vat": {"tax": 20, "reverse_charge": true, "intra_eu": false}}),
        )
        .await;
    assert_eq!(uk.status, 200, "{}", uk.body);
    let uk = uk.body["id"].as_i64().unwrap();
    // Flags from the customer: reverse charge, tax 0, one reverse_charge group.
    let r = invoice_in_groups(
        &s,
        uk,
        json!({}),
        vec![group("reverse_charge", "0", "250.00", "0.00")],
    )
    .await;
    assert_eq!(num(&r.body["gross_total"]), "250.00");
    // A position's own 7 % under (the customer's) reverse charge is refused.
    let r = s
        .invoice(
            uk,
            json!({"items": [{"type": "item", "title": "A", "net_total": 10, "tax": 7}]}),
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(r.body["errors"]["items[0].tax"].is_array(), "{}", r.body);
    let id = s.invoice(uk, json!({})).await.body["id"].as_i64().unwrap();
    let text = pdf_text(&s, &format!("/invoices/{id}.pdf")).await;
    assert!(text.contains("Steuerschuldnerschaft"), "{text}");
    // Intra-EU given in the body: derived intra_eu, no tax.
    let c = s.customer("Intra").await;
    invoice_in_groups(
        &s,
        c,
        json!({"tax": 0, "vat": {"intra_eu": true}}),
        vec![group("intra_eu", "0", "250.00", "0.00")],
    )
    .await;
}

#[tokio::test]
async fn reversals_copy_each_positions_tax() {
    let s = start().await;
    let c = s.customer("Reverse Mixed").await;
    let r = s.invoice(c, json!({"items": mixed_items()})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let id = r.body["id"].as_i64().unwrap();
    s.put(
        &format!("/invoices/{id}/update_status"),
        json!({"status": "sent"}),
    )
    .await;
    let rev = s.post(&format!("/invoices/{id}/reverse"), json!({})).await;
    assert_eq!(rev.status, 200, "{}", rev.body);
    assert_eq!(num(&rev.body["gross_total"]), "-183.20");
    assert_eq!(
        breakdown(&rev.body),
        vec![
            group("standard", "19", "-100.00", "-19.00"),
            group("reduced", "7", "-60.00", "-4.20"),
        ]
    );
    assert_eq!(rev.body["items"][2]["tax_category"], "reduced");
    assert_eq!(num(&rev.body["items"][3]["tax"]), "7");
}

#[tokio::test]
async fn drafts_keep_position_taxes_when_edited_and_finalized() {
    let s = start().await;
    let c = s.customer("Drafty").await;
    let r = s
        .invoice(c, json!({"status": "draft", "items": mixed_items()}))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let id = r.body["id"].as_i64().unwrap();
    let fin = s.finalize(id).await;
    assert_eq!(fin.status, 200, "{}", fin.body);
    let got = s.get(&format!("/invoices/{id}")).await;
    assert_eq!(num(&got.body["gross_total"]), "183.20");
    assert_eq!(got.body["items"][2]["tax_category"], "reduced");
}

#[tokio::test]
async fn offers_carry_position_taxes_too() {
    let s = start().await;
    let company = s.customer("Offer Mixed").await;
    let mut items = mixed_items();
    items.as_array_mut().unwrap().push(
        json!({"type": "item", "title": "Optional", "net_total": 1000, "tax": 7, "optional": true}),
    );
    let r = s
        .post(
            "/offers",
            json!({"company_id": company, "recipient_address": "Offer Mixed\nMain St 1",
                   "date": "2026-11-05", "due_date": "2026-12-05", "title": "Event", "tax": 19,
                   "items": items}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(num(&r.body["net_total"]), "160.00");
    assert_eq!(num(&r.body["gross_total"]), "183.20");
    assert_eq!(breakdown(&r.body), mixed_breakdown());
    assert_eq!(r.body["items"][2]["tax_category"], "reduced");
    let id = r.body["id"].as_i64().unwrap();
    let got = s.get(&format!("/offers/{id}")).await;
    assert_eq!(breakdown(&got.body), breakdown(&r.body));
    let text = pdf_text(&s, &format!("/offers/{id}.pdf")).await;
    assert!(text.contains("USt. 7 % auf 60,00 EUR"), "{text}");

    let bad = s
        .post(
            "/offers",
            json!({"company_id": company, "recipient_address": "x", "date": "2026-11-05",
                   "due_date": "2026-12-05", "title": "Event", "tax": 19,
                   "items": [{"type": "item", "title": "A", "net_total": 1, "tax_category": "exempt"}]}),
        )
        .await;
    assert_eq!(bad.status, 422, "{}", bad.body);
    assert!(bad.body["errors"]["items[0].tax_exemption_reason"].is_array());
}

#[tokio::test]
async fn english_pdfs_word_each_group_and_its_notice() {
    let s = start().await;
    let c = s
        .post(
            "/companies",
            json!({"name": "Export Ltd", "address": "1 Dock Rd\nDover", "language": "en"}),
        )
        .await;
    assert_eq!(c.status, 200, "{}", c.body);
    let c = c.body["id"].as_i64().unwrap();
    let items = json!({"items": [
        {"type": "item", "title": "Consulting", "net_total": 100},
        {"type": "item", "title": "Food", "net_total": 50, "tax": 7, "tax_category": "reduced"},
        {"type": "item", "title": "Machine", "net_total": 30, "tax_category": "export"},
        {"type": "item", "title": "Parts", "net_total": 20, "tax_category": "intra_eu", "tax_exemption_reason": "Exempt under Art. 138 VAT Directive"}
    ]});
    let groups = vec![
        group("standard", "19", "100.00", "19.00"),
        group("reduced", "7", "50.00", "3.50"),
        group("intra_eu", "0", "20.00", "0.00"),
        group("export", "0", "30.00", "0.00"),
    ];
    let r = invoice_in_groups(&s, c, items, groups).await;
    assert_eq!(num(&r.body["gross_total"]), "222.50");
    let id = r.body["id"].as_i64().unwrap();
    let text = pdf_text(&s, &format!("/invoices/{id}.pdf")).await;
    for expected in [
        "VAT 19 % on 100.00 EUR",
        "VAT 7 % on 50.00 EUR",
        "VAT exempt (intra-EU) on 20.00 EUR",
        "VAT exempt (export) on 30.00 EUR",
        "Exempt under Art. 138 VAT Directive",
        "VAT-exempt export supply.",
        "222.50 EUR",
    ] {
        assert!(text.contains(expected), "{expected:?} missing:\n{text}");
    }
    assert!(
        !text.contains("VAT-exempt intra-Community supply."),
        "a given reason replaces the default notice:\n{text}"
    );
}
