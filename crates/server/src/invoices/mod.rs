//! `/invoices`: the invoice resource (interface.md § Invoices, `decisions.md` § State
//! rules). One file per operation; [`repo`] turns rows into representations.

mod billed;
mod copy;
mod create;
mod credit_note;
mod delete;
mod down_payments;
pub mod einvoice;
mod email;
mod get;
pub mod list;
pub mod payments;
mod pdf;
pub mod repo;
mod reverse;
mod status;
mod unsaved;
mod write;

pub use copy::copy_due;
pub use create::{
    create_invoice, create_invoice_from, insert_prepared, prepare_invoice, PreparedInvoice,
};
pub use email::{mail_paper, mark_sent, recipients_of, send_invoice};
pub use pdf::{invoice_pdf_bytes, render_pdf};

use crate::state::AppState;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// Routes of the invoice resource, each with its OpenAPI description.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list::list, create::create))
        .routes(routes!(list::locked))
        .routes(routes!(list::summary))
        .routes(routes!(crate::reminders::overdue::overdue))
        .routes(routes!(list::monthly))
        .routes(routes!(pdf::preview_pdf))
        .routes(routes!(pdf::timesheet_pdf))
        .routes(routes!(get::get_one, create::update_draft, delete::delete))
        .routes(routes!(status::update_status))
        .routes(routes!(reverse::reverse))
        .routes(routes!(credit_note::credit_note))
        .routes(routes!(copy::copy))
        .routes(routes!(einvoice::e_invoice))
        .routes(routes!(email::send_email))
        .routes(routes!(billed::timesheet))
        .routes(routes!(billed::expenses))
}
