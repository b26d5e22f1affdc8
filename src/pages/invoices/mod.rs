//! Invoice pages: the list with filters, the detail (status changes, deletion, document,
//! payments, reminders, e-mail, reversal), and the form for new invoices and drafts with
//! its live PDF preview.

mod detail;
mod detail_actions;
mod detail_billed;
pub mod detail_document;
pub mod detail_email;
mod detail_payments;
mod detail_reminders;
mod detail_reverse;
mod detail_sections;
mod detail_tabs;
pub mod email_rules;
mod form;
pub mod form_billing;
pub mod form_fields;
pub mod form_from_offer;
pub mod form_guard;
pub mod form_preview;
mod form_state;
pub mod form_summary;
mod list;
mod list_filters;
mod list_table;
pub mod payment_dialog;
pub mod payment_rules;

pub use detail::InvoiceDetail;
pub use form::{InvoiceCreate, InvoiceEdit};
pub use form_state::InvoiceFormState;
pub use list::InvoiceList;
