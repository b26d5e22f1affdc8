//! What an invoice can bill besides its own positions: tracked time (`activities`),
//! expenses, and which of them an invoice's positions bill (`billing`).

pub mod activities;
pub mod billing;
pub mod expenses;
