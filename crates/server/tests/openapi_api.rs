//! The OpenAPI description (issue 15 § 1): `GET /api/v1/openapi.json` without a key,
//! OpenAPI 3.1, every route described and every description routed, unique operation
//! ids, resolvable references, declared path parameters, security on every operation but
//! the public ones, `ErrorBody` on every error answer; Swagger UI at `/api/docs` with its
//! files served by the server itself.

mod common;

use common::people::send_as;
use common::source::{server_sources, without_comments};
use common::start;
use kontor_server::access::roles::{self, Access};
use reqwest::Method;
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};

/// Files that may build routes with plain axum: the application (`/api/v1` nesting,
/// catch-alls, Swagger UI), the signed file links and the browser bundle — all outside
/// the described interface.
const PLAIN_AXUM: &[&str] = &["routes.rs", "file_routes.rs", "bundle.rs"];

const METHODS: &[&str] = &[
    "get", "put", "post", "delete", "patch", "head", "options", "trace",
];

#[test]
fn api_routes_are_added_only_by_routes_macro() {
    let mut offenders = Vec::new();
    let mut scanned = 0;
    for (path, text) in server_sources() {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if PLAIN_AXUM.contains(&name.as_str()) {
            continue;
        }
        scanned += 1;
        let code = without_comments(&text);
        for needle in [
            ".route(",
            ".route_service(",
            ".nest_service(",
            "axum::routing::",
            "routing::{",
        ] {
            if code.contains(needle) {
                offenders.push(format!("{}: {needle}", path.display()));
            }
        }
    }
    assert!(scanned > 40, "{scanned} files scanned");
    assert!(
        offenders.is_empty(),
        "routes outside `utoipa_axum::routes!` (a route without an OpenAPI description): {offenders:?}"
    );
}

/// Every `(METHOD, path)` of the description.
fn operations(spec: &Value) -> Vec<(String, String, Value)> {
    let mut out = Vec::new();
    for (path, item) in spec["paths"].as_object().expect("paths") {
        for method in METHODS {
            if let Some(op) = item.get(*method) {
                out.push((method.to_uppercase(), path.clone(), op.clone()));
            }
        }
    }
    out
}

/// Resolves a local `$ref` (`#/components/schemas/X`) in `spec`.
fn resolve<'a>(spec: &'a Value, reference: &str) -> Option<&'a Value> {
    let pointer = reference.strip_prefix('#')?;
    spec.pointer(pointer)
}

/// Every `$ref` string anywhere in `value`.
fn refs(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                if k == "$ref" {
                    if let Value::String(s) = v {
                        out.push(s.clone());
                    }
                } else {
                    refs(v, out);
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| refs(v, out)),
        _ => {}
    }
}

/// The `{name}` placeholders of a path template.
fn placeholders(path: &str) -> BTreeSet<String> {
    path.split('{')
        .skip(1)
        .filter_map(|s| s.split_once('}').map(|(name, _)| name.to_string()))
        .collect()
}

/// A concrete path for a template: every placeholder 1.
fn concrete(path: &str) -> String {
    let mut out = path.to_string();
    for name in placeholders(path) {
        out = out.replace(&format!("{{{name}}}"), "1");
    }
    out
}

fn method(m: &str) -> Method {
    Method::from_bytes(m.as_bytes()).unwrap()
}

#[tokio::test]
async fn the_description_is_public_openapi_3_1_and_covers_every_route() {
    let s = start().await;
    // No key.
    let resp = s.client.get(s.url("/openapi.json")).send().await.unwrap();
    assert_eq!(resp.status(), 200);
    assert_eq!(
        resp.headers()["content-type"].to_str().unwrap(),
        "application/json; charset=utf-8"
    );
    let spec: Value = resp.json().await.unwrap();
    assert_eq!(spec["openapi"], "3.1.0");
    assert_eq!(spec["info"]["title"], "Kontor");
    assert_eq!(spec["info"]["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(spec["servers"], json!([{"url": "/api/v1"}]));
    let scheme = &spec["components"]["securitySchemes"]["token"];
    assert_eq!(scheme["type"], "apiKey");
    assert_eq!(scheme["in"], "header");
    assert_eq!(scheme["name"], "Authorization");
    // The same description as the library builds.
    assert_eq!(
        spec,
        serde_json::to_value(kontor_server::http::routes::openapi_spec()).unwrap()
    );

    let ops = operations(&spec);
    assert!(ops.len() > 100, "{} operations", ops.len());

    let mut problems: Vec<String> = Vec::new();
    // Unique operation ids, a summary, a success answer.
    let mut ids: BTreeMap<String, (String, String)> = BTreeMap::new();
    for (m, p, op) in &ops {
        let Some(id) = op["operationId"].as_str() else {
            problems.push(format!("{m} {p}: no operationId"));
            continue;
        };
        if let Some(other) = ids.insert(id.to_string(), (m.clone(), p.clone())) {
            problems.push(format!("operationId {id} twice: {m} {p} and {other:?}"));
        }
        if op["summary"].as_str().is_none_or(|s| s.is_empty()) {
            problems.push(format!("{m} {p}: no summary"));
        }
        let responses = op["responses"].as_object().unwrap();
        if !responses.keys().any(|k| k.starts_with('2')) {
            problems.push(format!("{m} {p}: no success response"));
        }
    }

    // Every reference resolves.
    let mut all = Vec::new();
    refs(&spec, &mut all);
    assert!(!all.is_empty());
    let broken: BTreeSet<_> = all.iter().filter(|r| resolve(&spec, r).is_none()).collect();
    for r in broken {
        problems.push(format!("unresolved $ref {r}"));
    }

    // Path parameters: declared exactly, required; no parameter twice.
    for (m, p, op) in &ops {
        let mut seen = BTreeSet::new();
        for param in op["parameters"].as_array().into_iter().flatten() {
            let key = format!("{} {}", param["in"], param["name"]);
            if !seen.insert(key.clone()) {
                problems.push(format!("{m} {p}: parameter {key} twice"));
            }
        }
        let declared: BTreeSet<String> = op["parameters"]
            .as_array()
            .map(|ps| {
                ps.iter()
                    .filter(|p| p["in"] == "path")
                    .map(|param| {
                        if param["required"] != true {
                            problems.push(format!("{m} {p}: path parameter not required"));
                        }
                        param["name"].as_str().unwrap_or("").to_string()
                    })
                    .collect()
            })
            .unwrap_or_default();
        if declared != placeholders(p) {
            problems.push(format!("{m} {p}: path parameters declared {declared:?}"));
        }
    }

    // Security on every operation but the public ones; the standard errors with ErrorBody.
    for (m, p, op) in &ops {
        let public = roles::required(&method(m), p) == Access::Public;
        if public && op.get("security").is_some() {
            problems.push(format!("{m} {p}: public but secured"));
        }
        if !public && op["security"] != json!([{"token": []}]) {
            problems.push(format!("{m} {p}: security {}", op["security"]));
        }
        let responses = op["responses"].as_object().unwrap();
        for status in ["400", "403", "404", "413", "415", "422", "429"] {
            if !responses.contains_key(status) {
                problems.push(format!("{m} {p}: no {status}"));
            }
        }
        if !public
            && responses["401"]["headers"]
                .get("WWW-Authenticate")
                .is_none()
        {
            problems.push(format!("{m} {p}: 401 without WWW-Authenticate"));
        }
        if responses["429"]["headers"].get("Retry-After").is_none() {
            problems.push(format!("{m} {p}: 429 without Retry-After"));
        }
        for (status, response) in responses {
            if status.starts_with('4') || status.starts_with('5') {
                let response = match response.get("$ref").and_then(Value::as_str) {
                    Some(r) => resolve(&spec, r).unwrap(),
                    None => response,
                };
                if response["content"]["application/json"]["schema"]["$ref"]
                    != "#/components/schemas/ErrorBody"
                {
                    problems.push(format!("{m} {p}: {status} without ErrorBody"));
                }
            }
        }
    }

    assert!(
        problems.is_empty(),
        "{} problems in the description:\n{}",
        problems.len(),
        problems.join("\n")
    );

    // Every described operation is routed: neither 405 nor the fallback's 404. A second
    // admin key does the calls, so DELETE /api_keys/1 revokes only the first; DELETE
    // /session (revoking the caller's key) comes last.
    let second = s.post("/api_keys", json!({"name": "openapi test"})).await;
    assert_eq!(second.status, 201, "{}", second.body);
    let key = second.body["api_key"].as_str().unwrap().to_string();
    let mut ordered: Vec<_> = ops
        .iter()
        .filter(|(m, p, _)| !(m == "DELETE" && p == "/session"))
        .collect();
    let last: Vec<_> = ops
        .iter()
        .filter(|(m, p, _)| m == "DELETE" && p == "/session")
        .collect();
    assert_eq!(last.len(), 1);
    ordered.extend(last);
    let mut unrouted = Vec::new();
    for (m, p, _) in ordered {
        let body = (m != "GET" && m != "DELETE").then(|| json!({}));
        let r = send_as(&s, Some(&key), method(m), &concrete(p), body).await;
        if r.status == 405 || (r.status == 404 && r.body["message"] == "Not found: no such route.")
        {
            unrouted.push(format!("{m} {p}: {} {}", r.status, r.body));
        }
        if r.status.as_u16() >= 500 {
            unrouted.push(format!("{m} {p}: {} {}", r.status, r.body));
        }
    }
    assert!(unrouted.is_empty(), "{}", unrouted.join("\n"));
}

#[tokio::test]
async fn unknown_routes_and_methods_answer_json_errors() {
    let s = start().await;
    let r = s.get("/no_such_thing").await;
    assert_eq!(r.status, 404);
    assert_eq!(r.body["message"], "Not found: no such route.");
    let r = send_as(&s, Some(&s.key), Method::PATCH, "/openapi.json", None).await;
    assert_eq!(r.status, 405, "{}", r.body);
    assert_eq!(r.body["message"], "Method not allowed on this path.");
    assert!(r.header("allow").contains("GET"), "{:?}", r.headers);
}

#[tokio::test]
async fn swagger_ui_is_served_without_a_key_with_its_own_files() {
    let s = start().await;
    for path in ["/api/docs", "/api/docs/", "/api/docs/index.html"] {
        let resp = s.get_page(path).await;
        assert_eq!(resp.status(), 200, "{path}");
        let ty = resp.headers()["content-type"].to_str().unwrap().to_string();
        assert!(ty.starts_with("text/html"), "{path}: {ty}");
    }
    let html = s.get_page("/api/docs/").await.text().await.unwrap();
    // Every local script and style sheet the page loads.
    let mut assets = Vec::new();
    for attr in ["src=\"", "href=\""] {
        for piece in html.split(attr).skip(1) {
            let target = piece.split('"').next().unwrap();
            if !target.starts_with("http") && !target.starts_with("data:") {
                assets.push(target.trim_start_matches("./").to_string());
            }
        }
    }
    assert!(
        assets.iter().any(|a| a.ends_with(".js")) && assets.iter().any(|a| a.ends_with(".css")),
        "{assets:?}"
    );
    for asset in &assets {
        let resp = s.get_page(&format!("/api/docs/{asset}")).await;
        assert_eq!(resp.status(), 200, "{asset}");
        let ty = resp.headers()["content-type"].to_str().unwrap().to_string();
        if asset.ends_with(".js") {
            assert!(ty.contains("javascript"), "{asset}: {ty}");
        }
        if asset.ends_with(".css") {
            assert!(ty.starts_with("text/css"), "{asset}: {ty}");
        }
    }
    // The page reads the server's own description, with no outside validator.
    let init = s
        .get_page("/api/docs/swagger-initializer.js")
        .await
        .text()
        .await
        .unwrap();
    assert!(init.contains("/api/v1/openapi.json"), "{init}");
    let compact: String = init.split_whitespace().collect();
    assert!(compact.contains("\"validatorUrl\":\"none\""), "{init}");
    // Other /api paths still answer the JSON 404.
    let r = s.get_page("/api/nothing").await;
    assert_eq!(r.status(), 404);
}
