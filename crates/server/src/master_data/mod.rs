//! Master data (issue 9): companies (customers and suppliers), their contact persons,
//! projects and deals; the catalogue of issue 33: articles and text snippets.

pub mod account_numbers;
pub mod articles;
pub mod companies;
pub mod contacts;
pub mod deals;
pub mod patch;
pub mod projects;
pub mod text_snippets;

use kontor_model::party::IdName;

/// The `{id, name}` reference of a joined record: `Some` when both the id (an `i64` or an
/// `Option<i64>`) and the joined name are there, `None` when either is missing (no
/// reference, or the `LEFT JOIN` found no row).
pub fn id_name(id: impl Into<Option<i64>>, name: Option<String>) -> Option<IdName> {
    match (id.into(), name) {
        (Some(id), Some(name)) => Some(IdName { id, name }),
        _ => None,
    }
}
