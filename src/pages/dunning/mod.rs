//! `/dunning`: the invoices due for a reminder; select many, create (and send) their next
//! reminders in one go (issue 14 § App).

mod page;

pub use page::{outcome_text, DunningPage, Outcome};
