//! The dashboard (issue 11 § Find and see): open and overdue receivables with the oldest
//! open invoices, revenue per month as an SVG chart, purchases awaiting approval and
//! offers awaiting an answer; every figure links to the list filtered to its records.

mod cards;
pub mod chart;
pub mod links;
mod page;

pub use cards::{due_text, Figure, FigureCard, OldestInvoices};
pub use chart::RevenueChart;
pub use page::{DashboardPage, DashboardView};
