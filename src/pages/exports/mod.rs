//! `/exports`: what the accountant gets for a period (issue 11, "For the accountant").

mod page;

pub use page::ExportsPage;
