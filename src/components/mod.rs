//! Reusable components, one family per file.
//!
//! - [`frame`]: the app frame (left navigation, top bar) around every signed-in page.
//! - [`position_editor`]: the positions table of invoices (and later offers) with totals.
//! - [`status_badge`]: status badges with fixed colours and text.
//! - [`dialog`]: modal dialogs that trap focus, close on Esc and return focus.
//! - [`toast`]: short success toasts and failure toasts that stay until dismissed.
//! - [`money`], [`date`]: formatting of amounts and dates.
//! - [`pdf_preview`]: PDFs fetched with the key and shown in the page; [`debounce`] for
//!   the live preview.
//! - [`task`]: light loads and requests under the current owner.
//! - [`pager`], [`skeleton`], [`error_panel`], [`field`]: list and form building blocks.

pub mod date;
pub mod debounce;
pub mod dialog;
pub mod error_panel;
pub mod field;
pub mod frame;
pub mod money;
pub mod pager;
pub mod pdf_preview;
pub mod position_editor;
pub mod skeleton;
pub mod status_badge;
pub mod task;
pub mod toast;
