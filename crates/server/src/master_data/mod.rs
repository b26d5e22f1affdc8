//! Master data (issue 9): companies (customers and suppliers), their contact persons,
//! projects and deals.

pub mod companies;
pub mod contacts;
pub mod deals;
pub mod patch;
pub mod projects;
