//! Roles on every write route (issue 12): the routes are read from the OpenAPI
//! description, which the routers themselves build (issue 15), so a new route is covered
//! at once; a write route missing from `kontor_server::access::roles::TABLE`, or an entry of the
//! table without its operation, fails here. Read-only users get 403 on every write but
//! their own sign-out, preferences and password; staff get 403 exactly on settings, users
//! and API keys.

mod common;

use common::people::{send_as, user_with_role};
use common::start;
use reqwest::Method;
use serde_json::{json, Value};
use std::collections::BTreeSet;

/// Writes staff may not do (the "settings, users and keys"), besides reading
/// the key list.
const ADMIN_ONLY: &[(&str, &str)] = &[
    ("PUT", "/account"),
    ("PUT", "/account/logo"),
    ("DELETE", "/account/logo"),
    ("POST", "/account/test_email"),
    ("PUT", "/dunning_levels"),
    ("PUT", "/base_rates"),
    ("POST", "/users"),
    ("PUT", "/users/{id}"),
    ("POST", "/users/{id}/invitation"),
    ("POST", "/api_keys"),
    ("DELETE", "/api_keys/{id}"),
    ("PUT", "/inbox/settings"),
    ("POST", "/inbox/test"),
];

/// Writes every signed-in user may do.
const OWN: &[(&str, &str)] = &[
    ("DELETE", "/session"),
    ("PUT", "/users/me"),
    ("PUT", "/users/me/password"),
];

/// Routes without a key.
const PUBLIC: &[(&str, &str)] = &[
    ("POST", "/session"),
    ("POST", "/session/invitation"),
    // Forgotten passwords (issue 33): asked for and confirmed without a key.
    ("POST", "/session/password_reset"),
    ("POST", "/session/password_reset/confirm"),
    ("POST", "/setup"),
    // The customer's online approval (issue 31): the token is the only key.
    ("POST", "/customer_approvals/{token}/sign"),
    ("POST", "/customer_approvals/{token}/decline"),
];

/// Every `(METHOD, path)` of the OpenAPI description (`kontor_server::http::routes::openapi_spec`,
/// built from the routers themselves: a route cannot exist without its description).
fn spec_routes() -> BTreeSet<(String, String)> {
    let spec = serde_json::to_value(kontor_server::http::routes::openapi_spec()).unwrap();
    let mut found = BTreeSet::new();
    for (path, item) in spec["paths"].as_object().unwrap() {
        for method in [
            "get", "put", "post", "delete", "patch", "head", "options", "trace",
        ] {
            if item.get(method).is_some() {
                found.insert((method.to_uppercase(), path.clone()));
            }
        }
    }
    found
}

/// The write routes (every method but GET) of the description.
fn write_routes() -> BTreeSet<(String, String)> {
    spec_routes()
        .into_iter()
        .filter(|(m, _)| m != "GET")
        .collect()
}

fn contains(list: &[(&str, &str)], method: &str, route: &str) -> bool {
    list.iter().any(|(m, r)| *m == method && *r == route)
}

#[test]
fn the_description_lists_known_routes() {
    let routes = write_routes();
    for (m, r) in [
        ("POST", "/invoices"),
        ("DELETE", "/offers/{id}/attachments/{attachment_id}"),
        ("PATCH", "/purchases/{id}/store_document"),
        ("PUT", "/account/logo"),
        ("DELETE", "/account/logo"),
        ("POST", "/session"),
    ] {
        assert!(
            routes.contains(&(m.to_string(), r.to_string())),
            "{m} {r} not found"
        );
    }
    assert!(!routes.iter().any(|(m, _)| m == "GET"));
    assert!(spec_routes().contains(&("GET".to_string(), "/openapi.json".to_string())));
}

#[test]
fn every_write_route_is_in_the_role_table_and_the_table_has_no_stale_entry() {
    let table: BTreeSet<(String, String)> = kontor_server::access::roles::TABLE
        .iter()
        .map(|(m, p, _)| (m.to_string(), p.to_string()))
        .collect();
    let writes = write_routes();
    let missing: Vec<_> = writes.difference(&table).collect();
    assert!(
        missing.is_empty(),
        "write routes missing from roles::TABLE: {missing:?}"
    );
    // Every entry, reads (the key list, public reads) included, is a described operation.
    let described = spec_routes();
    let stale: Vec<_> = table.difference(&described).collect();
    assert!(
        stale.is_empty(),
        "roles::TABLE entries without a route: {stale:?}"
    );
}

/// A concrete path for a route pattern (every `{placeholder}` 1).
fn concrete(route: &str) -> String {
    let mut out = String::new();
    let mut rest = route;
    while let Some(start) = rest.find('{') {
        out.push_str(&rest[..start]);
        out.push('1');
        rest = rest[start..].split_once('}').map_or("", |(_, after)| after);
    }
    out.push_str(rest);
    out
}

#[tokio::test]
async fn read_only_users_get_403_on_every_write_and_staff_on_admin_routes() {
    let s = start().await;
    let (_, reader) = user_with_role(&s, "reader@example.com", "read_only").await;
    let (_, staff) = user_with_role(&s, "staff@example.com", "staff").await;
    let routes = write_routes();
    assert!(routes.len() > 50, "{}", routes.len());
    for (method, route) in &routes {
        if contains(PUBLIC, method, route) || (method == "DELETE" && route == "/session") {
            continue; // sign-out is tested in sign_in_api (it would revoke the key)
        }
        let m = Method::from_bytes(method.as_bytes()).unwrap();
        let path = concrete(route);
        let as_reader = send_as(&s, Some(&reader), m.clone(), &path, Some(json!({}))).await;
        if contains(OWN, method, route) {
            assert_ne!(as_reader.status, 403, "read_only {method} {route}");
        } else {
            assert_eq!(
                as_reader.status, 403,
                "read_only {method} {route}: {}",
                as_reader.body
            );
        }
        let as_staff = send_as(&s, Some(&staff), m, &path, Some(json!({}))).await;
        if contains(ADMIN_ONLY, method, route) {
            assert_eq!(
                as_staff.status, 403,
                "staff {method} {route}: {}",
                as_staff.body
            );
        } else {
            assert_ne!(
                as_staff.status, 403,
                "staff {method} {route}: {}",
                as_staff.body
            );
        }
    }
    // Reads: everyone, except the key list.
    for key in [&reader, &staff] {
        assert_eq!(s.status_as(key, Method::GET, "/invoices", None).await, 200);
        assert_eq!(s.status_as(key, Method::GET, "/users", None).await, 200);
        assert_eq!(s.status_as(key, Method::GET, "/account", None).await, 200);
        assert_eq!(s.status_as(key, Method::GET, "/api_keys", None).await, 403);
        assert_eq!(
            s.status_as(key, Method::GET, "/inbox/settings", None).await,
            403
        );
    }
    // A 403 names the role.
    let r = send_as(&s, Some(&staff), Method::PUT, "/account", Some(json!({}))).await;
    assert_eq!(
        r.body["message"],
        "This needs the admin role; you are staff."
    );
}

#[tokio::test]
async fn staff_write_business_records_and_read_only_keys_restrict_admins() {
    let s = start().await;
    let (_, staff) = user_with_role(&s, "staff@example.com", "staff").await;
    let company = send_as(
        &s,
        Some(&staff),
        Method::POST,
        "/companies",
        Some(json!({"name": "Kunde GmbH"})),
    )
    .await;
    assert_eq!(company.status, 200, "{}", company.body);
    let category = send_as(
        &s,
        Some(&staff),
        Method::POST,
        "/purchases/categories",
        Some(json!({"name": "Büro"})),
    )
    .await;
    assert_ne!(category.status, 403, "{}", category.body);
    // An admin's read-only API key: 403 on writes, whatever the user's role.
    let key = s
        .post("/api_keys", json!({"name": "viewer", "read_only": true}))
        .await;
    assert_eq!(key.status, 201);
    let viewer = key.body["api_key"].as_str().unwrap();
    let refused = send_as(
        &s,
        Some(viewer),
        Method::POST,
        "/companies",
        Some(json!({"name": "X"})),
    )
    .await;
    assert_eq!(refused.status, 403);
    assert_eq!(refused.body["message"], "This API key is read-only.");
    assert_eq!(
        s.status_as(viewer, Method::GET, "/companies", None).await,
        200
    );
}

/// Issue 34: "every refusal message in the user's language" — a 403 for a role, a 403 of
/// a read-only key and a 404 answer in German for `Accept-Language: de`, with German names
/// (role, record); without it they stay English.
#[tokio::test]
async fn refusals_and_404s_come_in_the_callers_language() {
    let s = start().await;
    let (_, staff) = user_with_role(&s, "staff-de@example.com", "staff").await;
    let german = |method: Method, path: &str, key: &str| {
        let mut req = s
            .client
            .request(method, s.url(path))
            .header("Authorization", format!("Token token={key}"))
            .header("Accept-Language", "de-DE,de;q=0.9,en;q=0.8");
        if path == "/account" {
            req = req.header("Content-Type", "application/json").body("{}");
        }
        async move {
            let r = req.send().await.unwrap();
            let status = r.status().as_u16();
            let language = r
                .headers()
                .get("content-language")
                .map(|v| v.to_str().unwrap().to_string());
            let body: Value = r.json().await.unwrap();
            (status, language, body)
        }
    };
    let (status, language, body) = german(Method::PUT, "/account", &staff).await;
    assert_eq!(status, 403);
    assert_eq!(language.as_deref(), Some("de"));
    assert_eq!(
        body["message"],
        "Dafür ist die Rolle „Administrator“ nötig; Ihre Rolle ist „Mitarbeiter“."
    );
    let (status, _, body) = german(Method::GET, "/invoices/987654", &staff).await;
    assert_eq!(status, 404);
    assert_eq!(body["message"], "Nicht gefunden: Rechnung 987654.");
    let (status, _, body) = german(Method::GET, "/recurring_invoices/987654", &staff).await;
    assert_eq!(status, 404);
    assert_eq!(body["message"], "Nicht gefunden: Serienrechnung 987654.");
    let (status, _, body) = german(Method::GET, "/account/logo", &staff).await;
    assert_eq!(status, 405, "{body}");
    assert_eq!(
        body["message"],
        "Diese Methode ist für diese Adresse nicht erlaubt."
    );
    // English stays the default.
    let r = send_as(&s, Some(&staff), Method::GET, "/invoices/987654", None).await;
    assert_eq!(r.status, 404);
    assert_eq!(r.body["message"], "Not found: invoice 987654.");
}
