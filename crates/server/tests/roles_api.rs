//! Roles on every write route (issue 12): the routes are read from the routers' sources,
//! so a new route is covered at once; a write route missing from
//! `kontor_server::roles::TABLE` fails here. Read-only users get 403 on every write but
//! their own sign-out, preferences and password; staff get 403 exactly on settings, users
//! and API keys.

mod common;

use common::people::{send_as, user_with_role};
use common::start;
use reqwest::Method;
use serde_json::json;
use std::collections::BTreeSet;
use std::path::Path;

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
    ("POST", "/setup"),
];

/// Every `(METHOD, path)` with a non-GET method registered with `.route(...)` in the API
/// routers under `src/` (the file links and the app shell are outside `/api/v1`).
fn write_routes() -> BTreeSet<(String, String)> {
    let mut found = BTreeSet::new();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut stack = vec![src];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            if !name.ends_with(".rs") || name == "file_routes.rs" || name == "routes.rs" {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            for (method, route) in routes_in(&text) {
                found.insert((method, route));
            }
        }
    }
    found
}

/// The write routes of one file: each `.route("path", <methods>)` call.
fn routes_in(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find(".route(") {
        let after = &rest[start + ".route(".len()..];
        // The call's text up to its closing parenthesis.
        let mut depth = 1;
        let mut end = after.len();
        for (i, c) in after.char_indices() {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        end = i;
                        break;
                    }
                }
                _ => {}
            }
        }
        let call = &after[..end];
        rest = &after[end..];
        let Some(q1) = call.find('"') else { continue };
        let Some(q2) = call[q1 + 1..].find('"') else {
            continue;
        };
        let route = &call[q1 + 1..q1 + 1 + q2];
        let methods = &call[q1 + 2 + q2..];
        for method in ["post", "put", "patch", "delete"] {
            let needle = format!("{method}(");
            let mut from = 0;
            while let Some(i) = methods[from..].find(&needle) {
                let at = from + i;
                let before = methods[..at].chars().last();
                if before.is_none_or(|c| !(c.is_alphanumeric() || c == '_' || c == ':')) {
                    out.push((method.to_uppercase(), route.to_string()));
                }
                from = at + needle.len();
            }
        }
    }
    out
}

fn contains(list: &[(&str, &str)], method: &str, route: &str) -> bool {
    list.iter().any(|(m, r)| *m == method && *r == route)
}

#[test]
fn the_source_scan_finds_known_routes() {
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
}

#[test]
fn every_write_route_is_in_the_role_table_and_the_table_has_no_stale_entry() {
    let routes = write_routes();
    let table: BTreeSet<(String, String)> = kontor_server::roles::TABLE
        .iter()
        .filter(|(m, _, _)| *m != "GET")
        .map(|(m, p, _)| (m.to_string(), p.to_string()))
        .collect();
    let missing: Vec<_> = routes.difference(&table).collect();
    assert!(
        missing.is_empty(),
        "write routes missing from roles::TABLE: {missing:?}"
    );
    let stale: Vec<_> = table.difference(&routes).collect();
    assert!(
        stale.is_empty(),
        "roles::TABLE entries without a route: {stale:?}"
    );
}

/// A concrete path for a route pattern (ids 1).
fn concrete(route: &str) -> String {
    route.replace("{id}", "1").replace("{attachment_id}", "1")
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
        assert_eq!(
            send_as(&s, Some(key), Method::GET, "/invoices", None)
                .await
                .status,
            200
        );
        assert_eq!(
            send_as(&s, Some(key), Method::GET, "/users", None)
                .await
                .status,
            200
        );
        assert_eq!(
            send_as(&s, Some(key), Method::GET, "/account", None)
                .await
                .status,
            200
        );
        assert_eq!(
            send_as(&s, Some(key), Method::GET, "/api_keys", None)
                .await
                .status,
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
        send_as(&s, Some(viewer), Method::GET, "/companies", None)
            .await
            .status,
        200
    );
}
