//! The Bank page `/bank` (issue 32 § App): statement files dropped or chosen (progress, a
//! result per file), the transactions by state with counts, each suggestion confirmed with
//! one click, matching by hand (several invoices for one transfer, the remainder shown),
//! undo and ignore.
//!
//! - [`page`]: the upload, the state tabs and the list;
//! - [`row`]: one transaction with its suggestions and actions;
//! - [`manual`]: the dialog that matches a transfer by hand.

mod manual;
mod page;
mod row;

pub use page::BankPage;
