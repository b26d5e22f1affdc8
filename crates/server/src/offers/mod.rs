//! `/offers`: quotes (interface.md § Offers, `decisions.md` § Representations). One file
//! per operation; [`repo`] turns rows into representations.

mod attachments;
mod create;
mod edit;
mod email;
mod get;
pub mod list;
mod pdf;
pub mod repo;
mod status;

pub use attachments::attachment_file;
pub use create::create_offer;
pub use pdf::{offer_paper, offer_pdf};

use crate::state::AppState;
use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// `GET /offers/{id}.pdf` is served by [`get::get_one`] (axum routes `/offers/5.pdf` to
/// `/offers/{id}` with `id = "5.pdf"`; a route cannot end a parameter with `.pdf`), so its
/// description joins the router's without a route of its own.
#[derive(OpenApi)]
#[openapi(paths(pdf::offer_pdf_for_query))]
struct PdfPath;

/// Routes of the offer resource.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list::list, create::create))
        .routes(routes!(list::summary))
        .routes(routes!(get::get_one, edit::update, edit::delete))
        .merge(OpenApiRouter::with_openapi(PdfPath::openapi()))
        .routes(routes!(edit::copy))
        .routes(routes!(status::update_status))
        .routes(routes!(email::send_email))
        .routes(routes!(attachments::list, attachments::create))
        .routes(routes!(attachments::delete))
}
