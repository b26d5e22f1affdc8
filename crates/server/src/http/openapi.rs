//! The OpenAPI 3.1 description of `/api/v1` (issue 15 § 1), generated from the handlers'
//! `#[utoipa::path]` attributes and the model's schemas: every resource module's
//! `router()` is an [`OpenApiRouter`](utoipa_axum::router::OpenApiRouter) built only with
//! `routes!`, so a route without a description cannot exist. [`spec`] adds what the
//! handlers do not repeat: the document's info and server, the `token` security scheme
//! on every operation but the public ones of [`crate::access::roles::TABLE`], and the standard
//! error answers every operation can give ([`crate::http::error::ApiError`] as
//! [`ErrorBody`]). The JSON is built once and served unauthenticated at
//! `GET /api/v1/openapi.json`; Swagger UI (files compiled in) at `/api/docs`.

use crate::access::roles::{self, Access};
use axum::http::{header, HeaderValue, Method};
use axum::response::{IntoResponse, Response};
use kontor_model::error::ErrorBody;
use std::sync::OnceLock;
use utoipa::openapi::header::{Header, HeaderBuilder};
use utoipa::openapi::path::Operation;
use utoipa::openapi::schema::{ObjectBuilder, Type};
use utoipa::openapi::security::{ApiKey, ApiKeyValue, SecurityRequirement, SecurityScheme};
use utoipa::openapi::server::Server;
use utoipa::openapi::{Content, OpenApi, Ref, RefOr, ResponseBuilder};
use utoipa::{Modify, PartialSchema, ToSchema};

/// The name of the security scheme (`components.securitySchemes`).
pub const SECURITY_SCHEME: &str = "token";

/// Where Swagger UI is served (outside `/api/v1`, no key).
pub const DOCS_PATH: &str = "/api/docs";

/// Where the description is served (absolute; `/openapi.json` inside `/api/v1`).
pub const SPEC_URL: &str = "/api/v1/openapi.json";

/// The standard error answers: status, description. 401 is left out on public routes;
/// 409 and 502 are operation-specific and listed by the handlers that can give them.
const STANDARD_ERRORS: &[(&str, &str)] = &[
    (
        "400",
        "The body is not valid JSON, or a query parameter has the wrong form.",
    ),
    ("401", "Missing, malformed or unknown API key."),
    (
        "403",
        "The caller's role or a read-only key does not allow this.",
    ),
    ("404", "No record with this id (or no such route)."),
    ("413", "The request body is larger than the limit."),
    ("415", "The request body has the wrong Content-Type."),
    (
        "422",
        "Invalid fields (`errors`: field path → messages) or a rule refuses the request.",
    ),
    ("429", "Rate limit exceeded for this key."),
    (
        "503",
        "The database or file store does not answer right now; nothing was changed.",
    ),
];

/// Completes the routers' description `api` (from `split_for_parts`): info, server,
/// security and the standard errors ([`Standard`]).
pub fn complete(mut api: OpenApi) -> OpenApi {
    Standard.modify(&mut api);
    api
}

/// The served description as JSON, set once by [`publish`].
static SPEC_JSON: OnceLock<String> = OnceLock::new();

/// Makes `api` (the [`complete`]d description of the routers being served) the answer of
/// `GET /openapi.json`; the first call wins (every server of the process serves the same
/// routes).
pub fn publish(api: &OpenApi) {
    SPEC_JSON.get_or_init(|| api.to_json().expect("the OpenAPI description serializes"));
}

/// The OpenAPI 3.1 description of this interface (this document).
#[utoipa::path(
    get,
    path = "/openapi.json",
    operation_id = "openapi_get",
    tag = "openapi",
    responses(
        (status = 200, description = "The OpenAPI 3.1 description of `/api/v1`.",
            content_type = "application/json", body = Object),
    ),
)]
pub async fn get_spec() -> Response {
    (
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json; charset=utf-8"),
        )],
        SPEC_JSON.get().map(String::as_str).unwrap_or("{}"),
    )
        .into_response()
}

/// The `/openapi.json` route (merged into the API by `routes::api_router`).
pub fn router() -> utoipa_axum::router::OpenApiRouter<crate::state::AppState> {
    utoipa_axum::router::OpenApiRouter::new().routes(utoipa_axum::routes!(get_spec))
}

/// Swagger UI at [`DOCS_PATH`] (`/api/docs` redirects to `/api/docs/`), reading
/// [`SPEC_URL`]; no validator badge (it would call an outside server).
pub fn swagger_ui() -> utoipa_swagger_ui::SwaggerUi {
    utoipa_swagger_ui::SwaggerUi::new(DOCS_PATH).config(
        utoipa_swagger_ui::Config::from(SPEC_URL)
            .validator_url("none")
            .persist_authorization(false),
    )
}

/// Adds info, server, the security scheme, per-operation security and the standard
/// error responses (see the module documentation).
pub struct Standard;

impl Modify for Standard {
    fn modify(&self, api: &mut OpenApi) {
        api.info.title = "Kontor".to_string();
        api.info.version = env!("CARGO_PKG_VERSION").to_string();
        api.info.description = Some(
            "Invoices, offers, purchases and contacts of a small business. All paths are \
             relative to `/api/v1`. Errors answer `{\"message\": …, \"errors\": {…}}` \
             (`errors` on 422 only)."
                .to_string(),
        );
        api.info.license = Some(
            utoipa::openapi::info::LicenseBuilder::new()
                .name(env!("CARGO_PKG_LICENSE"))
                .identifier(Some(env!("CARGO_PKG_LICENSE")))
                .build(),
        );
        api.info.contact = None;
        api.servers = Some(vec![Server::new("/api/v1")]);
        let components = api
            .components
            .get_or_insert_with(utoipa::openapi::Components::new);
        components.security_schemes.insert(
            SECURITY_SCHEME.to_string(),
            SecurityScheme::ApiKey(ApiKey::Header(ApiKeyValue::with_description(
                "Authorization",
                "`Token token=<key>` or `Bearer <key>`",
            ))),
        );
        let mut schemas = Vec::new();
        <ErrorBody as ToSchema>::schemas(&mut schemas);
        schemas.push((ErrorBody::name().to_string(), ErrorBody::schema()));
        for (name, schema) in schemas {
            components.schemas.entry(name).or_insert(schema);
        }
        let error_ref = Ref::from_schema_name(ErrorBody::name().to_string());
        for (path, item) in api.paths.paths.iter_mut() {
            let operations = [
                (Method::GET, &mut item.get),
                (Method::PUT, &mut item.put),
                (Method::POST, &mut item.post),
                (Method::DELETE, &mut item.delete),
                (Method::PATCH, &mut item.patch),
                (Method::HEAD, &mut item.head),
                (Method::OPTIONS, &mut item.options),
                (Method::TRACE, &mut item.trace),
            ];
            for (method, operation) in operations {
                if let Some(operation) = operation {
                    let public = roles::required(&method, path) == Access::Public;
                    standardize(operation, public, &error_ref);
                }
            }
        }
    }
}

/// The headers of every paged list's 200 answer (`decisions.md` § Lists).
const LIST_HEADERS: &[(&str, &str, Type)] = &[
    ("X-Page", "Page number (from 1)", Type::Integer),
    ("X-Per-Page", "Page size (1–100)", Type::Integer),
    (
        "X-Total",
        "Number of records matching the filters",
        Type::Integer,
    ),
    (
        "Link",
        "RFC 8288 links (`next`, `last`, `prev`, `first`); absent on a single page",
        Type::String,
    ),
];

/// A paged list (it reads `page`): its 200 answer gets the [`LIST_HEADERS`].
fn list_headers(operation: &mut Operation) {
    let paged = operation
        .parameters
        .as_ref()
        .is_some_and(|ps| ps.iter().any(|p| p.name == "page"));
    if !paged {
        return;
    }
    if let Some(RefOr::T(ok)) = operation.responses.responses.get_mut("200") {
        for (name, description, kind) in LIST_HEADERS {
            ok.headers.entry(name.to_string()).or_insert_with(|| {
                HeaderBuilder::new()
                    .schema(ObjectBuilder::new().schema_type(kind.clone()))
                    .description(Some(*description))
                    .build()
            });
        }
    }
}

/// One operation: security unless `public`, the list headers of a paged list, the
/// standard errors it does not list.
fn standardize(operation: &mut Operation, public: bool, error_ref: &Ref) {
    list_headers(operation);
    if !public {
        operation.security = Some(vec![SecurityRequirement::new(
            SECURITY_SCHEME,
            Vec::<String>::new(),
        )]);
    }
    for (status, description) in STANDARD_ERRORS {
        if public && *status == "401" {
            continue;
        }
        if operation.responses.responses.contains_key(*status) {
            continue;
        }
        let mut response = ResponseBuilder::new().description(*description).content(
            "application/json",
            Content::new(Some(RefOr::Ref(error_ref.clone()))),
        );
        if *status == "401" {
            response = response.header("WWW-Authenticate", string_header("`Token realm=\"api\"`"));
        }
        if *status == "429" || *status == "503" {
            response = response.header(
                "Retry-After",
                HeaderBuilder::new()
                    .schema(
                        ObjectBuilder::new()
                            .schema_type(Type::Integer)
                            .minimum(Some(0)),
                    )
                    .description(Some("Seconds to wait before sending again."))
                    .build(),
            );
        }
        operation
            .responses
            .responses
            .insert(status.to_string(), RefOr::T(response.build()));
    }
}

fn string_header(description: &str) -> Header {
    HeaderBuilder::new()
        .schema(ObjectBuilder::new().schema_type(Type::String))
        .description(Some(description))
        .build()
}
