//! Kontor's e-invoices (issue 10): the EN 16931 semantic model ([`semantic`]), written as
//! XRechnung 3.0 / Factur-X EN 16931 XML in both syntaxes (UN/CEFACT CII and OASIS UBL 2.1)
//! and read back from incoming documents.
//!
//! The crate has no I/O: it turns a [`semantic::Invoice`] into bytes and bytes into one.
//! The mapping from Kontor's records to the semantic model is `docs/einvoice.md`.

pub mod booking;
pub mod cii;
pub mod conformance;
pub mod facturx;
pub mod html;
pub mod kontor;
mod kontor_fields;
pub mod pdf_limits;
pub mod pdf_read;
pub mod read;
pub mod semantic;
pub mod ubl;
pub mod xml_limits;
mod xml_out;

/// Everything that can go wrong in this crate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// The input is not a well-formed UBL or CII invoice; the text says why
    /// (answered as 422 on `file` by `POST /purchases/import`).
    NotAnInvoice(String),
    /// A PDF without an embedded e-invoice XML, or a PDF that cannot be read.
    Pdf(String),
    /// Writing XML failed (never expected with in-memory buffers).
    Write(String),
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::NotAnInvoice(why) => write!(f, "not an e-invoice: {why}"),
            Error::Pdf(why) => write!(f, "PDF: {why}"),
            Error::Write(why) => write!(f, "writing XML: {why}"),
        }
    }
}

impl std::error::Error for Error {}
