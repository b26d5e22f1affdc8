//! `/invoices`: the invoice resource (interface.md § Invoices, `decisions.md` § State
//! rules). One file per operation; [`repo`] turns rows into representations.

mod billed;
mod copy;
mod create;
mod delete;
pub mod einvoice;
mod email;
mod get;
pub mod list;
mod overdue;
mod pdf;
pub mod repo;
mod reverse;
mod status;
mod write;

pub use create::{
    create_invoice, create_invoice_from, insert_prepared, prepare_invoice, PreparedInvoice,
};
pub use email::{recipients_of, send_invoice};
pub use pdf::{invoice_pdf_bytes, render_pdf};

use crate::state::AppState;
use axum::routing::{get, post, put};
use axum::Router;

/// Routes of the invoice resource.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/invoices", get(list::list).post(create::create))
        .route("/invoices/locked", get(list::locked))
        .route("/invoices/summary", get(list::summary))
        .route("/invoices/overdue", get(overdue::overdue))
        .route("/invoices/monthly", get(list::monthly))
        .route("/invoices/preview.pdf", post(pdf::preview_pdf))
        .route("/invoices/{id}/timesheet.pdf", get(pdf::timesheet_pdf))
        .route(
            "/invoices/{id}",
            get(get::get_one)
                .put(create::update_draft)
                .delete(delete::delete),
        )
        .route("/invoices/{id}/update_status", put(status::update_status))
        .route("/invoices/{id}/reverse", post(reverse::reverse))
        .route("/invoices/{id}/copy", post(copy::copy))
        .route("/invoices/{id}/e_invoice", get(einvoice::e_invoice))
        .route("/invoices/{id}/send_email", post(email::send_email))
        .route("/invoices/{id}/timesheet", get(billed::timesheet))
        .route("/invoices/{id}/expenses", get(billed::expenses))
}
