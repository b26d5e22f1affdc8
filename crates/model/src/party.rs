//! Supporting records the forms need (`decisions.md` § Supporting resources): companies,
//! projects and users, with their creation bodies.

use chrono::{DateTime, Utc};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

/// A reference to a record by id and name: `{id, name}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct IdName {
    /// Record id.
    pub id: i64,
    /// Display name.
    pub name: String,
}

/// A user reference: `{id, firstname, lastname}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UserRef {
    /// User id.
    pub id: i64,
    /// First name.
    pub firstname: String,
    /// Last name.
    pub lastname: String,
}

/// Company role: `customer`, `supplier` or `organization`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CompanyType {
    /// Someone we invoice.
    Customer,
    /// Someone we buy from.
    Supplier,
    /// Neither (or both).
    Organization,
}

impl CompanyType {
    /// Wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            CompanyType::Customer => "customer",
            CompanyType::Supplier => "supplier",
            CompanyType::Organization => "organization",
        }
    }

    /// Parses a wire name.
    pub fn parse(text: &str) -> Option<Self> {
        [
            CompanyType::Customer,
            CompanyType::Supplier,
            CompanyType::Organization,
        ]
        .into_iter()
        .find(|t| t.as_str() == text)
    }
}

/// A customer's default VAT treatment: `{tax, reverse_charge, intra_eu}` (tax in percent).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CustomerVat {
    /// Default tax rate in percent; `null` → the form's default.
    #[serde(default, with = "crate::wire::decimal_option")]
    pub tax: Option<Decimal>,
    /// Reverse charge applies to this customer.
    #[serde(default)]
    pub reverse_charge: bool,
    /// Intra-EU customer.
    #[serde(default)]
    pub intra_eu: bool,
}

/// A company (customer, supplier or organization).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Company {
    /// Record id.
    pub id: i64,
    /// Role.
    #[serde(rename = "type")]
    pub kind: CompanyType,
    /// Name.
    pub name: String,
    /// Postal address, lines separated by `\n` (without the name).
    pub address: String,
    /// Billing e-mail (default invoice recipient).
    pub email: Option<String>,
    /// Billing CC addresses, `;`-separated.
    pub billing_email_cc: Option<String>,
    /// Preferred currency.
    pub currency: Option<String>,
    /// Payment term in days used to pre-fill the due date.
    pub payment_term_days: Option<i64>,
    /// IBAN (suppliers).
    pub iban: Option<String>,
    /// Tags.
    pub tags: Vec<String>,
    /// Default VAT treatment.
    pub customer_vat: CustomerVat,
    /// Creation time.
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
    /// Last change.
    #[serde(with = "crate::timestamp")]
    pub updated_at: DateTime<Utc>,
}

impl Company {
    /// The recipient address block for documents: name, then the address lines.
    pub fn recipient_address(&self) -> String {
        if self.address.trim().is_empty() {
            self.name.clone()
        } else {
            format!("{}\n{}", self.name, self.address.trim())
        }
    }
}

/// POST /companies body.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct NewCompany {
    /// Role; default `customer`.
    #[serde(rename = "type", default)]
    pub kind: Option<CompanyType>,
    /// Required: name.
    #[serde(default)]
    pub name: Option<String>,
    /// Address lines.
    #[serde(default)]
    pub address: Option<String>,
    /// Billing e-mail.
    #[serde(default)]
    pub email: Option<String>,
    /// Billing CC, `;`-separated.
    #[serde(default)]
    pub billing_email_cc: Option<String>,
    /// Preferred currency (one of the account's).
    #[serde(default)]
    pub currency: Option<String>,
    /// Payment term in days.
    #[serde(default)]
    pub payment_term_days: Option<i64>,
    /// IBAN.
    #[serde(default)]
    pub iban: Option<String>,
    /// Tags.
    #[serde(default)]
    pub tags: Option<Vec<String>>,
    /// Default VAT treatment.
    #[serde(default)]
    pub customer_vat: Option<CustomerVat>,
}

/// A project.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Project {
    /// Record id.
    pub id: i64,
    /// Name.
    pub name: String,
    /// The customer.
    pub customer: Option<IdName>,
    /// Currency.
    pub currency: Option<String>,
    /// Default invoice recipients, `;`-separated.
    pub billing_email_to: Option<String>,
    /// Default invoice CC, `;`-separated.
    pub billing_email_cc: Option<String>,
    /// Billing address used instead of the customer's when set.
    pub billing_address: Option<String>,
    /// Creation time.
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
    /// Last change.
    #[serde(with = "crate::timestamp")]
    pub updated_at: DateTime<Utc>,
}

/// POST /projects body.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct NewProject {
    /// Required: name.
    #[serde(default)]
    pub name: Option<String>,
    /// Required: the customer's id.
    #[serde(default)]
    pub customer_id: Option<i64>,
    /// Currency.
    #[serde(default)]
    pub currency: Option<String>,
    /// Default recipients.
    #[serde(default)]
    pub billing_email_to: Option<String>,
    /// Default CC.
    #[serde(default)]
    pub billing_email_cc: Option<String>,
    /// Billing address.
    #[serde(default)]
    pub billing_address: Option<String>,
}

/// A user of the account (internal contact).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct User {
    /// Record id.
    pub id: i64,
    /// First name.
    pub firstname: String,
    /// Last name.
    pub lastname: String,
    /// E-mail.
    pub email: Option<String>,
    /// Creation time.
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
    /// Last change.
    #[serde(with = "crate::timestamp")]
    pub updated_at: DateTime<Utc>,
}

/// POST /users body.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct NewUser {
    /// Required: first name.
    #[serde(default)]
    pub firstname: Option<String>,
    /// Required: last name.
    #[serde(default)]
    pub lastname: Option<String>,
    /// E-mail.
    #[serde(default)]
    pub email: Option<String>,
}

/// A deal (sales opportunity) with a company.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Deal {
    /// Record id.
    pub id: i64,
    /// Name.
    pub name: String,
    /// The company.
    pub company: Option<IdName>,
    /// Currency.
    pub currency: Option<String>,
    /// Status: `pending`, `won` or `lost`.
    pub status: String,
    /// Creation time.
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
    /// Last change.
    #[serde(with = "crate::timestamp")]
    pub updated_at: DateTime<Utc>,
}

/// POST /deals body.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct NewDeal {
    /// Required: name.
    #[serde(default)]
    pub name: Option<String>,
    /// Required: company id.
    #[serde(default)]
    pub company_id: Option<i64>,
    /// Currency (one of the account's).
    #[serde(default)]
    pub currency: Option<String>,
    /// `pending` (default), `won` or `lost`.
    #[serde(default)]
    pub status: Option<String>,
}

/// A contact person at a company.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Person {
    /// Record id.
    pub id: i64,
    /// First name.
    pub firstname: String,
    /// Last name.
    pub lastname: String,
    /// E-mail (default offer recipient).
    pub email: Option<String>,
    /// The company.
    pub company: Option<IdName>,
    /// Creation time.
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
    /// Last change.
    #[serde(with = "crate::timestamp")]
    pub updated_at: DateTime<Utc>,
}

/// POST /contacts/people body.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct NewPerson {
    /// Required: first name.
    #[serde(default)]
    pub firstname: Option<String>,
    /// Required: last name.
    #[serde(default)]
    pub lastname: Option<String>,
    /// E-mail.
    #[serde(default)]
    pub email: Option<String>,
    /// Company id.
    #[serde(default)]
    pub company_id: Option<i64>,
}
