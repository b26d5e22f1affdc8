//! Default e-mail recipients of invoices and offers and the checks of typed address lists
//! (`decisions.md` § Supporting resources; `docs/decisions.md` § E-mail (issue 3) and
//! § Rules in the model (issue 8)). The send dialog shows what these return and the server
//! sends to them when a body names none.

use crate::email::{is_address, split_addresses};
use crate::error::messages;
use crate::error::{push_error, FieldErrors};
use crate::party::{Company, Project};

/// Default To and CC, each a `; `-separated list; an empty string means none.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Recipients {
    /// To.
    pub to: String,
    /// CC.
    pub cc: String,
}

/// A stored list in normal form (`"a@x.example; b@y.example"`); `None` when it holds no
/// address (absent, empty or only separators and spaces).
fn filled(value: Option<&str>) -> Option<String> {
    value
        .map(|v| split_addresses(v).join("; "))
        .filter(|v| !v.is_empty())
}

/// The e-mail of the company's billing contact, when it has one with an address.
fn billing_contact_email(company: &Company) -> Option<String> {
    company
        .billing_contact
        .as_ref()
        .and_then(|b| filled(b.email.as_deref()))
}

/// The default recipients of an invoice (issue 9 contract § Person): the project's
/// `billing_email_to` / `billing_email_cc`; when the project names no To, the customer's
/// billing contact's e-mail, else the customer's `email` (either with the customer's
/// `billing_email_cc` unless the project gave a CC). An empty or blank address counts as
/// none, so a customer without any e-mail gives no default To (sending then needs a typed
/// one: 422 on `emails_to`).
pub fn invoice_recipients(project: Option<&Project>, customer: Option<&Company>) -> Recipients {
    let mut to = project.and_then(|p| filled(p.billing_email_to.as_deref()));
    let mut cc = project.and_then(|p| filled(p.billing_email_cc.as_deref()));
    if to.is_none() {
        if let Some(c) = customer {
            to = billing_contact_email(c).or_else(|| filled(c.email.as_deref()));
            cc = cc.or_else(|| filled(c.billing_email_cc.as_deref()));
        }
    }
    Recipients {
        to: to.unwrap_or_default(),
        cc: cc.unwrap_or_default(),
    }
}

/// The default recipients of an offer: the offer's contact person's e-mail, else the
/// company's billing contact's e-mail, else the company's `email`; never a CC (the
/// company's `billing_email_cc` is for invoices only). Blank addresses count as none.
pub fn offer_recipients(contact_email: Option<&str>, company: Option<&Company>) -> Recipients {
    let to = filled(contact_email).or_else(|| {
        company.and_then(|c| billing_contact_email(c).or_else(|| filled(c.email.as_deref())))
    });
    Recipients {
        to: to.unwrap_or_default(),
        cc: String::new(),
    }
}

/// Errors of typed lists: `emails_to` is required, and every entry of a list that is not
/// an address is named (`"x is not an e-mail address"`); keys are the send body's fields.
pub fn check_recipients(to: &str, cc: &str, bcc: &str) -> FieldErrors {
    let mut errors = FieldErrors::new();
    if split_addresses(to).is_empty() {
        push_error(
            &mut errors,
            "emails_to",
            messages::ENTER_AT_LEAST_ONE_RECIPIENT,
        );
    }
    for (field, list) in [("emails_to", to), ("emails_cc", cc), ("emails_bcc", bcc)] {
        for address in split_addresses(list).iter().filter(|a| !is_address(a)) {
            push_error(
                &mut errors,
                field,
                messages::N_IS_NOT_E_MAIL_ADDRESS.with([address]),
            );
        }
    }
    errors
}

/// A typed list in the wire form: addresses separated by `;`.
pub fn wire_list(list: &str) -> String {
    split_addresses(list).join(";")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::party::{BillingContact, CompanyType, CustomerVat, Language};
    use chrono::Utc;

    fn company(email: Option<&str>, cc: Option<&str>) -> Company {
        Company {
            active: true,
            country_code: None,
            phone: None,
            website: None,
            vat_identifier: None,
            tax_number: None,
            bic: None,
            info: None,
            default_invoice_due_days: None,
            default_discount: None,
            default_cash_discount: None,
            default_cash_discount_days: None,
            language: Language::De,
            custom_properties: Default::default(),
            billing_contact: None,
            buyer_reference: None,
            electronic_address: None,
            einvoice_format: Default::default(),
            sepa_mandate_reference: None,
            debit_number: None,
            credit_number: None,
            debtor_number: None,
            creditor_number: None,
            consumer: false,
            id: 1,
            kind: CompanyType::Customer,
            name: "Hafen GmbH".into(),
            address: String::new(),
            email: email.map(Into::into),
            billing_email_cc: cc.map(Into::into),
            currency: None,
            payment_term_days: None,
            iban: None,
            tags: vec![],
            customer_vat: CustomerVat::default(),
            created_at: Utc::now(),
            updated_at: Utc::now(),
        }
    }

    fn project(to: Option<&str>, cc: Option<&str>) -> Project {
        Project {
            id: 2,
            name: "Relaunch".into(),
            customer: None,
            currency: None,
            billing_email_to: to.map(Into::into),
            billing_email_cc: cc.map(Into::into),
            billing_address: None,
            active: true,
            created_at: Utc::now(),
            updated_at: Utc::now(),
        }
    }

    fn r(to: &str, cc: &str) -> Recipients {
        Recipients {
            to: to.into(),
            cc: cc.into(),
        }
    }

    #[test]
    fn invoices_prefer_the_project_then_the_customer() {
        let customer = company(Some("x@hafen.example"), Some("boss@hafen.example"));
        let both = project(Some("a@p.example;b@p.example"), Some("c@p.example"));
        assert_eq!(
            invoice_recipients(Some(&both), Some(&customer)),
            r("a@p.example; b@p.example", "c@p.example")
        );
        let only_cc = project(Some("  "), Some("c@p.example"));
        assert_eq!(
            invoice_recipients(Some(&only_cc), Some(&customer)),
            r("x@hafen.example", "c@p.example")
        );
        assert_eq!(
            invoice_recipients(None, Some(&customer)),
            r("x@hafen.example", "boss@hafen.example")
        );
        assert_eq!(invoice_recipients(None, None), Recipients::default());
    }

    #[test]
    fn an_empty_customer_email_is_no_recipient() {
        for email in [Some(""), Some("  "), Some(";"), None] {
            let got = invoice_recipients(None, Some(&company(email, None)));
            assert_eq!(got.to, "", "{email:?}");
        }
    }

    #[test]
    fn offers_go_to_the_contact_else_the_company_without_cc() {
        let c = company(Some("x@hafen.example"), Some("boss@hafen.example"));
        assert_eq!(
            offer_recipients(Some("anna@hafen.example"), Some(&c)),
            r("anna@hafen.example", "")
        );
        assert_eq!(
            offer_recipients(Some(" "), Some(&c)),
            r("x@hafen.example", "")
        );
        assert_eq!(
            offer_recipients(None, Some(&company(Some(""), None))),
            r("", "")
        );
    }

    fn with_contact(mut c: Company, email: Option<&str>) -> Company {
        c.billing_contact = Some(BillingContact {
            id: 7,
            name: "Anna Berg".into(),
            email: email.map(Into::into),
        });
        c
    }

    #[test]
    fn the_billing_contact_comes_after_the_project_and_before_the_company() {
        let customer = with_contact(
            company(Some("x@hafen.example"), Some("boss@hafen.example")),
            Some("anna@hafen.example"),
        );
        assert_eq!(
            invoice_recipients(None, Some(&customer)),
            r("anna@hafen.example", "boss@hafen.example")
        );
        let both = project(Some("a@p.example"), None);
        assert_eq!(
            invoice_recipients(Some(&both), Some(&customer)),
            r("a@p.example", "")
        );
        let only_cc = project(None, Some("c@p.example"));
        assert_eq!(
            invoice_recipients(Some(&only_cc), Some(&customer)),
            r("anna@hafen.example", "c@p.example")
        );
        // A billing contact without an address falls back to the company's e-mail.
        let blank = with_contact(company(Some("x@hafen.example"), None), Some(" "));
        assert_eq!(
            invoice_recipients(None, Some(&blank)),
            r("x@hafen.example", "")
        );
        assert_eq!(
            offer_recipients(None, Some(&customer)),
            r("anna@hafen.example", "")
        );
        assert_eq!(
            offer_recipients(Some("bob@hafen.example"), Some(&customer)),
            r("bob@hafen.example", "")
        );
        assert_eq!(
            offer_recipients(None, Some(&blank)),
            r("x@hafen.example", "")
        );
    }

    #[test]
    fn typed_lists_are_checked() {
        let e = check_recipients("", "boss@hafen.example", "not an address");
        assert_eq!(e["emails_to"], ["enter at least one recipient"]);
        assert_eq!(e["emails_bcc"], ["not an address is not an e-mail address"]);
        assert!(check_recipients("a@x.example; b@y.example", "", "").is_empty());
        assert_eq!(
            wire_list(" a@x.example ; b@y.example;"),
            "a@x.example;b@y.example"
        );
    }
}
