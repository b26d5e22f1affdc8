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
        CompanyType::Supplier => crate::i18n::t().nav.suppliers,
        _ => crate::i18n::t().nav.customers,
    }
}

/// The heading of the creation form for `kind`: "New customer" or "New supplier"
/// ("Neuer Kunde", "Neuer Lieferant").
pub fn new_title(kind: CompanyType) -> &'static str {
    match kind {
        CompanyType::Supplier => crate::i18n::t().companies.new_supplier,
        _ => crate::i18n::t().companies.new_customer,
    }
}

/// The name of the country `code` (ISO 3166-1 alpha-2) in the user's language: the
/// model's English name in English, the browser's `Intl.DisplayNames` in German
/// (`DE` → "Deutschland"); the code itself when neither knows it.
pub fn country_label(code: &str) -> String {
    use crate::i18n::{language, Lang};
    let english = kontor_model::country::country_name(code);
    // Only a known code reaches `Intl` (a malformed one would throw).
    if language() == Lang::De && english.is_some() {
        let options = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&options, &"type".into(), &"region".into());
        let _ = js_sys::Reflect::set(&options, &"fallback".into(), &"none".into());
        let locales = js_sys::Array::of1(&Lang::De.intl_locale().into());
        let names = js_sys::Intl::DisplayNames::new(&locales, &options);
        if let Some(name) = names.of(code) {
            return String::from(name);
        }
    }
    english
        .map(str::to_string)
        .unwrap_or_else(|| code.to_string())
}
