//! Kontor's shared model: the wire types of `shared/spec/interface.md`, money and totals
//! (`decisions.md` § Totals), validation of creation bodies, and the status rules
//! (`decisions.md` § State rules).
//!
//! This crate does no I/O and compiles for both `wasm32-unknown-unknown` (the browser app)
//! and native targets (the server), so the form and the handler can never disagree about a
//! total, a field error or a permitted status move.
//!
//! Amounts are [`rust_decimal::Decimal`] everywhere and travel as JSON numbers through
//! serde_json's `arbitrary_precision` (never through `f64`).

#![warn(missing_docs)]

pub mod account;
pub mod approval;
pub mod arith;
pub mod article;
pub mod audit;
pub mod backdating;
pub mod bank;
pub mod bank_matching;
pub mod billing;
pub mod confirmation;
pub mod country;
pub mod credit_note;
pub mod dashboard;
pub mod datev;
pub mod down_payment;
pub mod down_payment_share;
pub mod dunning;
pub mod edit;
pub mod effects;
pub mod einvoice;
pub mod einvoice_check;
pub mod email;
pub mod error;
pub mod error_text;
pub mod event;
pub mod export;
pub mod girocode;
pub mod inbox;
pub mod invoice;
pub mod invoice_input;
pub mod limits;
pub mod local_draft;
pub mod master_data;
pub mod money;
pub mod number_format;
pub mod number_input;
pub mod offer;
pub mod outbox;
pub mod party;
pub mod payment;
pub mod payment_reference;
pub mod payment_rules;
pub mod position;
pub mod position_vat;
pub mod purchase;
pub mod purchase_totals;
pub mod qr_bill;
pub mod query;
pub mod recipients;
pub mod recurring;
pub mod reversal;
pub mod salutation;
pub mod search;
pub mod sepa;
pub mod status;
pub mod timestamp;
pub mod totals;
pub mod users;
pub mod validation;
pub mod vat;
pub mod vat_id;
pub mod wire;

pub use rust_decimal::Decimal;
