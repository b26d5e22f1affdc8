//! Reusable components, one family per file.
//!
//! - [`frame`]: the app frame (left navigation, top bar) around every signed-in page.
//! - [`position_editor`]: the positions table of invoices (and later offers) with totals.
//! - [`status_badge`]: status badges with fixed colours and text.
//! - [`dialog`]: modal dialogs that trap focus, close on Esc and return focus ([`dialog_form`]:
//!   a record's form inside one);
//!   [`confirm_dialog`]: a question before an action (finalize, bill an offer again).
//! - [`toast`]: short success toasts and failure toasts that stay until dismissed.
//! - [`money`], [`date`]: formatting of amounts and dates; [`locale`]: how the user
//!   writes numbers (every typed amount is read and shown through it).
//! - [`pdf_preview`]: PDFs fetched with the key and shown in the page; [`debounce`] for
//!   the live preview.
//! - [`task`]: light loads and requests under the current owner; [`route_record`]: the
//!   record a detail or edit page's route names.
//! - [`pager`], [`skeleton`], [`error_panel`], [`field`]: list and form building blocks;
//!   [`sort_header`] (sortable column headers, sort in the URL) and [`list_totals`] (the
//!   per-currency totals of a list's filter from the server's summary) for the lists,
//!   [`filter_fields`] (the date and tags fields of their filter bars), [`empty_list`] (a
//!   list without rows), [`page_head`] (title and "New …"), [`row_link`] (a row that opens
//!   its record);
//!   [`top_search`]: the top bar's search of the current page's list and its `/` key.
//! - [`form_summary`] (error summary at the top of a form), [`leave_guard`] (ask before
//!   leaving unsaved changes), [`paper_select`] (letter paper), [`email_dialog`] (send a
//!   document by e-mail), [`drop_zone`] (files from the user's disk): widgets shared by the
//!   pages of several resources (pages never import other pages).
//! - [`company_picker`] (customer / supplier search as you type, with "New customer…"),
//!   [`company_dialog`] (that inline creation), [`company_fields`] and
//!   [`company_form_state`] (the company form, shared by the Customers / Suppliers pages
//!   and the dialog).
//! - [`default_texts`]: the account's default salutation and footer in new invoice and
//!   offer forms.
//! - [`einvoice_import`]: importing a supplier's e-invoice into purchases by drag and
//!   drop (list and form); [`einvoice_missing`]: what an invoice lacks to be an e-invoice,
//!   and the question before finalizing it (detail page and form).
//! - [`timeline`]: the events of an invoice, offer or purchase as sentences, newest first.
//! - [`invoice_form_state`] and [`invoice_fields`]: the invoice form's state and field
//!   groups, shared by the invoice form and the recurring invoice form.

pub mod audit_history;
pub mod backdating;
pub mod company_dialog;
pub mod company_fields;
pub mod company_form_state;
pub mod company_picker;
pub mod confirm_dialog;
pub mod copy_field;
pub mod countries;
pub mod date;
pub mod debounce;
pub mod default_texts;
pub mod dialog;
pub mod dialog_form;
pub mod down_payment_fields;
pub mod drop_zone;
pub mod einvoice_import;
pub mod einvoice_missing;
pub mod email_dialog;
pub mod empty_list;
pub mod error_panel;
pub mod field;
pub mod filter_fields;
pub mod form_summary;
pub mod frame;
pub mod invoice_fields;
pub mod invoice_form_state;
pub mod leave_guard;
pub mod list_totals;
pub mod list_url;
pub mod local_draft;
pub mod local_draft_store;
pub mod locale;
pub mod mail_list;
pub mod money;
pub mod offline_notice;
pub mod outbox_link;
pub mod page_head;
pub mod pager;
pub mod paper_select;
pub mod password_rules;
pub mod pdf_preview;
pub mod position_editor;
pub mod prefs;
pub mod route_focus;
pub mod route_record;
pub mod row_link;
pub mod scroll_anchor;
pub mod search_results;
pub mod shortcuts;
pub mod signature_pad;
pub mod skeleton;
pub mod snippet_picker;
pub mod sort_header;
pub mod status_badge;
pub mod task;
pub mod timeline;
pub mod toast;
pub mod top_search;
pub mod user_menu;
