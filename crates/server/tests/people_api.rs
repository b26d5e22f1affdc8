//! Users, API keys and who records belong to (issue 12).

mod common;

use common::people::{send_as, sign_in, user_with_role, PASSWORD};
use common::requests::send_json;
use common::start;
use reqwest::Method;
use serde_json::json;

#[tokio::test]
async fn admins_manage_users_and_the_last_admin_stays() {
    let s = start().await;
    let created = s
        .post(
            "/users",
            json!({"email": "lea@example.com", "firstname": "Lea", "lastname": "Fischer", "role": "read_only"}),
        )
        .await;
    assert_eq!(created.status, 201, "{}", created.body);
    let user = &created.body["user"];
    assert_eq!(user["role"], "read_only");
    assert_eq!(user["active"], true);
    assert_eq!(user["theme"], "system");
    assert_eq!(user["language"], serde_json::Value::Null);
    assert!(user.get("password_hash").is_none());
    let id = user["id"].as_i64().unwrap();

    let duplicate = s
        .post(
            "/users",
            json!({"email": "LEA@example.com", "firstname": "L", "lastname": "F"}),
        )
        .await;
    assert_eq!(duplicate.status, 422);
    assert!(duplicate.body["errors"]["email"].is_array());
    let bad = s
        .post(
            "/users",
            json!({"email": "nope", "firstname": "", "lastname": "F", "role": "owner"}),
        )
        .await;
    assert_eq!(bad.status, 422);
    for field in ["email", "firstname", "role"] {
        assert!(
            bad.body["errors"][field].is_array(),
            "{field}: {}",
            bad.body
        );
    }

    let promoted = s
        .put(
            &format!("/users/{id}"),
            json!({"role": "staff", "lastname": "Weber"}),
        )
        .await;
    assert_eq!(promoted.status, 200);
    assert_eq!(promoted.body["role"], "staff");
    assert_eq!(promoted.body["lastname"], "Weber");

    // The server's key acts for the only admin ("Admin Kontor", id 1).
    let me = s.get("/session").await.body["user"].clone();
    assert_eq!(me["role"], "admin");
    let admin = me["id"].as_i64().unwrap();
    let demote = s
        .put(&format!("/users/{admin}"), json!({"role": "staff"}))
        .await;
    assert_eq!(demote.status, 422);
    assert!(demote.body["errors"]["role"].is_array());
    let off = s
        .put(&format!("/users/{admin}"), json!({"active": false}))
        .await;
    assert_eq!(off.status, 422);
    assert!(off.body["errors"]["active"].is_array());
    // With a second admin, the first may step down.
    assert_eq!(
        s.put(&format!("/users/{id}"), json!({"role": "admin"}))
            .await
            .status,
        200
    );
    assert_eq!(
        s.put(&format!("/users/{admin}"), json!({"role": "staff"}))
            .await
            .status,
        200
    );
}

#[tokio::test]
async fn users_set_their_own_preferences_and_password() {
    let s = start().await;
    let (_, key) = user_with_role(&s, "reader@example.com", "read_only").await;
    let me = send_as(
        &s,
        Some(&key),
        Method::PUT,
        "/users/me",
        Some(json!({"language": "de", "theme": "dark"})),
    )
    .await;
    assert_eq!(me.status, 200, "{}", me.body);
    assert_eq!(me.body["language"], "de");
    assert_eq!(me.body["theme"], "dark");
    let bad = send_as(
        &s,
        Some(&key),
        Method::PUT,
        "/users/me",
        Some(json!({"language": "fr", "theme": "pink"})),
    )
    .await;
    assert_eq!(bad.status, 422);
    assert!(bad.body["errors"]["language"].is_array());
    assert!(bad.body["errors"]["theme"].is_array());
    let session = send_as(&s, Some(&key), Method::GET, "/session", None).await;
    assert_eq!(session.body["user"]["language"], "de");

    let change = |current: &'static str, new: &'static str| {
        let (s, key) = (&s, key.clone());
        async move {
            send_as(
                s,
                Some(&key),
                Method::PUT,
                "/users/me/password",
                Some(json!({"current_password": current, "password": new})),
            )
            .await
        }
    };
    let wrong = change("Not-My-Password-1", "Lampe-Fenster-Buch-91").await;
    assert_eq!(wrong.status, 422);
    assert!(wrong.body["errors"]["current_password"].is_array());
    let weak = change(PASSWORD, "qwertyuiop12").await;
    assert_eq!(weak.status, 422);
    assert!(weak.body["errors"]["password"][0]
        .as_str()
        .unwrap()
        .starts_with("is too easy"));
    assert_eq!(change(PASSWORD, "Lampe-Fenster-Buch-91").await.status, 204);
    assert_eq!(
        sign_in(&s, "reader@example.com", PASSWORD).await.status,
        401
    );
    assert_eq!(
        sign_in(&s, "reader@example.com", "Lampe-Fenster-Buch-91")
            .await
            .status,
        200
    );
}

#[tokio::test]
async fn admins_create_list_and_revoke_api_keys_the_secret_shown_once() {
    let s = start().await;
    let created = s
        .post(
            "/api_keys",
            json!({"name": "Buchhaltung", "read_only": false}),
        )
        .await;
    assert_eq!(created.status, 201, "{}", created.body);
    let secret = created.body["api_key"].as_str().unwrap().to_string();
    assert!(secret.starts_with("kontor_"));
    assert_eq!(created.body["kind"], "api");
    let id = created.body["id"].as_i64().unwrap();
    // The key acts for the admin who made it.
    let me = s.get("/session").await.body["id"].clone();
    assert_eq!(created.body["user"]["id"], me);
    let session = send_as(&s, Some(&secret), Method::GET, "/session", None).await;
    assert_eq!(session.status, 200);
    assert_eq!(session.body["kind"], "api");

    let list = s.get("/api_keys").await;
    assert_eq!(list.status, 200);
    let text = list.body.to_string();
    assert!(!text.contains(&secret));
    assert!(!text.contains("\"api_key\""));
    let entry = list
        .body
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["id"] == id)
        .unwrap()
        .clone();
    assert_eq!(entry["name"], "Buchhaltung");
    assert!(entry["last_used_at"].is_string(), "used just now: {entry}");

    assert_eq!(s.post("/api_keys", json!({"name": " "})).await.status, 422);
    assert_eq!(s.delete(&format!("/api_keys/{id}"), None).await.status, 204);
    assert_eq!(
        s.status_as(&secret, Method::GET, "/session", None).await,
        401
    );
    assert_eq!(s.delete("/api_keys/999", None).await.status, 404);
}

#[tokio::test]
async fn records_carry_the_signed_in_user() {
    let s = start().await;
    let customer = s.customer("Kunde GmbH").await;
    let (staff_id, key) = user_with_role(&s, "staff@example.com", "staff").await;
    let mut body = common::invoice_body(customer);
    let invoice = send_as(
        &s,
        Some(&key),
        Method::POST,
        "/invoices",
        Some(body.clone()),
    )
    .await;
    assert_eq!(invoice.status, 200, "{}", invoice.body);
    assert_eq!(invoice.body["user"]["id"], staff_id);
    // The same body with the admin's key: the admin.
    let admin = s.get("/session").await.body["id"].clone();
    body["title"] = json!("Second");
    assert_eq!(s.post("/invoices", body).await.body["user"]["id"], admin);
    let offer = send_as(
        &s,
        Some(&key),
        Method::POST,
        "/offers",
        Some(json!({
            "company_id": customer, "recipient_address": "ACME GmbH\nMain St 1",
            "date": "2026-11-05", "due_date": "2026-12-05", "title": "Angebot", "tax": 19,
            "items": [{"type": "item", "title": "Design", "quantity": 10, "unit": "h", "unit_price": 100}]
        })),
    )
    .await;
    assert_eq!(offer.status, 200, "{}", offer.body);
    assert_eq!(offer.body["user"]["id"], staff_id);
    let purchase = send_as(
        &s,
        Some(&key),
        Method::POST,
        "/purchases",
        Some(json!({
            "date": "2026-11-10", "currency": "EUR", "payment_method": "bank_transfer",
            "items": [{"title": "Printer paper", "total": 119, "tax": 19, "tax_included": true}]
        })),
    )
    .await;
    assert_eq!(purchase.status, 200, "{}", purchase.body);
    assert_eq!(purchase.body["user"]["id"], staff_id);
}

#[tokio::test]
async fn field_messages_come_in_german_for_accept_language_de_in_the_same_shape() {
    let s = start().await;
    let ask = |lang: &'static str, path: &'static str, body: serde_json::Value| {
        let s = &s;
        async move {
            let req = s.keyed(Method::POST, path).header("Accept-Language", lang);
            send_json(req, &body).await
        }
    };
    let bad_invoice = json!({"title": "", "items": [{"type": "item", "title": "A", "quantity": 1, "unit_price": 1.234}], "currency": "EUR"});
    let en = ask("en-US,en;q=0.9", "/invoices", bad_invoice.clone()).await;
    let de = ask("de-DE,de;q=0.9,en;q=0.8", "/invoices", bad_invoice).await;
    assert_eq!(en.status, 422);
    assert_eq!(de.status, 422);
    // Same fields, same number of messages: only the words change.
    let keys = |r: &common::Reply| {
        r.body["errors"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| (k.clone(), v.as_array().unwrap().len()))
            .collect::<Vec<_>>()
    };
    assert_eq!(keys(&en), keys(&de));
    assert_eq!(en.body["errors"]["customer_id"], json!(["is required"]));
    assert_eq!(
        de.body["errors"]["customer_id"],
        json!(["ist erforderlich"])
    );
    assert!(de.body["message"]
        .as_str()
        .unwrap()
        .starts_with("Ungültige Eingaben: "));
    assert_eq!(de.header("content-language"), "de");
    let en_keys: Vec<_> = en.body.as_object().unwrap().keys().collect();
    let de_keys: Vec<_> = de.body.as_object().unwrap().keys().collect();
    assert_eq!(en_keys, de_keys);
    // Issue 30: each message travels with its code and parameters, in the same order, so
    // that a client renders it in its own language; the codes do not depend on the
    // request's language.
    assert_eq!(
        en.body["error_codes"]["customer_id"],
        json!([{"code": "is_required", "params": []}])
    );
    assert_eq!(en.body["error_codes"], de.body["error_codes"]);
    assert_eq!(
        keys(&en).len(),
        en.body["error_codes"].as_object().unwrap().len()
    );
    let long_title = "x".repeat(501);
    let long = ask("de", "/companies", json!({"name": long_title})).await;
    assert_eq!(long.status, 422, "{}", long.body);
    let code = &long.body["error_codes"]["name"][0];
    assert_eq!(
        code["code"], "must_be_at_most_n_characters",
        "{}",
        long.body
    );
    let max = code["params"][0].as_str().unwrap().to_string();
    assert_eq!(
        long.body["errors"]["name"],
        json!([format!("darf höchstens {max} Zeichen lang sein")])
    );

    let company = ask(
        "de",
        "/companies",
        json!({"name": "X", "email": "kein-at", "iban": "DE00"}),
    )
    .await;
    assert_eq!(company.status, 422);
    assert_eq!(
        company.body["errors"]["email"],
        json!(["ist keine E-Mail-Adresse"])
    );
    let purchase = ask("de", "/purchases", json!({"items": []})).await;
    assert_eq!(purchase.status, 422);
    let text = purchase.body["errors"].to_string();
    assert!(
        text.contains("ist erforderlich") || text.contains("muss"),
        "{text}"
    );
    let offer = ask("de", "/offers", json!({"title": "A"})).await;
    assert_eq!(offer.status, 422);
    assert!(offer.body["errors"]
        .to_string()
        .contains("ist erforderlich"));
}

#[tokio::test]
async fn invitations_are_emailed_when_smtp_is_configured() {
    let mail = common::smtp::smtp_server().await;
    let s = common::smtp::start_sending_to(mail.port).await;
    let created = s
        .post(
            "/users",
            json!({"email": "jonas@example.com", "firstname": "Jonas", "lastname": "Weber"}),
        )
        .await;
    assert_eq!(created.status, 201, "{}", created.body);
    assert_eq!(created.body["invitation"]["emailed"], true);
    let token = created.body["invitation"]["token"].as_str().unwrap();
    let messages = common::smtp::messages(&mail.maildir.path().join("mail"));
    assert_eq!(messages.len(), 1);
    assert!(messages[0].contains("jonas@example.com"));
    // The text is quoted-printable: join its soft line breaks before looking for the link.
    let text = messages[0].replace("=\r\n", "").replace("=\n", "");
    assert!(text.contains(token), "the link is in the message: {text}");
    assert!(
        text.contains(&format!("{}/set-password?token=", s.base)),
        "{text}"
    );

    // A forged Host never reaches an inbox (issue 29): without KONTOR_PUBLIC_URL a link is
    // e-mailed only for the server's own address.
    let forged = send_json(
        s.keyed(Method::POST, "/users")
            .header("Host", "evil.example"),
        &json!({"email": "mara@example.com", "firstname": "Mara", "lastname": "Ost"}),
    )
    .await;
    assert_eq!(forged.status, 201, "{}", forged.body);
    assert_eq!(forged.body["invitation"]["emailed"], false);
    assert_eq!(
        common::smtp::messages(&mail.maildir.path().join("mail")).len(),
        1,
        "no second message"
    );
}

#[tokio::test]
async fn a_weak_new_password_is_refused_with_a_german_reason_for_accept_language_de() {
    let s = start().await;
    let (_, key) = user_with_role(&s, "staff@example.com", "staff").await;
    let change = |lang: &'static str, new: &'static str| {
        let (s, key) = (&s, key.clone());
        async move {
            let req = s
                .keyed_as(&key, Method::PUT, "/users/me/password")
                .header("Accept-Language", lang);
            send_json(req, &json!({"current_password": PASSWORD, "password": new})).await
        }
    };
    let en = change("en", "qwertyuiop12").await;
    assert_eq!(en.status, 422, "{}", en.body);
    let en_reason = en.body["errors"]["password"][0]
        .as_str()
        .unwrap()
        .to_string();
    let hint = en_reason.strip_prefix("is too easy to guess: ").unwrap();
    let de = change("de-DE,de;q=0.9,en;q=0.5", "qwertyuiop12").await;
    assert_eq!(de.status, 422, "{}", de.body);
    assert_eq!(
        de.body["errors"]["password"][0].as_str().unwrap(),
        format!(
            "ist zu leicht zu erraten: {}",
            kontor_model::error_text::password_hint_german(hint)
        )
    );
    let reason = de.body["errors"]["password"][0].as_str().unwrap();
    assert!(
        kontor_model::error_text::PASSWORD_HINTS_DE
            .iter()
            .any(|(_, german)| reason.ends_with(german)),
        "{reason}"
    );
    // The password is unchanged: the old one still signs in.
    assert_eq!(sign_in(&s, "staff@example.com", PASSWORD).await.status, 200);
}

#[tokio::test]
async fn no_one_locks_themselves_out() {
    let s = start().await;
    let (_, _) = user_with_role(&s, "second@example.com", "admin").await;
    let me = s.get("/session").await.body.clone();
    let (user, own) = (
        me["user"]["id"].as_i64().unwrap(),
        me["id"].as_i64().unwrap(),
    );
    // Deactivating oneself is refused even with another admin left.
    let off = s
        .put(&format!("/users/{user}"), json!({"active": false}))
        .await;
    assert_eq!(off.status, 422, "{}", off.body);
    assert!(off.body["errors"]["active"].is_array());
    // Revoking the key of the request itself is refused; the key keeps working.
    let revoke = s.delete(&format!("/api_keys/{own}"), None).await;
    assert_eq!(revoke.status, 422, "{}", revoke.body);
    assert!(revoke.body["errors"]["id"].is_array());
    assert_eq!(s.get("/session").await.status, 200);
}
