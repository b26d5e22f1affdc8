//! The audit trail that nobody can rewrite (issue 15, 29): the events and their keyed
//! chain (`audit`), its key file (`audit_key`) and `GET /audit_events` (`audit_events`).

pub mod audit;
pub mod audit_events;
pub mod audit_key;
