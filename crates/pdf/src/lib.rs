//! Kontor's PDF documents, typeset by Typst used as a library inside the server process.
//!
//! The server turns a record into a [`document::DocumentData`] (all amounts and dates
//! already formatted as strings) and calls [`PdfEngine::render`]. The data reaches the
//! Typst template only as a virtual `data.json` that the template reads with `json(..)`;
//! user text is placed as strings and never evaluated as markup, so no field can inject
//! layout or code. Rich-text fields (HTML) are converted to paragraphs, line breaks, bold,
//! italic and lists by [`rich_text::blocks`]; everything else is dropped. The account's
//! logo (PNG or SVG) is the only other file the template can open (`/logo.png`,
//! `/logo.svg`); the words of each document language are in [`words`]. An invoice may also
//! be exported as PDF/A-3b with an attached file — the Factur-X container, see
//! [`PdfEngine::render_document_pdfa3`] and [`Attachment`].

#![warn(missing_docs)]

pub mod document;
pub mod qr_bill;
pub mod rich_text;
pub mod sample;
pub mod words;
mod world;

pub use world::{Attachment, PdfEngine, PdfError, Template};
