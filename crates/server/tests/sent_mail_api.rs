//! Issue 33 § Sent mail, on a real server with a real SMTP server (aiosmtpd): every message
//! is recorded (`GET /emails`) — sent, put in the outbox, or failed with the sentence the
//! sender saw; a failed message is sent again byte for byte once the mail server works
//! (`POST /emails/{id}/resend`), which marks the invoice sent; the dashboard counts failed
//! mail and says when SMTP is not set up; mail with a password link is not kept.

mod common;

use common::smtp::{free_port, smtp_server, start_sending_to, wait_for_messages};
use common::start;
use serde_json::{json, Value};

/// The dashboard's to-do count of `kind`.
async fn todo(s: &common::TestServer, kind: &str) -> i64 {
    let d = s.get("/dashboard").await.body;
    d["todo"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["kind"] == kind)
        .unwrap_or_else(|| panic!("{kind} in {d}"))["count"]
        .as_i64()
        .unwrap()
}

#[tokio::test]
async fn a_failed_message_is_recorded_and_sent_again_once_the_mail_server_works() {
    let dead = free_port();
    let s = start_sending_to(dead).await;
    let c = s.customer("Mail AG").await;
    let invoice = s.invoice(c, json!({})).await.body;
    let id = invoice["id"].as_i64().unwrap();
    let r = s
        .post(
            &format!("/invoices/{id}/send_email"),
            json!({"subject": "Rechnung R2611-001", "text": "Anbei.", "emails_cc": "cc@mail-ag.example", "emails_bcc": "archiv@kontor.example"}),
        )
        .await;
    assert_eq!(r.status, 502, "{}", r.body);
    let shown = r.body["message"].as_str().unwrap().to_string();

    let list = s.get("/emails?state=failed").await;
    assert_eq!(list.status, 200, "{}", list.body);
    let records = list.body.as_array().unwrap();
    assert_eq!(records.len(), 1, "{}", list.body);
    let failed = &records[0];
    assert_eq!(failed["to"], json!(["billing@example.com"]));
    assert_eq!(failed["cc"], json!(["cc@mail-ag.example"]));
    assert!(failed.get("bcc").is_none(), "blind copies are not shown");
    assert_eq!(failed["subject"], "Rechnung R2611-001");
    assert_eq!(
        failed["document"],
        json!({"type": "invoice", "id": id, "identifier": invoice["identifier"]})
    );
    assert_eq!(
        (failed["transport"].as_str(), failed["state"].as_str()),
        (Some("smtp"), Some("failed"))
    );
    assert_eq!(failed["error"], shown);
    assert_eq!(failed["resendable"], true);
    assert_eq!(todo(&s, "emails_failed").await, 1);
    assert_eq!(todo(&s, "smtp_not_set_up").await, 0);
    assert_eq!(
        s.get("/emails?open=true")
            .await
            .body
            .as_array()
            .unwrap()
            .len(),
        1
    );
    // The invoice's own list shows it; another invoice's does not.
    let mine = s
        .get(&format!("/emails?document_type=invoice&document_id={id}"))
        .await;
    assert_eq!(mine.body.as_array().unwrap().len(), 1);
    let other = s
        .get(&format!(
            "/emails?document_type=invoice&document_id={}",
            id + 1000
        ))
        .await;
    assert_eq!(other.body, json!([]));

    // Resending while the server is still down fails again and is recorded again.
    let failed_id = failed["id"].as_i64().unwrap();
    let r = s
        .post(&format!("/emails/{failed_id}/resend"), json!({}))
        .await;
    assert_eq!(r.status, 502, "{}", r.body);
    let again = s.get("/emails?open=true").await.body;
    assert_eq!(
        again.as_array().unwrap().len(),
        1,
        "the newer failure is the open one"
    );
    let second_failure = again[0]["id"].as_i64().unwrap();
    assert_ne!(second_failure, failed_id);

    // The mail server works now: the message goes out byte for byte, to everyone.
    let mail = smtp_server().await;
    let r = s
        .put(
            "/account",
            json!({"smtp": {"host": "127.0.0.1", "port": mail.port, "security": "none"}}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let r = s
        .post(&format!("/emails/{second_failure}/resend"), json!({}))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        (r.body["state"].as_str(), r.body["transport"].as_str()),
        (Some("sent"), Some("smtp"))
    );
    let new_id = r.body["id"].as_i64().unwrap();
    let arrived = wait_for_messages(&mail, 1).await;
    assert_eq!(arrived.len(), 1);
    assert!(
        arrived[0].contains("Subject: Rechnung R2611-001"),
        "{}",
        arrived[0]
    );
    assert!(
        arrived[0]
            .contains("X-RcptTo: billing@example.com, cc@mail-ag.example, archiv@kontor.example"),
        "{}",
        arrived[0]
    );
    assert_eq!(
        s.get(&format!("/emails/{second_failure}")).await.body["resent_email_id"],
        new_id
    );
    assert_eq!(todo(&s, "emails_failed").await, 0);
    let inv = s.get(&format!("/invoices/{id}")).await.body;
    assert_eq!(
        inv["status"], "sent",
        "a delivered resend marks the invoice sent"
    );

    // Unknown record, bad filter.
    assert_eq!(s.post("/emails/999999/resend", json!({})).await.status, 404);
    assert_eq!(s.get("/emails/999999").await.status, 404);
    assert_eq!(s.get("/emails?state=lost").await.status, 400);
    assert_eq!(s.get("/emails?document_type=letter").await.status, 400);
    // A read-only key reads the record but does not send.
    let viewer = s.read_only_key().await;
    let get = s
        .status_as(&viewer, reqwest::Method::GET, "/emails", None)
        .await;
    let post = s
        .status_as(
            &viewer,
            reqwest::Method::POST,
            &format!("/emails/{failed_id}/resend"),
            Some(json!({})),
        )
        .await;
    assert_eq!((get, post), (200, 403));
}

#[tokio::test]
async fn without_smtp_mail_is_queued_in_the_outbox_and_the_dashboard_says_so() {
    let s = start().await;
    assert_eq!(todo(&s, "smtp_not_set_up").await, 1);
    let c = s.customer("Outbox KG").await;
    let id = s.invoice(c, json!({})).await.body["id"].as_i64().unwrap();
    let r = s
        .post(
            &format!("/invoices/{id}/send_email"),
            json!({"subject": "Ihre Rechnung", "text": "Anbei."}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["transport"], "outbox");
    let email_id = r.body["email_id"].as_i64().unwrap();
    let record = s.get(&format!("/emails/{email_id}")).await.body;
    assert_eq!(
        (
            record["state"].as_str(),
            record["transport"].as_str(),
            record["error"].clone()
        ),
        (Some("queued"), Some("outbox"), Value::Null)
    );
    // An offer's mail is recorded with the offer.
    let offer = s
        .post(
            "/offers",
            json!({"company_id": c, "recipient_address": "Outbox KG\nWeg 1", "date": "2026-11-03",
                   "due_date": "2026-12-03", "title": "Angebot", "tax": 19, "currency": "EUR",
                   "items": [{"type": "item", "title": "Beratung", "quantity": 1, "unit_price": 100}]}),
        )
        .await;
    assert_eq!(offer.status, 200, "{}", offer.body);
    let oid = offer.body["id"].as_i64().unwrap();
    let r = s
        .post(
            &format!("/offers/{oid}/send_email"),
            json!({"subject": "Ihr Angebot", "text": "Anbei."}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let offers = s
        .get(&format!("/emails?document_type=offer&document_id={oid}"))
        .await
        .body;
    assert_eq!(offers.as_array().unwrap().len(), 1, "{offers}");
    assert_eq!(offers[0]["document"]["type"], "offer");
    // All of them, newest first.
    let all = s.get("/emails").await.body;
    let subjects: Vec<&str> = all
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["subject"].as_str().unwrap())
        .collect();
    assert_eq!(subjects, ["Ihr Angebot", "Ihre Rechnung"]);
}

#[tokio::test]
async fn mail_with_a_password_link_is_recorded_but_not_kept() {
    let mail = smtp_server().await;
    let s = start_sending_to(mail.port).await;
    let r = s
        .post(
            "/users",
            json!({"email": "neu@kontor.example", "firstname": "Nina", "lastname": "Neu", "role": "staff"}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.body["invitation"]["emailed"], true, "{}", r.body);
    let all = s.get("/emails").await.body;
    let invitation = all
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["to"] == json!(["neu@kontor.example"]))
        .unwrap_or_else(|| panic!("{all}"))
        .clone();
    assert_eq!(invitation["document"], Value::Null);
    assert_eq!(invitation["resendable"], false);
    assert_eq!(invitation["state"], "sent");
    let r = s
        .post(&format!("/emails/{}/resend", invitation["id"]), json!({}))
        .await;
    assert_eq!(r.status, 422, "{}", r.body);
    let kept = std::fs::read_dir(s.data_path().join("files").join("sent_mail"))
        .map(|d| d.count())
        .unwrap_or(0);
    assert_eq!(
        kept, 0,
        "the link is nowhere but in the recipient's mailbox"
    );
}

/// Two resends of one message at once send it once: while the first waits for a mail
/// server that accepts the connection and never answers, the second is refused ("being
/// sent again"); once the first has finished, the message can be sent again.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_message_being_resent_is_not_sent_a_second_time_at_once() {
    let port = free_port();
    let s = start_sending_to(port).await;
    let c = s.customer("Mail AG").await;
    let id = s.invoice(c, json!({})).await.body["id"].as_i64().unwrap();
    let r = s
        .post(
            &format!("/invoices/{id}/send_email"),
            json!({"subject": "Rechnung", "text": "Anbei."}),
        )
        .await;
    assert_eq!(r.status, 502, "{}", r.body);
    let failed = s.get("/emails?state=failed").await.body[0]["id"]
        .as_i64()
        .unwrap();
    // A "mail server" that takes the connection and says nothing.
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port))
        .await
        .unwrap();
    let silent = tokio::spawn(async move {
        let mut held = Vec::new();
        loop {
            let (socket, _) = listener.accept().await.unwrap();
            held.push(socket);
        }
    });
    let first = tokio::spawn(
        s.keyed(reqwest::Method::POST, &format!("/emails/{failed}/resend"))
            .json(&json!({}))
            .send(),
    );
    tokio::time::sleep(std::time::Duration::from_millis(700)).await;
    let second = s.post(&format!("/emails/{failed}/resend"), json!({})).await;
    assert_eq!(second.status, 422, "{}", second.body);
    assert!(
        second.body["message"]
            .as_str()
            .unwrap()
            .contains("being sent again"),
        "{}",
        second.body
    );
    // The server hangs up: the first resend fails and the claim is released.
    silent.abort();
    let _ = silent.await;
    let first = first.await.unwrap().unwrap();
    assert_eq!(first.status().as_u16(), 502);
    let third = s.post(&format!("/emails/{failed}/resend"), json!({})).await;
    assert_eq!(third.status, 502, "{}", third.body);
    let records = s.get("/emails").await.body;
    assert_eq!(
        records.as_array().unwrap().len(),
        3,
        "the first send and two resends: {records}"
    );
}
