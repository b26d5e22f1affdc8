//! Invoice documents: the PDF on a letter paper, the live preview of an unsaved body, the
//! time sheet (JSON and PDF) and the billed expenses. PDFs come back as a `Blob` to show
//! through an object URL (see [`crate::components::pdf_preview`]).

use super::client::{get_one, request_pdf, to_json};
use super::ApiError;
use gloo_net::http::Method;
use kontor_model::billing::{Activity, Expense};
use kontor_model::invoice_input::NewInvoice;
use web_sys::Blob;

/// Which letter paper a PDF is printed on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Paper {
    /// The account's default letter paper (no query parameter).
    #[default]
    Default,
    /// A configured letter paper (`letter_paper_id`).
    Id(i64),
    /// No letter paper at all (`blank=true`).
    Blank,
}

impl Paper {
    /// The query pairs that select this paper.
    pub fn to_pairs(self) -> Vec<(String, String)> {
        match self {
            Paper::Default => Vec::new(),
            Paper::Id(id) => vec![("letter_paper_id".into(), id.to_string())],
            Paper::Blank => vec![("blank".into(), "true".into())],
        }
    }

    /// The value of a `<select>` option: `""`, `"3"` or `"blank"`.
    pub fn to_value(self) -> String {
        match self {
            Paper::Default => String::new(),
            Paper::Id(id) => id.to_string(),
            Paper::Blank => "blank".into(),
        }
    }

    /// Reads a `<select>` value written by [`Paper::to_value`].
    pub fn from_value(value: &str) -> Self {
        match value {
            "blank" => Paper::Blank,
            other => other.parse().map(Paper::Id).unwrap_or_default(),
        }
    }
}

/// GET /invoices/{id}.pdf on `paper` (404 for an unknown paper).
pub async fn get_invoice_pdf(id: i64, paper: Paper) -> Result<Blob, ApiError> {
    request_pdf(
        Method::GET,
        &format!("/invoices/{id}.pdf"),
        &paper.to_pairs(),
        None,
    )
    .await
}

/// POST /invoices/preview.pdf: the PDF `body` would print (incomplete bodies too);
/// nothing is stored.
pub async fn preview_invoice_pdf(body: &NewInvoice) -> Result<Blob, ApiError> {
    let json = to_json(body)?;
    request_pdf(Method::POST, "/invoices/preview.pdf", &[], Some(json)).await
}

/// GET /invoices/{id}/timesheet: the activities the invoice billed.
pub async fn get_invoice_timesheet(id: i64) -> Result<Vec<Activity>, ApiError> {
    get_one(&format!("/invoices/{id}/timesheet"), &[]).await
}

/// GET /invoices/{id}/timesheet.pdf on the default paper (404 when no hours were billed).
pub async fn get_invoice_timesheet_pdf(id: i64) -> Result<Blob, ApiError> {
    request_pdf(
        Method::GET,
        &format!("/invoices/{id}/timesheet.pdf"),
        &[],
        None,
    )
    .await
}

/// GET /invoices/{id}/expenses: the project expenses the invoice billed.
pub async fn get_invoice_expenses(id: i64) -> Result<Vec<Expense>, ApiError> {
    get_one(&format!("/invoices/{id}/expenses"), &[]).await
}
