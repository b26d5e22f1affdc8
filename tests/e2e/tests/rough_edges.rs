//! Issue 34 (the office's rough edges) in Chromium against the real server with the
//! release bundle: staff see Settings read-only with a note; `n` opens "New …" and `?`
//! the shortcut sheet; a backdated invoice asks before it takes the next number; the change
//! history speaks field labels, formatted values and the person; an imported e-invoice
//! whose seller has a new name offers to take it; an offer e-mail greets its contact; the
//! Dunning page's actions stay in view; a half-filled invoice survives a reload. Screenshots in German and English, light and dark.

use fantoccini::key::Key;
use kontor_e2e::{dist, workspace, Browser, Server};
use serde_json::json;
use std::time::Duration;

const PASSWORD: &str = "Kupfer-Laterne-Hafen-1987";

/// Sends `keys` to whatever has focus (the page's body after it loaded).
async fn press(b: &Browser, keys: &str) {
    b.client
        .active_element()
        .await
        .expect("focused element")
        .send_keys(keys)
        .await
        .expect("keys");
}

#[tokio::test(flavor = "multi_thread")]
async fn staff_see_the_settings_read_only_with_a_note_saying_who_changes_them() {
    let server = Server::start(Some(dist()), vec![]).await;
    server
        .user("jonas@kontor.test", "Jonas", "Weber", "staff", PASSWORD)
        .await;
    let b = Browser::start().await;
    b.sign_in_with_password(&server.base, "jonas@kontor.test", PASSWORD)
        .await;
    b.open(&server.base, "/settings").await;
    b.wait_contains("#settings-read-only", "Only administrators")
        .await;
    // Every field and every Save of the page is disabled: nothing fails on save.
    let editable = b
        .wait_js(
            "const fields = [...document.querySelectorAll('.settings input, .settings select, .settings textarea, .settings button.btn-primary')];
             return fields.length > 10 && fields.filter(f => !f.matches(':disabled')).map(f => f.id || f.name || f.outerHTML.slice(0, 60));",
            vec![],
        )
        .await;
    assert_eq!(editable, json!([]), "editable for staff: {editable}");
    b.theme_screenshots("rough-edges-settings-staff").await;
    b.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn n_opens_new_on_lists_and_the_question_mark_shows_every_shortcut() {
    let server = Server::start(Some(dist()), vec![]).await;
    let b = server.signed_in_browser().await;
    for (list, new) in [
        ("/invoices", "/invoices/new"),
        ("/offers", "/offers/new"),
        ("/purchases", "/purchases/new"),
        ("/customers", "/customers/new"),
        ("/recurring_invoices", "/recurring_invoices/new"),
    ] {
        b.open(&server.base, list).await;
        b.find("main h1").await;
        b.client
            .execute(
                "document.activeElement && document.activeElement.blur();",
                vec![],
            )
            .await
            .unwrap();
        press(&b, "n").await;
        b.wait_js(
            "return location.pathname.endsWith(arguments[0]);",
            vec![json!(new)],
        )
        .await;
    }
    // Typing "n" in a field types it.
    b.open(&server.base, "/invoices").await;
    b.fill("#global-search", "n").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(b.path().await.ends_with("/invoices"));
    // "?" opens the sheet; Esc closes it.
    b.client
        .execute("document.activeElement.blur();", vec![])
        .await
        .unwrap();
    press(&b, "?").await;
    b.wait_contains("#shortcut-sheet", "New").await;
    b.screenshot("rough-edges-shortcuts-en").await;
    press(&b, &Key::Escape.to_string()).await;
    b.wait_js(
        "return !document.querySelector('dialog[open] #shortcut-sheet');",
        vec![],
    )
    .await;
    b.close().await;
}

/// A draft invoice of `customer` dated `date` (one hour of maintenance); returns its id.
async fn draft_dated(server: &Server, customer: i64, title: &str, date: &str) -> i64 {
    server
        .create(
            "/invoices",
            json!({"customer_id": customer, "status": "draft", "title": title, "date": date,
                   "recipient_address": "Hafen Logistik GmbH\nHafenstraße 5\n20457 Hamburg",
                   "items": [{"type": "item", "title": "Wartung", "quantity": 1, "unit": "h", "unit_price": 95}]}),
        )
        .await
}

#[tokio::test(flavor = "multi_thread")]
async fn a_backdated_invoice_asks_before_it_takes_the_next_number() {
    let server = Server::start(Some(dist()), vec![]).await;
    let customer = server.customer("Hafen Logistik GmbH").await;
    let numbered = server.invoice(customer, "Lagerung November").await;
    let number = numbered["identifier"].as_str().unwrap().to_string();
    let draft = draft_dated(&server, customer, "Nachtrag Oktober", "2026-10-20").await;
    let on_time = draft_dated(&server, customer, "Wartung Dezember", "2026-12-01").await;
    let b = server.signed_in_browser().await;
    b.open(&server.base, &format!("/invoices/{draft}")).await;
    b.click("#finalize").await;
    b.wait_contains("dialog[open] .confirm-warning", &number)
        .await;
    let warning = b.prop("dialog[open] .confirm-warning", "textContent").await;
    assert!(warning.contains("2026"), "{warning}");
    b.theme_screenshots("rough-edges-backdated").await;
    // Not backdated: no warning.
    b.open(&server.base, &format!("/invoices/{on_time}")).await;
    b.click("#finalize").await;
    b.find("dialog[open]").await;
    tokio::time::sleep(Duration::from_millis(800)).await;
    let none = b
        .client
        .execute(
            "return !document.querySelector('dialog[open] .confirm-warning');",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(none, json!(true));
    b.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_change_history_speaks_labels_values_and_the_person() {
    let server = Server::start(Some(dist()), vec![]).await;
    server
        .user("ada@kontor.test", "Ada", "Lovelace", "admin", PASSWORD)
        .await;
    let customer = server.customer("Hafen Logistik GmbH").await;
    let draft = draft_dated(&server, customer, "Wartung", "2026-11-20").await;
    let b = Browser::start().await;
    b.sign_in_with_password(&server.base, "ada@kontor.test", PASSWORD)
        .await;
    b.click("#user-menu-button").await;
    b.client
        .execute("window.__beforeLanguage = true;", vec![])
        .await
        .unwrap();
    b.click("#language-de").await;
    // The app reloads in German; only then is the next page opened.
    b.wait_js(
        "return !window.__beforeLanguage && document.documentElement.lang === 'de' && !!document.querySelector('#user-menu-button');",
        vec![],
    )
    .await;
    // Ada changes the draft's title and price in the app.
    b.open(&server.base, &format!("/invoices/{draft}/edit"))
        .await;
    b.find("#f-title").await;
    b.fill("#f-title", "Wartung Dezember").await;
    b.fill(
        ".pe-table tbody tr[data-row-key]:nth-of-type(1) [data-field=unit_price]",
        "1.190,5",
    )
    .await;
    b.click(".form-actions button.btn:not(.btn-primary)").await;
    b.wait_js(
        "return location.pathname.endsWith('/invoices/' + arguments[0]);",
        vec![json!(draft)],
    )
    .await;
    b.open(&server.base, &format!("/invoices/{draft}/history"))
        .await;
    b.wait_contains(".audit-table", "Ada Lovelace").await;
    let text = b.prop(".audit-table", "textContent").await;
    assert!(!text.contains("Kontor (System)"), "{text}");
    assert!(text.contains("Titel"), "{text}");
    assert!(text.contains("Wartung Dezember"), "{text}");
    assert!(text.contains("Einzelpreis"), "{text}");
    assert!(text.contains("1.190,50"), "{text}");
    assert!(
        !text.contains("unit_price") && !text.contains("gross_total"),
        "{text}"
    );
    b.theme_screenshots("rough-edges-history-de").await;
    b.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn an_e_invoice_from_a_renamed_supplier_offers_the_new_name() {
    let server = Server::start(Some(dist()), vec![]).await;
    let supplier = server
        .create(
            "/companies",
            json!({"name": "Alter Name GmbH", "type": "supplier", "vat_identifier": "DE136308783"}),
        )
        .await;
    // The official sample with a valid VAT ID (its own has a wrong check digit).
    let sample = std::fs::read_to_string(
        workspace().join("../shared/einvoice/samples/01.01a-INVOICE_ubl.xml"),
    )
    .expect("sample")
    .replacen("DE 123456789", "de 136 308 783", 1);
    use base64::Engine;
    let imported = server
        .post(
            "/purchases/import",
            json!({"file": {"filename": "rechnung.xml",
                "base64": base64::engine::general_purpose::STANDARD.encode(sample)}}),
        )
        .await;
    assert_eq!(imported["company"]["id"], supplier, "{imported}");
    let id = imported["id"].as_i64().unwrap();
    let b = server.signed_in_browser().await;
    b.open(&server.base, &format!("/purchases/{id}")).await;
    b.wait_contains("#supplier-name-notice", "[Seller name]")
        .await;
    b.wait_contains("#supplier-name-notice", "Alter Name GmbH")
        .await;
    b.theme_screenshots("rough-edges-seller-name").await;
    b.click("#take-seller-name").await;
    b.wait_contains(".detail-customer", "[Seller name]").await;
    b.wait_js(
        "return !document.querySelector('#supplier-name-notice');",
        vec![],
    )
    .await;
    let company = server.get(&format!("/companies/{supplier}")).await;
    assert_eq!(company["name"], "[Seller name]");
    assert_eq!(company["vat_identifier"], "DE136308783");
    b.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn an_offer_e_mail_greets_its_contact_person() {
    let server = Server::start(Some(dist()), vec![]).await;
    let customer = server
        .create(
            "/companies",
            json!({"name": "Kranzler Bau GmbH", "language": "de", "email": "info@kranzler.example",
                   "address": "Ring 1\n10115 Berlin"}),
        )
        .await;
    let person = server
        .create(
            "/contacts/people",
            json!({"company_id": customer, "firstname": "Maria", "lastname": "Berger",
                   "gender": "F", "salutation": "Dr.", "email": "m.berger@kranzler.example"}),
        )
        .await;
    let offer = server
        .post(
            "/offers",
            json!({"company_id": customer, "contact_id": person,
                "recipient_address": "Kranzler Bau GmbH\nRing 1\n10115 Berlin",
                "date": "2026-11-02", "due_date": "2026-12-02", "title": "Gerüst", "tax": 19,
                "currency": "EUR",
                "items": [{"type": "item", "title": "Gerüst", "quantity": 1, "unit": "Stk.", "unit_price": 100}]}),
        )
        .await;
    let b = server.signed_in_browser().await;
    b.open(&server.base, &format!("/offers/{}", offer["id"]))
        .await;
    b.click("#send-email").await;
    b.wait_js(
        "return document.querySelector('#email-text').value.startsWith('Sehr geehrte Frau Dr. Berger,');",
        vec![],
    )
    .await;
    let to = b.prop("#email-to", "value").await;
    assert!(to.contains("m.berger@kranzler.example"), "{to}");
    b.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_dunning_actions_stay_in_view_while_the_list_scrolls() {
    let server = Server::start(Some(dist()), vec![]).await;
    let customer = server.customer("Hafen Logistik GmbH").await;
    for n in 0..30 {
        server
            .post(
                "/invoices",
                json!({"customer_id": customer, "recipient_address": "Hafen Logistik GmbH\nHafenstraße 5\n20457 Hamburg",
                    "date": "2026-09-01", "due_date": "2026-09-15", "title": format!("Lagerung {n}"), "tax": 19, "currency": "EUR",
                    "items": [{"type": "item", "title": "Lagerung", "quantity": 1, "unit": "Monat", "unit_price": 100}]}),
            )
            .await;
    }
    let b = server.signed_in_browser().await;
    b.client.set_window_size(1024, 768).await.unwrap();
    b.open(&server.base, "/dunning").await;
    b.find("#dunning-table tbody tr").await;
    b.click("#dunning-all").await;
    // Scrolled to the top of the long list, the actions are still inside the window.
    b.client
        .execute("window.scrollTo(0, 0);", vec![])
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let in_view = b
        .wait_js(
            "const r = document.querySelector('#dunning-remind').getBoundingClientRect();
             return r.bottom <= window.innerHeight && r.top >= 0;",
            vec![],
        )
        .await;
    assert_eq!(in_view, json!(true));
    b.theme_screenshots("rough-edges-dunning-1024").await;
    b.client.set_window_size(1024, 768).await.unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let sideways = b
        .client
        .execute(
            "const r = document.documentElement;
             const wide = [...document.querySelectorAll('.table-wrap')].filter(w => w.scrollWidth > w.clientWidth + 1)
                 .map(w => {
                     const edge = w.getBoundingClientRect().left + w.clientLeft + w.clientWidth;
                     const past = [...w.querySelectorAll('*')]
                         .filter(e => e.scrollWidth > e.clientWidth + 1 || e.getBoundingClientRect().right > edge + 0.5)
                         .slice(0, 4).map(e => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right - edge) + ' sw' + e.scrollWidth + '/' + e.clientWidth + ' ' + e.textContent.trim().slice(0, 20));
                     return w.scrollWidth + '>' + w.clientWidth + ' ' + getComputedStyle(w).overflowX + ' t' + w.querySelector('table')?.getBoundingClientRect().width + ' ' + past.join(' | ');
                 });
             return (r.scrollWidth > r.clientWidth + 1 ? ['page ' + r.scrollWidth + '>' + r.clientWidth] : []).concat(wide);",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(
        sideways,
        json!([]),
        "the Dunning page scrolls sideways at 1024 px"
    );
    b.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_half_filled_invoice_survives_a_reload_until_it_is_saved() {
    let server = Server::start(Some(dist()), vec![]).await;
    let customer = server.customer("Hafen Logistik GmbH").await;
    let b = server.signed_in_browser().await;
    b.open(&server.base, "/invoices/new").await;
    b.pick_company("#f-customer_id", "Hafen Logistik GmbH")
        .await;
    b.wait_picked("#f-customer_id", &customer.to_string()).await;
    let row = |field: &str| {
        format!(".pe-table tbody tr[data-row-key]:nth-of-type(1) [data-field={field}]")
    };
    b.fill("#f-title", "Lagerung Dezember").await;
    b.fill(&row("title"), "Lagerfläche").await;
    b.fill(&row("quantity"), "2.5x").await;
    b.fill(&row("unit"), "Monat").await;
    tokio::time::sleep(Duration::from_millis(900)).await;

    // The tab is reloaded (or crashed): the form offers what was typed, with its time.
    b.client.refresh().await.unwrap();
    b.find("#local-draft-notice").await;
    b.theme_screenshots("rough-edges-restore-draft").await;
    b.reload_and_restore_local_draft("#f-title").await;
    b.wait_js(
        "return document.querySelector('#f-title').value === 'Lagerung Dezember';",
        vec![],
    )
    .await;
    assert_eq!(b.prop(&row("title"), "value").await, "Lagerfläche");
    // Exactly as typed, also a quantity that is not a number yet.
    assert_eq!(b.prop(&row("quantity"), "value").await, "2.5x");
    assert_eq!(b.prop(&row("unit"), "value").await, "Monat");
    b.wait_picked("#f-customer_id", &customer.to_string()).await;
    assert_eq!(
        b.client
            .execute(
                "return !document.querySelector('#local-draft-notice');",
                vec![]
            )
            .await
            .unwrap(),
        json!(true)
    );

    // Saved as a draft on the server: nothing is offered any more.
    b.fill(&row("quantity"), "2.5").await;
    b.fill(&row("unit_price"), "300").await;
    b.click(".form-actions button.btn:not(.btn-primary)").await;
    b.wait_js(
        "return /^\\/invoices\\/\\d+$/.test(location.pathname);",
        vec![],
    )
    .await;
    let saved = server.get(&b.path().await).await;
    assert_eq!(saved["title"], "Lagerung Dezember");
    assert_eq!(saved["customer_id"], json!(customer));
    assert_eq!(saved["items"][0]["unit"], "Monat");
    b.assert_no_local_draft_offered(&server.base, "/invoices/new", "#f-title")
        .await;

    // Typed again, then signing out removes every local draft (shared computers).
    b.fill("#f-title", "Nur getippt").await;
    tokio::time::sleep(Duration::from_millis(900)).await;
    let stored = b
        .client
        .execute(
            "return Object.keys(localStorage).filter(k => k.startsWith('kontor.draft.')).length;",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(stored, json!(1));
    b.click("#user-menu-button").await;
    b.click("#sign-out").await;
    b.wait_js(
        "return location.pathname.endsWith('/sign-in') && Object.keys(localStorage).every(k => !k.startsWith('kontor.draft.'));",
        vec![],
    )
    .await;
    b.close().await;
}

/// The controls inside `main` whose value is cut: text inputs whose text is wider than the
/// box, selects whose chosen option's text does not fit beside the arrow.
async fn cut_values(b: &Browser) -> Vec<String> {
    let found = b
        .client
        .execute(
            r#"
            const out = [];
            const canvas = document.createElement('canvas').getContext('2d');
            for (const el of document.querySelectorAll('main input[type=text], main input:not([type]), main select')) {
                if (!el.offsetParent) continue;
                const cs = getComputedStyle(el);
                if (el.tagName === 'SELECT') {
                    const text = el.selectedOptions[0]?.textContent.trim() ?? '';
                    canvas.font = cs.fontWeight + ' ' + cs.fontSize + ' ' + cs.fontFamily;
                    const room = el.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
                    if (canvas.measureText(text).width > room + 1) {
                        out.push('select ' + (el.id || el.name) + ' cuts "' + text + '"');
                    }
                } else if (el.value && el.scrollWidth > el.clientWidth + 1) {
                    out.push('input ' + (el.id || el.dataset.field) + ' cuts "' + el.value + '"');
                }
            }
            return out;
            "#,
            vec![],
        )
        .await
        .unwrap();
    serde_json::from_value(found).unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread")]
async fn at_1024_px_units_selects_and_receipt_numbers_show_whole() {
    let server = Server::start(Some(dist()), vec![]).await;
    let customer = server.customer("Hafen Logistik GmbH").await;
    let invoice = server
        .post(
            "/invoices",
            json!({"customer_id": customer, "recipient_address": "Hafen Logistik GmbH\nHafenstraße 5\n20457 Hamburg",
                "date": "2026-11-02", "due_date": "2026-11-16", "title": "Lagerung November", "tax": 19, "currency": "EUR", "status": "draft",
                "items": [{"type": "item", "title": "Lagerfläche", "quantity": 2, "unit": "Monat", "unit_price": 300}]}),
        )
        .await;
    server
        .post(
            "/purchases",
            json!({"date": "2026-11-10", "currency": "EUR", "payment_method": "bank_transfer",
                   "receipt_identifier": "RE-2026-0004711-HH",
                   "items": [{"title": "Druckerpapier", "total": 119, "tax": 19, "tax_included": true}]}),
        )
        .await;
    let b = server.signed_in_browser().await;
    b.client.set_window_size(1024, 768).await.unwrap();
    for lang in ["en", "de"] {
        b.client
            .execute(
                "localStorage.setItem('kontor.language', arguments[0]);",
                vec![json!(lang)],
            )
            .await
            .unwrap();
        // The invoice form: the unit "Monat" and every select (term, currency, VAT kind).
        b.open(&server.base, &format!("/invoices/{}/edit", invoice["id"]))
            .await;
        b.wait_js(
            "return document.querySelector('.pe-table [data-field=unit]')?.value === 'Monat';",
            vec![],
        )
        .await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert_eq!(
            cut_values(&b).await,
            Vec::<String>::new(),
            "{lang}: the invoice form"
        );
        // The purchases list: the receipt number on one line.
        b.open(&server.base, "/purchases").await;
        b.find("td.cell-receipt").await;
        let lines = b
            .client
            .execute(
                "const td = document.querySelector('td.cell-receipt');
                 const range = document.createRange(); range.selectNodeContents(td);
                 return new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top))).size;",
                vec![],
            )
            .await
            .unwrap();
        assert_eq!(lines, json!(1), "{lang}: the receipt number wraps");
        b.screenshot(&format!("rough-edges-purchases-1024-{lang}"))
            .await;
    }
    b.close().await;
}
