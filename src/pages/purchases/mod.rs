//! Purchase pages (supplier receipts): the list with filters and totals per currency, the
//! detail (positions, payments, document preview and replacement, approve, delete) and the
//! form for a new purchase with its positions and the receipt document.

mod detail;
mod detail_actions;
mod detail_check;
mod detail_document;
pub mod detail_einvoice;
pub mod detail_payments;
mod detail_supplier_name;
mod form;
mod form_fields;
pub mod form_items;
mod form_rows;
pub mod form_state;
mod list;
pub mod list_filters;
mod list_table;

pub use detail::PurchaseDetail;
pub use form::{PurchaseCreate, PurchaseEdit};
pub use list::PurchaseList;
