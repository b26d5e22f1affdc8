//! Issue 3, payments and billing: rows billing time and expenses, default e-mail
//! recipients, the open amount, and the payment/reminder dialogs' checks.

use super::fixtures::{activity, customer, expense, invoice, project};
use super::{container, find, input, settle, submit_dialog_with};
use kontor_app::components::position_editor::PositionRow;
use kontor_app::components::toast::Toasts;
use kontor_app::pages::companies::detail_documents::invoice_open;
use kontor_app::pages::invoices::detail_email::sent_message;
use kontor_app::pages::invoices::detail_reminders::{reminder_body, text_to_html};
use kontor_app::pages::invoices::form_billing::{append_rows, billed_in_rows};
use kontor_app::pages::invoices::payment_dialog::{payment_body, unpaid_amount};
use kontor_app::pages::invoices::InvoiceFormState;
use kontor_model::email::SentEmail;
use kontor_model::recipients::{
    check_recipients, invoice_recipients as default_recipients, Recipients,
};
use kontor_model::status::InvoiceStatus;
use leptos::prelude::*;
use wasm_bindgen_test::*;
use web_sys::HtmlInputElement;

#[wasm_bindgen_test]
fn billed_rows_carry_their_ids_into_the_body() {
    let state = InvoiceFormState::blank("EUR");
    state.customer_id.set(Some(1));
    let rows = vec![
        PositionRow::from_activity(&activity(7, "2.5")),
        PositionRow::from_expense(&expense(3)),
    ];
    append_rows(state.rows, rows);
    assert_eq!(
        state.rows.get_untracked().len(),
        2,
        "the blank row is replaced"
    );
    let (body, errors) = state.body(InvoiceStatus::Created);
    assert!(errors.is_empty(), "{errors:?}");
    let items = body.items.unwrap();
    let json = serde_json::to_string(&items[0]).unwrap();
    assert!(
        json.contains(r#""quantity":2.5"#) && json.contains(r#""unit":"h""#),
        "{json}"
    );
    assert!(
        json.contains(r#""unit_price":95"#) && json.contains(r#""activity_ids":[7]"#),
        "{json}"
    );
    assert_eq!(items[0].title.as_deref(), Some("Kick-off workshop"));
    assert_eq!(items[0].expense_ids, None);
    assert_eq!(items[1].expense_ids, Some(vec![3]));
    assert_eq!(items[1].unit.as_deref(), Some("pcs"));

    let (a, e) = billed_in_rows(&state.rows.get_untracked());
    assert_eq!(
        (
            a.into_iter().collect::<Vec<_>>(),
            e.into_iter().collect::<Vec<_>>()
        ),
        (vec![7], vec![3])
    );
    let copy = state.rows.get_untracked()[0].duplicate();
    assert!(
        copy.activity_ids.get_untracked().is_empty(),
        "a copy bills nothing"
    );
    append_rows(state.rows, vec![PositionRow::item("Extra", "1", "", "5")]);
    assert_eq!(
        state.rows.get_untracked().len(),
        3,
        "added after existing rows"
    );
}

#[wasm_bindgen_test]
fn default_recipients_prefer_the_project() {
    let with = |to: &str, cc: &str| Recipients {
        to: to.into(),
        cc: cc.into(),
    };
    let both = project(
        Some("pm@hafen.example;boss@hafen.example"),
        Some("cc@hafen.example"),
    );
    assert_eq!(
        default_recipients(Some(&both), Some(&customer(Some("x@hafen.example")))),
        with("pm@hafen.example; boss@hafen.example", "cc@hafen.example")
    );
    let only_cc = project(None, Some("cc@hafen.example"));
    assert_eq!(
        default_recipients(Some(&only_cc), Some(&customer(Some("x@hafen.example")))),
        with("ap@hafen.example", "cc@hafen.example"),
        "no project recipient: the customer's e-mail, the project's CC"
    );
    assert_eq!(
        default_recipients(
            Some(&project(Some(" "), None)),
            Some(&customer(Some("x@hafen.example")))
        ),
        with("ap@hafen.example", "x@hafen.example")
    );
    assert_eq!(default_recipients(None, None), Recipients::default());
}

#[wasm_bindgen_test]
fn recipients_are_checked_and_named_after_sending() {
    let errors = check_recipients("", "boss@hafen.example", "not an address");
    assert!(errors.contains_key("emails_to"));
    assert!(!errors.contains_key("emails_cc"));
    assert_eq!(
        errors["emails_bcc"],
        vec!["not an address is not an e-mail address"]
    );
    assert!(check_recipients("a@x.example; b@y.example", "", "").is_empty());
    let sent = SentEmail {
        subject: "Invoice R2611-001".into(),
        text: "Hi".into(),
        emails_to: "a@x.example;b@y.example".into(),
        emails_cc: "c@z.example".into(),
        emails_bcc: String::new(),
        ..Default::default()
    };
    assert_eq!(
        sent_message(&invoice(&[]), &sent),
        "Invoice R2611-001 sent to a@x.example, b@y.example (CC c@z.example)."
    );
}

#[wasm_bindgen_test]
fn unpaid_amount_is_gross_minus_payments() {
    assert_eq!(unpaid_amount(&invoice(&[])).to_string(), "119.00");
    assert_eq!(unpaid_amount(&invoice(&["50"])).to_string(), "69.00");
    assert_eq!(
        unpaid_amount(&invoice(&["100", "30"])).to_string(),
        "0.00",
        "never below zero"
    );
}

#[wasm_bindgen_test]
fn the_company_page_shows_the_servers_open_amount() {
    // A reversed invoice: the server says nothing is open, although no payment was made
    // (issue 30: the page used to subtract payments itself and showed 119.00).
    let mut reversed = invoice(&[]);
    reversed.reversed = true;
    reversed.open_amount = "0.00".parse().unwrap();
    assert_eq!(
        invoice_open(&reversed).map(|d| d.to_string()),
        Some("0.00".into())
    );
    let mut open = invoice(&["50"]);
    open.open_amount = "69.00".parse().unwrap();
    assert_eq!(
        invoice_open(&open).map(|d| d.to_string()),
        Some("69.00".into())
    );
    let mut draft = invoice(&[]);
    draft.status = InvoiceStatus::Draft;
    assert_eq!(invoice_open(&draft), None, "a draft shows no open amount");
}

#[wasm_bindgen_test]
fn payment_and_reminder_texts_are_checked_like_the_server() {
    let errors = payment_body(5, "EUR", "", "").unwrap_err();
    assert!(errors.contains_key("date") && errors.contains_key("paid_total"));
    let errors = payment_body(5, "EUR", "2026-11-10", "10.005").unwrap_err();
    assert_eq!(
        errors["paid_total"],
        vec!["must have at most 2 decimal places in EUR"]
    );
    assert!(payment_body(5, "EUR", "2026-11-10", "0").is_err());
    let body = payment_body(5, "EUR", "2026-11-10", "1,234.5").unwrap();
    assert_eq!(
        serde_json::to_string(&body).unwrap(),
        r#"{"invoice_id":5,"date":"2026-11-10","paid_total":1234.5,"currency":"EUR"}"#
    );

    let errors = reminder_body(5, "EUR", "2026-11-20", "2026-11-10", "-1", "x", false).unwrap_err();
    assert!(errors.contains_key("due_date") && errors.contains_key("fee"));
    let ok = reminder_body(
        5,
        "EUR",
        "2026-11-20",
        "2026-11-27",
        "",
        "Hello <you>\nline 2\n\nNext",
        true,
    )
    .unwrap();
    // No fee typed: the level's fee (the server's default), with default interest.
    assert_eq!(ok.fee, None);
    assert_eq!(ok.charge_interest, Some(true));
    let typed = reminder_body(5, "EUR", "2026-11-20", "2026-11-27", "2.50", "", false);
    let typed = typed.unwrap();
    assert!(typed.fee.is_some() && typed.charge_interest.is_none());
    assert_eq!(
        ok.text.unwrap(),
        "<p>Hello &lt;you&gt;<br>line 2</p><p>Next</p>"
    );
    assert_eq!(text_to_html("a & b"), "<p>a &amp; b</p>");
}

/// Mounts the payment dialog of [`invoice`] with 50.00 paid and opens it: the mount point,
/// the amount field and the mount's handle (dropping it unmounts).
async fn open_payment_dialog() -> (web_sys::HtmlElement, HtmlInputElement, impl Sized) {
    let root = container();
    let handle = leptos::mount::mount_to(root.clone(), || {
        Toasts::provide();
        view! {
            <kontor_app::pages::invoices::payment_dialog::AddPayment
                invoice=invoice(&["50"])
                on_changed=Callback::new(|_| ())
            />
        }
    });
    settle().await;
    find(&root, "#add-payment").click();
    settle().await;
    let amount = input(&root, "#payment-amount");
    (root, amount, handle)
}

#[wasm_bindgen_test]
async fn the_payment_dialog_offers_the_open_amount() {
    let (root, amount, _handle) = open_payment_dialog().await;
    assert_eq!(amount.value(), "69.00");
    let date: HtmlInputElement = wasm_bindgen::JsCast::unchecked_into(find(&root, "#payment-date"));
    assert_eq!(date.value().len(), 10, "today's date: {}", date.value());
    assert!(root
        .text_content()
        .unwrap()
        .contains("Open amount: 69.00 EUR"));
}

#[wasm_bindgen_test]
async fn an_overpayment_is_confirmed_before_it_is_recorded() {
    let (root, amount, _handle) = open_payment_dialog().await;
    submit_dialog_with(&root, &amount, "79.00").await;
    let text = root.text_content().unwrap();
    assert!(
        text.contains("is more than the open amount of 69.00 EUR")
            && text.contains("credit of 10.00 EUR"),
        "{text}"
    );
    assert!(root
        .query_selector("#overpayment-confirm")
        .unwrap()
        .is_some());
    find(&root, "#overpayment-back").click();
    settle().await;
    assert!(
        root.query_selector("#overpayment-confirm")
            .unwrap()
            .is_none(),
        "back to the amount"
    );
}

#[wasm_bindgen_test]
fn an_overpaid_invoice_shows_a_credit() {
    use kontor_app::pages::invoices::payment_dialog::balance;
    use kontor_model::payment_rules::Balance;
    assert_eq!(
        balance(&invoice(&["100", "29"])),
        Balance::Credit("10.00".parse().unwrap())
    );
    assert_eq!(
        balance(&invoice(&["50"])),
        Balance::Open("69.00".parse().unwrap())
    );
}

#[wasm_bindgen_test]
async fn the_payments_tab_shows_an_overpayment_as_credit() {
    let root = container();
    let _handle = leptos::mount::mount_to(root.clone(), || {
        Toasts::provide();
        view! {
            <kontor_app::pages::invoices::detail_payments::PaymentsTab
                invoice=invoice(&["100", "29"])
                on_changed=Callback::new(|_| ())
            />
        }
    });
    settle().await;
    let text = root.text_content().unwrap();
    assert!(text.contains("credit 10.00 EUR"), "{text}");
    assert!(!text.contains("open 0.00"), "{text}");
}

/// A reminder as the server sends it (issue 14): level, claim, interest, sent or not.
fn reminder(id: i64, level: u8, sent_on: Option<&str>) -> serde_json::Value {
    serde_json::json!({"id": id, "invoice_id": 5, "date": "2026-11-20", "due_date": "2026-11-27",
        "fee": 5.00, "text": "", "dunning_level": level, "open_amount": 69.00, "days_overdue": 4,
        "interest_rate": 10.27, "interest": 0.08, "flat_fee": 40.00, "sent_on": sent_on,
        "created_on": "2026-11-20", "updated_on": "2026-11-20"})
}

#[wasm_bindgen_test]
async fn reminders_show_their_claim_and_only_unsent_ones_can_be_deleted() {
    let mut inv = invoice(&["50"]);
    inv.reminders = Some(vec![
        serde_json::from_str(&(reminder(1, 1, Some("2026-11-21"))).to_string()).unwrap(),
        serde_json::from_str(&(reminder(2, 2, None)).to_string()).unwrap(),
    ]);
    let root = container();
    let _handle = leptos::mount::mount_to(root.clone(), move || {
        Toasts::provide();
        view! {
            <kontor_app::pages::invoices::detail_reminders::RemindersSection
                invoice=inv.clone()
                on_changed=Callback::new(|_| ())
            />
        }
    });
    settle().await;
    let row = |id: i64| {
        find(&root, &format!("tr[data-reminder-id='{id}']"))
            .text_content()
            .unwrap()
    };
    let sent = row(1);
    assert!(sent.contains("69.00 EUR"), "claimed: {sent}");
    assert!(sent.contains("45.00 EUR"), "fee + flat fee: {sent}");
    assert!(sent.contains("0.08 EUR (10.27 %)"), "interest: {sent}");
    assert!(sent.contains("21 Nov 2026"), "sent on: {sent}");
    assert!(sent.contains("PDF") && sent.contains("Send"), "{sent}");
    assert!(!sent.contains("Delete"), "a sent reminder stays: {sent}");
    let unsent = row(2);
    assert!(
        unsent.contains("not sent") && unsent.contains("Delete"),
        "{unsent}"
    );
}

#[wasm_bindgen_test]
async fn a_payment_is_corrected_in_a_dialog_filled_with_its_values() {
    let root = container();
    let _handle = leptos::mount::mount_to(root.clone(), || {
        Toasts::provide();
        view! {
            <kontor_app::pages::invoices::detail_payments::PaymentsTab
                invoice=invoice(&["50"])
                on_changed=Callback::new(|_| ())
            />
        }
    });
    settle().await;
    let edit: web_sys::HtmlElement = wasm_bindgen::JsCast::unchecked_into(find(
        &root,
        "button[aria-label='Change the payment of 50.00 EUR']",
    ));
    edit.click();
    settle().await;
    let value = |css: &str| -> String {
        let input: HtmlInputElement = wasm_bindgen::JsCast::unchecked_into(find(&root, css));
        input.value()
    };
    assert_eq!(value("#edit-payment-date"), "2026-11-10");
    assert_eq!(value("#edit-payment-amount"), "50.00");
}

#[wasm_bindgen_test]
fn a_cash_discount_taken_counts_as_settled() {
    let mut inv = invoice(&["116.62"]);
    for p in inv.payments.iter_mut().flatten() {
        p.cash_discount = "2.38".parse().unwrap();
    }
    assert_eq!(unpaid_amount(&inv).to_string(), "0.00");
}
