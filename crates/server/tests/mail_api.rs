//! Sending invoices by e-mail: to a real SMTP server (Python's aiosmtpd, started by the
//! test), to the outbox without SMTP, and refusals (no recipient, unreachable server).

mod common;

use common::smtp::{free_port, smtp_server, start_sending_to, wait_for_messages};
use common::start;
use serde_json::json;

#[tokio::test]
async fn sends_the_pdf_to_default_recipients_with_cc_and_bcc_and_marks_sent() {
    let mail = smtp_server().await;
    let port = mail.port;
    let s = start_sending_to(port).await;
    let c = s.create("/companies", json!({"name": "Mail AG", "address": "Weg 1", "email": "ap@mail-ag.example", "billing_email_cc": "boss@mail-ag.example"})).await;
    let id = s.invoice(c, json!({})).await.body["id"].as_i64().unwrap();

    let r = s.post(&format!("/invoices/{id}/send_email"), json!({"subject": "Invoice R2611-001", "text": "Dear team,\nplease find the invoice attached.", "emails_bcc": "archive@kontor.example"})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    // Only bcc given: emails_to still comes from the defaults, the default CC does not.
    assert_eq!(
        (
            r.body["emails_to"].as_str(),
            r.body["emails_cc"].as_str(),
            r.body["emails_bcc"].as_str()
        ),
        (
            Some("ap@mail-ag.example"),
            Some(""),
            Some("archive@kontor.example")
        )
    );
    let r = s.post(&format!("/invoices/{id}/send_email"), json!({"subject": "Invoice R2611-001", "text": "Dear team,\nplease find the invoice attached."})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    // How it left and its sent-mail record (issue 33), then exactly the message.
    let mut body = r.body.clone();
    let record = body.as_object_mut().unwrap();
    assert_eq!(record.remove("transport"), Some(json!("smtp")));
    assert!(record.remove("email_id").unwrap().is_i64());
    assert_eq!(
        body,
        json!({"subject": "Invoice R2611-001", "text": "Dear team,\nplease find the invoice attached.", "emails_to": "ap@mail-ag.example", "emails_cc": "boss@mail-ag.example", "emails_bcc": ""})
    );

    let r = s.post(&format!("/invoices/{id}/send_email"), json!({"subject": "Copy", "text": "For you", "emails_to": "a@x.example; b@y.example", "emails_cc": "c@z.example", "emails_bcc": "d@w.example"})).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.body["emails_to"], "a@x.example;b@y.example");
    let all = wait_for_messages(&mail, 3).await;
    let copy = all
        .iter()
        .find(|m| m.contains("Subject: Copy"))
        .expect("the message arrived");
    assert!(
        copy.contains("X-RcptTo: a@x.example, b@y.example, c@z.example, d@w.example"),
        "{copy}"
    );
    assert!(!copy.contains("Bcc:"), "BCC is not disclosed");
    assert!(
        copy.contains("filename=\"R2611-001.pdf\"") || copy.contains("filename=R2611-001.pdf"),
        "{copy}"
    );
    assert!(copy.contains("application/pdf"));
    let default = all
        .iter()
        .find(|m| {
            m.contains("Subject: Invoice R2611-001")
                && m.contains("X-RcptTo: ap@mail-ag.example, boss@mail-ag.example")
        })
        .expect("default recipients");
    assert!(default.contains("To: ap@mail-ag.example"), "{default}");

    let inv = s.get(&format!("/invoices/{id}")).await.body;
    assert_eq!(
        (inv["status"].as_str(), inv["locked"].as_bool()),
        (Some("sent"), Some(true))
    );
}

#[tokio::test]
async fn refuses_without_recipient_and_reports_a_dead_mail_server() {
    let dead = free_port();
    let s = start_sending_to(dead).await;
    let c = s.create("/companies", json!({"name": "No Mail"})).await;
    let id = s.invoice(c, json!({})).await.body["id"].as_i64().unwrap();
    let r = s
        .post(
            &format!("/invoices/{id}/send_email"),
            json!({"subject": "x", "text": "y"}),
        )
        .await;
    assert_eq!(r.status, 422);
    assert!(r.body["errors"]["emails_to"].is_array());
    let r = s
        .post(
            &format!("/invoices/{id}/send_email"),
            json!({"emails_to": "not-an-address"}),
        )
        .await;
    assert!(
        r.body["errors"]["subject"].is_array()
            && r.body["errors"]["text"].is_array()
            && r.body["errors"]["emails_to"].is_array()
    );
    let r = s
        .post(
            &format!("/invoices/{id}/send_email"),
            json!({"subject": "x", "text": "y", "emails_to": "a@b.example"}),
        )
        .await;
    assert_eq!(r.status, 502, "{}", r.body);
    assert!(r.body["message"].as_str().unwrap().contains("mail server"));
    let inv = s.get(&format!("/invoices/{id}")).await.body;
    assert_eq!(
        (inv["status"].as_str(), inv["locked"].as_bool()),
        (Some("created"), Some(false)),
        "nothing marked sent"
    );
}

#[tokio::test]
async fn without_smtp_messages_go_to_the_outbox() {
    let s = start().await;
    let c = s.customer("Outbox KG").await;
    let id = s.invoice(c, json!({})).await.body["id"].as_i64().unwrap();
    let r = s
        .post(
            &format!("/invoices/{id}/send_email"),
            json!({"subject": "Your invoice", "text": "Attached."}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let outbox = s.data_path().join("outbox");
    let files: Vec<_> = std::fs::read_dir(&outbox)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "eml"))
        .collect();
    assert_eq!(files.len(), 1);
    let eml = std::fs::read_to_string(&files[0]).unwrap();
    assert!(
        eml.contains("Subject: Your invoice")
            && eml.contains("To: billing@example.com")
            && eml.contains("application/pdf"),
        "{eml}"
    );
}

/// A listener on 127.0.0.1 that accepts connections and then does `serve` with each
/// (kept open until the test ends); its port.
fn fake_peer(serve: fn(std::net::TcpStream)) -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            std::thread::spawn(move || serve(stream));
        }
    });
    port
}

/// Sends an invoice by e-mail through a mail server on `port`; the answer and how long it
/// took.
async fn send_through(port: u16) -> (common::Reply, std::time::Duration) {
    let s = start_sending_to(port).await;
    let c = s.create("/companies", json!({"name": "Probe"})).await;
    let id = s.invoice(c, json!({})).await.body["id"].as_i64().unwrap();
    let started = std::time::Instant::now();
    let r = s
        .post(
            &format!("/invoices/{id}/send_email"),
            json!({"subject": "x", "text": "y", "emails_to": "a@b.example"}),
        )
        .await;
    (r, started.elapsed())
}

#[tokio::test(flavor = "multi_thread")]
async fn a_silent_mail_server_cannot_hold_a_request_and_ports_read_alike() {
    // Accepts and never says a word (it held a request for 300 s before issue 29).
    let silent = fake_peer(|stream| {
        std::thread::sleep(std::time::Duration::from_secs(120));
        drop(stream);
    });
    // Another service on an open port: it answers, but not as a mail server.
    let other = fake_peer(|mut stream| {
        use std::io::Write;
        let _ = stream.write_all(b"SSH-2.0-OpenSSH_9.2\r\n");
        std::thread::sleep(std::time::Duration::from_secs(60));
    });
    let closed = free_port();
    let (silent, took) = send_through(silent).await;
    assert_eq!(silent.status, 502, "{}", silent.body);
    assert!(
        took < std::time::Duration::from_secs(35),
        "the request was held for {took:?}"
    );
    let (other, _) = send_through(other).await;
    let (closed, _) = send_through(closed).await;
    assert_eq!((other.status.as_u16(), closed.status.as_u16()), (502, 502));
    // The same sentence for all three: the settings cannot probe the network.
    assert_eq!(silent.body["message"], closed.body["message"]);
    assert_eq!(other.body["message"], closed.body["message"]);
    assert!(closed.body["message"]
        .as_str()
        .unwrap()
        .starts_with("The mail server could not be reached"));
}
