//! Time sheet entries (activities) and project expenses that invoices bill
//! (interface.md § Invoice: time sheet entry, invoiced expense).

use crate::party::{IdName, UserRef};
use chrono::{DateTime, NaiveDate, Utc};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A project or task reference with its billable flag: `{id, name, billable}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BillableRef {
    /// Record id.
    pub id: i64,
    /// Name.
    pub name: String,
    /// Billable.
    pub billable: bool,
}

/// A time sheet entry.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Activity {
    /// Record id.
    pub id: i64,
    /// Day worked.
    pub date: NaiveDate,
    /// Hours worked (decimal hours).
    #[serde(with = "crate::wire::decimal")]
    pub hours: Decimal,
    /// What was done.
    pub description: String,
    /// Billed by an invoice.
    pub billed: bool,
    /// May be billed.
    pub billable: bool,
    /// Tag.
    pub tag: String,
    /// Source system of an imported entry.
    pub remote_service: String,
    /// Id in the source system.
    pub remote_id: String,
    /// Link in the source system.
    pub remote_url: String,
    /// The project.
    pub project: BillableRef,
    /// The task, if any.
    pub task: Option<BillableRef>,
    /// The project's customer.
    pub customer: Option<IdName>,
    /// Who worked.
    pub user: Option<UserRef>,
    /// A running timer's start.
    #[serde(default)]
    pub timer_started_at: Option<String>,
    /// Creation time.
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
    /// Last change.
    #[serde(with = "crate::timestamp")]
    pub updated_at: DateTime<Utc>,
    /// Hourly rate, currency units.
    #[serde(with = "crate::wire::decimal")]
    pub hourly_rate: Decimal,
    /// The invoice that billed it (beyond the interface's fields).
    #[serde(default)]
    pub invoice_id: Option<i64>,
}

/// POST /activities body.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NewActivity {
    /// Required: day worked.
    #[serde(default, with = "crate::wire::date_option")]
    pub date: Option<NaiveDate>,
    /// Required: hours (> 0).
    #[serde(default, with = "crate::wire::decimal_option")]
    pub hours: Option<Decimal>,
    /// Description.
    #[serde(default)]
    pub description: Option<String>,
    /// Billable (default true).
    #[serde(default)]
    pub billable: Option<bool>,
    /// Required: project id.
    #[serde(default)]
    pub project_id: Option<i64>,
    /// Task id.
    #[serde(default)]
    pub task_id: Option<i64>,
    /// User id (default: the key's user).
    #[serde(default)]
    pub user_id: Option<i64>,
    /// Hourly rate (≥ 0), default 0.
    #[serde(default, with = "crate::wire::decimal_option")]
    pub hourly_rate: Option<Decimal>,
    /// Tag.
    #[serde(default)]
    pub tag: Option<String>,
}

/// A project expense.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Expense {
    /// Record id.
    pub id: i64,
    /// Date.
    pub date: NaiveDate,
    /// Title.
    pub title: String,
    /// Description (sanitized HTML).
    pub description: String,
    /// Quantity.
    #[serde(with = "crate::wire::decimal")]
    pub quantity: Decimal,
    /// Unit.
    pub unit: String,
    /// Price per unit charged to the customer.
    #[serde(with = "crate::wire::decimal")]
    pub unit_price: Decimal,
    /// Cost per unit to us.
    #[serde(with = "crate::wire::decimal")]
    pub unit_cost: Decimal,
    /// `quantity × unit_price`, rounded.
    #[serde(with = "crate::wire::decimal")]
    pub price: Decimal,
    /// `quantity × unit_cost`, rounded.
    #[serde(with = "crate::wire::decimal")]
    pub cost: Decimal,
    /// Currency.
    pub currency: String,
    /// Counts against the budget.
    pub budget_relevant: bool,
    /// May be billed.
    pub billable: bool,
    /// Billed by an invoice.
    pub billed: bool,
    /// `MM/YYYY` of the service period start.
    pub service_period: Option<String>,
    /// Service period start.
    pub service_period_from: Option<NaiveDate>,
    /// Service period end.
    pub service_period_to: Option<NaiveDate>,
    /// Signed link to a receipt file (none yet).
    pub file_url: Option<String>,
    /// Custom properties.
    pub custom_properties: BTreeMap<String, String>,
    /// The project's customer.
    pub company: Option<IdName>,
    /// The project.
    pub project: Option<IdName>,
    /// Source purchase, if any.
    pub purchase_id: Option<i64>,
    /// Source purchase item, if any.
    pub purchase_item_id: Option<i64>,
    /// Creation time.
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
    /// Last change.
    #[serde(with = "crate::timestamp")]
    pub updated_at: DateTime<Utc>,
    /// The invoice that billed it (beyond the interface's fields).
    #[serde(default)]
    pub invoice_id: Option<i64>,
}

/// POST /projects/{id}/expenses body.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NewExpense {
    /// Required: date.
    #[serde(default, with = "crate::wire::date_option")]
    pub date: Option<NaiveDate>,
    /// Required: title.
    #[serde(default)]
    pub title: Option<String>,
    /// Description (HTML).
    #[serde(default)]
    pub description: Option<String>,
    /// Quantity, default 1.
    #[serde(default, with = "crate::wire::decimal_option")]
    pub quantity: Option<Decimal>,
    /// Unit.
    #[serde(default)]
    pub unit: Option<String>,
    /// Required: price per unit.
    #[serde(default, with = "crate::wire::decimal_option")]
    pub unit_price: Option<Decimal>,
    /// Cost per unit, default 0.
    #[serde(default, with = "crate::wire::decimal_option")]
    pub unit_cost: Option<Decimal>,
    /// Billable, default true.
    #[serde(default)]
    pub billable: Option<bool>,
    /// Currency, default the project's or the account's.
    #[serde(default)]
    pub currency: Option<String>,
}
