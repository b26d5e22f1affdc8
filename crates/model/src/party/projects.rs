//! Projects (work for a customer, billed by the hour or at a fixed price) and deals
//! (sales opportunities) — issue 9 § Master data.

use super::*;

/// A project.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
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
    /// `false` once archived.
    #[serde(default = "yes")]
    pub active: bool,
    /// Creation time.
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
    /// Last change.
    #[serde(with = "crate::timestamp")]
    pub updated_at: DateTime<Utc>,
}

/// POST /projects body.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NewProject {
    /// Required: name.
    pub name: Option<String>,
    /// Required: the customer's id.
    pub customer_id: Option<i64>,
    /// Currency.
    pub currency: Option<String>,
    /// Default recipients.
    pub billing_email_to: Option<String>,
    /// Default CC.
    pub billing_email_cc: Option<String>,
    /// Billing address.
    pub billing_address: Option<String>,
    /// `false` archives, `true` restores; default (create) `true`.
    pub active: Option<bool>,
}

impl From<&Project> for NewProject {
    /// The full body of a stored project (the base a partial update is merged onto).
    fn from(p: &Project) -> Self {
        NewProject {
            name: Some(p.name.clone()),
            customer_id: p.customer.as_ref().map(|c| c.id),
            currency: p.currency.clone(),
            billing_email_to: p.billing_email_to.clone(),
            billing_email_cc: p.billing_email_cc.clone(),
            billing_address: p.billing_address.clone(),
            active: Some(p.active),
        }
    }
}

/// A deal (sales opportunity) with a company.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Deal {
    /// Record id.
    pub id: i64,
    /// Name.
    pub name: String,
    /// The company.
    pub company: Option<IdName>,
    /// Currency.
    pub currency: Option<String>,
    /// Status: `open`, `won` or `lost` ([`DEAL_STATUSES`]).
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
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NewDeal {
    /// Required: name.
    pub name: Option<String>,
    /// Required: company id.
    pub company_id: Option<i64>,
    /// Currency (one of the account's).
    pub currency: Option<String>,
    /// `open` (default), `won` or `lost`.
    pub status: Option<String>,
}

/// The statuses of a deal (contract § Deal); the first is the default.
pub const DEAL_STATUSES: [&str; 3] = ["open", "won", "lost"];

impl From<&Deal> for NewDeal {
    /// The full body of a stored deal (the base a partial update is merged onto).
    fn from(d: &Deal) -> Self {
        NewDeal {
            name: Some(d.name.clone()),
            company_id: d.company.as_ref().map(|c| c.id),
            currency: d.currency.clone(),
            status: Some(d.status.clone()),
        }
    }
}
