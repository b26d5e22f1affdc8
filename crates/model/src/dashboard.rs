//! The dashboard (issue 11 § Find and see: "open and overdue receivables with the oldest
//! items, revenue per month (12 months), purchases waiting for approval, offers awaiting an
//! answer") and the rules behind its figures, shared by the server (`GET /dashboard`, the
//! invoices' `open_amount`) and the app:
//!
//! - [`open_amount`]: what is still to be paid on an invoice;
//! - [`is_overdue`] and [`days_overdue`]: the overdue rule;
//! - [`YearMonth`], [`last_twelve_months`], [`revenue_by_month`]: the month bucketing of the
//!   revenue chart.

use crate::party::IdName;
use crate::payment_rules;
use crate::status::InvoiceStatus;
use chrono::{Datelike, NaiveDate};
use rust_decimal::Decimal;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

/// Whether an invoice in `status` (with `reversed` = it has been reversed) is still
/// collected, so that it has an open amount: finalized invoices (`created`, `sent`,
/// `partially_paid`, `paid`, `overdue`) that have not been reversed. Drafts owe nothing
/// yet; `ignored` invoices are written off and a reversed invoice is cancelled by its
/// reversal (`docs/decisions.md` § Summaries and dashboard (issue 11)).
pub fn is_collectible(status: InvoiceStatus, reversed: bool) -> bool {
    !reversed
        && matches!(
            status,
            InvoiceStatus::Created
                | InvoiceStatus::Sent
                | InvoiceStatus::PartiallyPaid
                | InvoiceStatus::Paid
                | InvoiceStatus::Overdue
        )
}

/// The invoice's `open_amount` (issue 11 contract § Invoices: `open_amount`), currency
/// units at `currency`'s minor-unit places: `gross − paid` for a collectible invoice
/// ([`is_collectible`]), never below zero (an overpaid invoice is 0; a reversal invoice's
/// negative gross is 0); `0` for drafts, `ignored` and reversed invoices. `paid` is the sum
/// of the invoice's payments (currency units). 0 when the difference overflows.
///
/// The server's SQL for `sort=open_amount` and the summaries computes the same figure
/// (`crates/server/src/invoices/repo.rs`, `OPEN_AMOUNT_SQL`); tests hold the two together.
pub fn open_amount(
    status: InvoiceStatus,
    reversed: bool,
    gross: Decimal,
    paid: Decimal,
    currency: &str,
) -> Decimal {
    if is_collectible(status, reversed) {
        payment_rules::unpaid_amount(gross, &[paid], currency)
    } else {
        crate::money::round_money(Decimal::ZERO, currency)
    }
}

/// The overdue rule (issue 11 contract § Dashboard): an invoice with something still open
/// (`open_amount` > 0, currency units, from [`open_amount`], so only collectible invoices)
/// whose `due_date` lies before `today`. Due today is not overdue yet.
pub fn is_overdue(due_date: NaiveDate, today: NaiveDate, open_amount: Decimal) -> bool {
    open_amount > Decimal::ZERO && due_date < today
}

/// Whole days since `due_date` (`today − due_date`), 0 when it is not past; for the
/// dashboard's oldest open invoices.
pub fn days_overdue(due_date: NaiveDate, today: NaiveDate) -> i64 {
    today.signed_duration_since(due_date).num_days().max(0)
}

/// A calendar month, on the wire `"YYYY-MM"` (`"2026-11"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct YearMonth {
    /// The year (1900–2999 for dates of this application).
    pub year: i32,
    /// The month, 1–12.
    pub month: u32,
}

impl YearMonth {
    /// The month containing `date`.
    pub fn of(date: NaiveDate) -> YearMonth {
        YearMonth {
            year: date.year(),
            month: date.month(),
        }
    }

    /// The month before this one (December of the previous year before January).
    pub fn previous(self) -> YearMonth {
        if self.month <= 1 {
            YearMonth {
                year: self.year - 1,
                month: 12,
            }
        } else {
            YearMonth {
                year: self.year,
                month: self.month - 1,
            }
        }
    }

    /// The month's first day; `None` for an impossible month.
    pub fn first_day(self) -> Option<NaiveDate> {
        NaiveDate::from_ymd_opt(self.year, self.month, 1)
    }

    /// The month's last day; `None` for an impossible month.
    pub fn last_day(self) -> Option<NaiveDate> {
        let next = if self.month >= 12 {
            NaiveDate::from_ymd_opt(self.year.checked_add(1)?, 1, 1)
        } else {
            NaiveDate::from_ymd_opt(self.year, self.month + 1, 1)
        };
        next?.pred_opt()
    }
}

impl fmt::Display for YearMonth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}", self.year, self.month)
    }
}

impl FromStr for YearMonth {
    type Err = &'static str;

    /// Parses `YYYY-MM` (four year digits, two month digits, month 1–12).
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        const MESSAGE: &str = "must be a month YYYY-MM";
        let (y, m) = text.split_once('-').ok_or(MESSAGE)?;
        if y.len() != 4 || m.len() != 2 || !(y.bytes().chain(m.bytes())).all(|b| b.is_ascii_digit())
        {
            return Err(MESSAGE);
        }
        let year: i32 = y.parse().map_err(|_| MESSAGE)?;
        let month: u32 = m.parse().map_err(|_| MESSAGE)?;
        if !(1..=12).contains(&month) {
            return Err(MESSAGE);
        }
        Ok(YearMonth { year, month })
    }
}

impl Serialize for YearMonth {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

/// A month on the wire: the string `YYYY-MM`.
#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for YearMonth {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .pattern(Some("^[0-9]{4}-(0[1-9]|1[0-2])$"))
            .description(Some("A month `YYYY-MM`."))
            .examples([serde_json::json!("2026-11")])
            .into()
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for YearMonth {}

impl<'de> Deserialize<'de> for YearMonth {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// The twelve months of the revenue chart: the eleven before `today`'s month and
/// `today`'s month, oldest first, the current month last.
pub fn last_twelve_months(today: NaiveDate) -> Vec<YearMonth> {
    let mut months = vec![YearMonth::of(today)];
    for _ in 1..12 {
        let earlier = months[months.len() - 1].previous();
        months.push(earlier);
    }
    months.reverse();
    months
}

/// The first day of the chart's window ([`last_twelve_months`]): the first of the month
/// eleven months before `today`'s.
pub fn revenue_window_start(today: NaiveDate) -> NaiveDate {
    last_twelve_months(today)
        .first()
        .and_then(|m| m.first_day())
        .unwrap_or(today)
}

/// Net revenue of one month (currency units).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MonthRevenue {
    /// The month (`"2026-11"`).
    pub month: YearMonth,
    /// Sum of the net totals of the month's invoices (currency units; negative when
    /// reversals outweigh).
    #[serde(with = "crate::wire::decimal")]
    pub net_total: Decimal,
}

/// Buckets `invoices` (invoice date, net total in currency units) into the twelve months
/// of [`last_twelve_months`] (oldest first, every month present, 0 where nothing was
/// invoiced), each sum at `currency`'s places. Dates outside the window are ignored. The
/// caller passes the finalized invoices of the account's default currency (reversal
/// invoices with their negative net). `None` when a sum overflows.
pub fn revenue_by_month(
    today: NaiveDate,
    invoices: impl IntoIterator<Item = (NaiveDate, Decimal)>,
    currency: &str,
) -> Option<Vec<MonthRevenue>> {
    let months = last_twelve_months(today);
    let mut sums = vec![Decimal::ZERO; months.len()];
    for (date, net) in invoices {
        if let Some(i) = months.iter().position(|m| *m == YearMonth::of(date)) {
            sums[i] = sums[i].checked_add(net)?;
        }
    }
    Some(
        months
            .into_iter()
            .zip(sums)
            .map(|(month, sum)| MonthRevenue {
                month,
                net_total: crate::money::round_money(sum, currency),
            })
            .collect(),
    )
}

/// How many invoices of one currency and their amount (currency units).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CurrencyAmount {
    /// ISO 4217 code.
    pub currency: String,
    /// Number of invoices.
    pub count: i64,
    /// Sum of their open amounts (currency units).
    #[serde(with = "crate::wire::decimal")]
    pub amount: Decimal,
}

/// One of the oldest open invoices.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OpenInvoice {
    /// Invoice id.
    pub id: i64,
    /// Invoice number.
    pub identifier: Option<String>,
    /// The customer `{id, name}`.
    pub customer: IdName,
    /// Due date.
    #[serde(with = "crate::wire::date")]
    pub due_date: NaiveDate,
    /// What is still to be paid (currency units).
    #[serde(with = "crate::wire::decimal")]
    pub open_amount: Decimal,
    /// Currency code.
    pub currency: String,
    /// Days past the due date ([`days_overdue`]; 0 when not yet due).
    pub days_overdue: i64,
}

/// Open and overdue receivables.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Receivables {
    /// Invoices with an open amount, per currency (sorted by currency).
    pub open: Vec<CurrencyAmount>,
    /// Of those, the overdue ones ([`is_overdue`]), per currency.
    pub overdue: Vec<CurrencyAmount>,
    /// Up to five open invoices, earliest due date first.
    pub oldest: Vec<OpenInvoice>,
}

/// Revenue per month in the account's default currency.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Revenue {
    /// The account's default currency.
    pub currency: String,
    /// Twelve months, oldest first, the current month last.
    pub months: Vec<MonthRevenue>,
}

/// Purchases of one currency awaiting approval (status `pending`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PendingPurchases {
    /// ISO 4217 code.
    pub currency: String,
    /// Number of purchases.
    pub count: i64,
    /// Sum of their gross totals (currency units).
    #[serde(with = "crate::wire::decimal")]
    pub gross_total: Decimal,
}

/// Offers of one currency awaiting an answer (status `sent`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SentOffers {
    /// ISO 4217 code.
    pub currency: String,
    /// Number of offers.
    pub count: i64,
    /// Sum of their net totals (currency units).
    #[serde(with = "crate::wire::decimal")]
    pub net_total: Decimal,
}

/// `GET /dashboard` (issue 11 contract § Dashboard).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Dashboard {
    /// The server's date the figures are computed for.
    #[serde(with = "crate::wire::date")]
    pub today: NaiveDate,
    /// Open and overdue receivables.
    pub receivables: Receivables,
    /// Revenue per month.
    pub revenue: Revenue,
    /// Purchases awaiting approval, per currency.
    pub purchases_awaiting_approval: Vec<PendingPurchases>,
    /// Offers awaiting an answer, per currency.
    pub offers_awaiting_answer: Vec<SentOffers>,
    /// What needs doing today (issue 33 § A to-do dashboard): every [`TodoKind`] in its
    /// order, with its count (0 when nothing is to do) and the app path of the exact list.
    #[serde(default)]
    pub todo: Vec<TodoItem>,
}

/// A kind of work the dashboard's to-do list counts (issue 33).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum TodoKind {
    /// Overdue invoices whose next dunning level is due today or earlier (the Dunning
    /// page).
    InvoicesToRemind,
    /// Invoice drafts dated [`OLD_DRAFT_DAYS`] days ago or earlier.
    OldDrafts,
    /// Sent offers whose validity ends within [`OFFER_EXPIRY_DAYS`] days (today
    /// included).
    OffersExpiring,
    /// Purchases waiting for approval (status `pending`).
    PurchasesToApprove,
    /// Recurring invoices whose latest run failed (it names why).
    RecurringFailed,
    /// Bank transactions with suggestions or without any match (issue 32).
    BankTransactionsToReview,
    /// E-mails the mail server refused or could not take, not sent again since (the Mail
    /// page's open failures).
    EmailsFailed,
    /// No SMTP server is set up: mail goes to the server's outbox, not to anyone (1 or 0;
    /// Settings → E-mail).
    SmtpNotSetUp,
}

impl TodoKind {
    /// The wire name (`invoices_to_remind`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            TodoKind::InvoicesToRemind => "invoices_to_remind",
            TodoKind::OldDrafts => "old_drafts",
            TodoKind::OffersExpiring => "offers_expiring",
            TodoKind::PurchasesToApprove => "purchases_to_approve",
            TodoKind::RecurringFailed => "recurring_failed",
            TodoKind::BankTransactionsToReview => "bank_transactions_to_review",
            TodoKind::EmailsFailed => "emails_failed",
            TodoKind::SmtpNotSetUp => "smtp_not_set_up",
        }
    }

    /// Every kind, in the order the dashboard lists them.
    pub const ALL: [TodoKind; 8] = [
        TodoKind::InvoicesToRemind,
        TodoKind::OldDrafts,
        TodoKind::OffersExpiring,
        TodoKind::PurchasesToApprove,
        TodoKind::RecurringFailed,
        TodoKind::BankTransactionsToReview,
        TodoKind::EmailsFailed,
        TodoKind::SmtpNotSetUp,
    ];
}

/// One line of the to-do list: `{kind, count, href}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TodoItem {
    /// What is to do.
    pub kind: TodoKind,
    /// How many records (≥ 0).
    pub count: i64,
    /// The app path of the list that shows exactly them (`/invoices?status=draft&date_to=…`),
    /// relative to the app's base.
    pub href: String,
}

/// An invoice draft is "old" once its date is this many days ago (issue 33: 3).
pub const OLD_DRAFT_DAYS: i64 = 3;

/// A sent offer is "expiring" when it is valid until at most this many days from today
/// (issue 33: 7).
pub const OFFER_EXPIRY_DAYS: i64 = 7;

/// The last invoice date of an old draft on `today` (`today` − [`OLD_DRAFT_DAYS`]).
pub fn old_draft_cutoff(today: NaiveDate) -> NaiveDate {
    today - chrono::Duration::days(OLD_DRAFT_DAYS)
}

/// The valid-until window of expiring offers on `today`: `(today, today +`
/// [`OFFER_EXPIRY_DAYS`]`)`, both included.
pub fn offer_expiry_window(today: NaiveDate) -> (NaiveDate, NaiveDate) {
    (today, today + chrono::Duration::days(OFFER_EXPIRY_DAYS))
}

/// The app path of the list that shows `kind`'s records on `today`.
pub fn todo_href(kind: TodoKind, today: NaiveDate) -> String {
    match kind {
        TodoKind::InvoicesToRemind => "/dunning".into(),
        TodoKind::OldDrafts => format!(
            "/invoices?status=draft&date_to={}",
            old_draft_cutoff(today).format("%Y-%m-%d")
        ),
        TodoKind::OffersExpiring => {
            let (from, to) = offer_expiry_window(today);
            format!(
                "/offers?status=sent&due_date_from={}&due_date_to={}",
                from.format("%Y-%m-%d"),
                to.format("%Y-%m-%d")
            )
        }
        TodoKind::PurchasesToApprove => "/purchases?status=pending".into(),
        TodoKind::RecurringFailed => "/recurring_invoices".into(),
        TodoKind::BankTransactionsToReview => "/bank".into(),
        TodoKind::EmailsFailed => "/mail?open=true".into(),
        TodoKind::SmtpNotSetUp => "/settings#smtp".into(),
    }
}

/// The to-do list of `today` from each kind's count (`count(kind)`; negative counts read
/// as 0): every kind in [`TodoKind::ALL`] order with its [`todo_href`].
pub fn todo_list(today: NaiveDate, count: impl Fn(TodoKind) -> i64) -> Vec<TodoItem> {
    TodoKind::ALL
        .into_iter()
        .map(|kind| TodoItem {
            kind,
            count: count(kind).max(0),
            href: todo_href(kind, today),
        })
        .collect()
}

/// An invoice with its open amount, as [`receivables`] reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Receivable {
    /// Invoice id.
    pub id: i64,
    /// Invoice number.
    pub identifier: Option<String>,
    /// The customer.
    pub customer: IdName,
    /// Due date.
    pub due_date: NaiveDate,
    /// Currency code.
    pub currency: String,
    /// Its [`open_amount`] (currency units).
    pub open_amount: Decimal,
}

/// How many oldest open invoices the dashboard lists.
pub const OLDEST_COUNT: usize = 5;

/// Adds one invoice's `amount` to its currency's entry of `totals` (kept sorted by
/// currency). `None` on overflow.
fn add_to(totals: &mut Vec<CurrencyAmount>, currency: &str, amount: Decimal) -> Option<()> {
    let at = match totals.binary_search_by(|t| t.currency.as_str().cmp(currency)) {
        Ok(at) => at,
        Err(at) => {
            totals.insert(
                at,
                CurrencyAmount {
                    currency: currency.to_string(),
                    count: 0,
                    amount: crate::money::round_money(Decimal::ZERO, currency),
                },
            );
            at
        }
    };
    let entry = &mut totals[at];
    entry.count = entry.count.checked_add(1)?;
    entry.amount = entry.amount.checked_add(amount)?;
    Some(())
}

/// The receivables on `today` from `invoices` (any order): per currency (sorted) the
/// count and sum of the open ones (`open_amount` > 0; others are skipped) and of the
/// overdue ones ([`is_overdue`]); and the [`OLDEST_COUNT`] open invoices with the earliest
/// due dates (ties by id) with their [`days_overdue`]. `None` when a sum overflows.
pub fn receivables(today: NaiveDate, invoices: Vec<Receivable>) -> Option<Receivables> {
    let mut open: Vec<Receivable> = invoices
        .into_iter()
        .filter(|r| r.open_amount > Decimal::ZERO)
        .collect();
    open.sort_by_key(|r| (r.due_date, r.id));
    let mut out = Receivables::default();
    for r in &open {
        add_to(&mut out.open, &r.currency, r.open_amount)?;
        if is_overdue(r.due_date, today, r.open_amount) {
            add_to(&mut out.overdue, &r.currency, r.open_amount)?;
        }
    }
    out.oldest = open
        .into_iter()
        .take(OLDEST_COUNT)
        .map(|r| OpenInvoice {
            days_overdue: days_overdue(r.due_date, today),
            id: r.id,
            identifier: r.identifier,
            customer: r.customer,
            due_date: r.due_date,
            open_amount: r.open_amount,
            currency: r.currency,
        })
        .collect();
    Some(out)
}

/// The invoice statuses that can be open (for the list links of the dashboard): the
/// collectible statuses without `paid`.
pub const OPEN_STATUSES: [InvoiceStatus; 4] = [
    InvoiceStatus::Created,
    InvoiceStatus::Sent,
    InvoiceStatus::PartiallyPaid,
    InvoiceStatus::Overdue,
];

#[cfg(test)]
mod tests;
