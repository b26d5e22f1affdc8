//! Unit tests of this module (kept apart so the module itself stays short).

use super::*;
use kontor_model::master_data::validate_company;

#[test]
fn every_demo_company_and_the_account_pass_the_rules() {
    for (n, c) in CUSTOMERS.iter().enumerate() {
        let errors = validate_company(&customer_body(n, c));
        assert!(errors.is_empty(), "{}: {errors:?}", c.name);
    }
    for s in SUPPLIERS {
        let errors = validate_company(&supplier_body(s));
        assert!(errors.is_empty(), "{}: {errors:?}", s.0);
    }
    let countries: std::collections::BTreeSet<_> = CUSTOMERS.iter().map(|c| c.country).collect();
    assert_eq!(
        countries.into_iter().collect::<Vec<_>>(),
        ["AT", "CH", "DE", "GB", "NL"]
    );
    for c in CUSTOMERS
        .iter()
        .filter(|c| matches!(c.country, "GB" | "NL"))
    {
        assert_eq!(c.language, Language::En, "{}", c.name);
    }
    let account = kontor_model::account::Account::default();
    let errors = validate_account_update(&demo_account(), &account);
    assert!(errors.is_empty(), "{errors:?}");
    assert!(crate::input::svg::sanitize(LOGO_SVG).is_ok());
}
