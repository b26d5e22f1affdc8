//! Invoice pages: the list with filters, the detail (status changes, deletion, document,
//! payments, reminders, e-mail, reversal), and the form for new invoices and drafts with
//! its live PDF preview.

mod detail;
mod detail_actions;
mod detail_billed;
mod detail_copy;
mod detail_credit_note;
pub mod detail_document;
pub mod detail_einvoice;
pub mod detail_email;
pub mod detail_payments;
pub mod detail_reminders;
mod detail_reverse;
mod detail_sections;
pub mod detail_tabs;
mod form;
pub mod form_billing;
pub mod form_from_offer;
pub mod form_preview;
mod list;
pub mod list_chart;
mod list_filters;
pub mod list_table;
pub mod payment_dialog;

pub use crate::components::invoice_form_state::InvoiceFormState;
pub use detail::InvoiceDetail;
pub use form::{InvoiceCreate, InvoiceEdit};
pub use list::InvoiceList;
