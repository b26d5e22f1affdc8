//! Invoice pages: the list with filters, the detail with status changes and deletion, and
//! the form for new invoices and drafts.

mod detail;
mod detail_actions;
mod detail_sections;
mod form;
mod form_fields;
mod form_guard;
mod form_state;
mod form_summary;
mod list;
mod list_filters;
mod list_table;

pub use detail::InvoiceDetail;
pub use form::{InvoiceCreate, InvoiceEdit};
pub use form_state::InvoiceFormState;
pub use list::InvoiceList;
