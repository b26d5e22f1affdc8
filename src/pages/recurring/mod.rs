//! Recurring invoice pages (issue 11): the list of schedules, the form (the invoice form's
//! fields and positions plus the schedule) for new and edited schedules, and the detail
//! with the schedule and the history of the invoices the server's job created.

pub mod detail;
mod form;
pub mod form_state;
mod list;
pub mod schedule_fields;

pub use detail::RecurringDetail;
pub use form::{RecurringCreate, RecurringEdit};
pub use list::RecurringList;
