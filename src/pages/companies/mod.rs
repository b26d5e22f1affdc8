//! The Customers and Suppliers pages (issue 9 § Pages): one set of pages for both, told
//! apart by a [`CompanyType`] — the list with search and filters in the URL, the detail
//! (master data, contacts, projects, the company's invoices / offers / purchases with
//! their open amounts) and the create / edit form.

pub mod detail;
mod detail_contacts;
pub mod detail_documents;
mod detail_projects;
mod form;
mod list;
mod list_filter;

pub use detail::CompanyDetail;
pub use form::{CompanyCreate, CompanyEdit};
pub use list::CompanyList;

use kontor_model::party::CompanyType;

/// The pages' path for `kind`: `/customers` or `/suppliers`.
pub fn base_path(kind: CompanyType) -> &'static str {
    match kind {
        CompanyType::Supplier => "/suppliers",
        _ => "/customers",
    }
}

/// The plural heading for `kind` in the user's language: "Customers" or "Suppliers"
/// ("Kunden", "Lieferanten").
pub fn plural(kind: CompanyType) -> &'static str {
    match kind {
        CompanyType::Supplier => crate::i18n::t().nav().suppliers,
        _ => crate::i18n::t().nav().customers,
    }
}

/// The heading of the creation form for `kind`: "New customer" or "New supplier"
/// ("Neuer Kunde", "Neuer Lieferant").
pub fn new_title(kind: CompanyType) -> &'static str {
    match kind {
        CompanyType::Supplier => crate::i18n::t().companies().new_supplier,
        _ => crate::i18n::t().companies().new_customer,
    }
}

pub use crate::components::countries::country_label;
