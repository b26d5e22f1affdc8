//! Pages, one module per resource (`list`, `detail`, `form`), plus sign-in and the
//! page for an unknown address.

pub mod admin;
pub mod approval;
pub mod bank;
pub mod catalogue;
pub mod companies;
pub mod dashboard;
pub mod dunning;
pub mod exports;
pub mod forgot_password;
pub mod inbox;
pub mod invoices;
pub mod mail;
pub mod offers;
pub mod outbox;
pub mod placeholder;
pub mod purchases;
pub mod recurring;
pub mod set_password;
pub mod settings;
pub mod setup;
pub mod sign_in;
