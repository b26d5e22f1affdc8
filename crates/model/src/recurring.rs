//! Recurring invoices (issue 11 § Edit, delete, copy, repeat; `docs/decisions.md`
//! § Recurring invoices (issue 11)): the wire types of `/recurring_invoices`, their
//! validation, and the pure rules the server's job applies — the period of an invoice
//! date, the next date without drift, the title placeholders and the runs that are due.

use crate::error::messages;
use crate::error::{push_error, FieldErrors};
use crate::invoice_input::NewInvoice;
use crate::party::{IdName, Language};
use crate::status::InvoiceStatus;
use crate::validation::validate_new_invoice;
use chrono::{DateTime, Datelike, NaiveDate, Utc};
use serde::{Deserialize, Serialize};

/// How often a schedule bills: every calendar month, quarter or year.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Interval {
    /// Once per calendar month.
    Monthly,
    /// Once per calendar quarter.
    Quarterly,
    /// Once per calendar year.
    Yearly,
}

impl Interval {
    /// Wire name (`"monthly"`).
    pub fn as_str(self) -> &'static str {
        match self {
            Interval::Monthly => "monthly",
            Interval::Quarterly => "quarterly",
            Interval::Yearly => "yearly",
        }
    }

    /// The interval for a wire name; `None` for anything else.
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "monthly" => Some(Interval::Monthly),
            "quarterly" => Some(Interval::Quarterly),
            "yearly" => Some(Interval::Yearly),
            _ => None,
        }
    }

    /// The interval's length in calendar months (1, 3, 12).
    pub fn months(self) -> u32 {
        match self {
            Interval::Monthly => 1,
            Interval::Quarterly => 3,
            Interval::Yearly => 12,
        }
    }
}

/// What a run does with the invoice it creates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum RecurringMode {
    /// The invoice stays a draft (no number).
    Draft,
    /// The invoice is finalized (numbered) when it is created.
    Finalize,
    /// Finalized, then e-mailed to the customer's default recipients.
    Send,
}

impl RecurringMode {
    /// Wire name (`"draft"`).
    pub fn as_str(self) -> &'static str {
        match self {
            RecurringMode::Draft => "draft",
            RecurringMode::Finalize => "finalize",
            RecurringMode::Send => "send",
        }
    }

    /// The mode for a wire name; `None` for anything else.
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "draft" => Some(RecurringMode::Draft),
            "finalize" => Some(RecurringMode::Finalize),
            "send" => Some(RecurringMode::Send),
            _ => None,
        }
    }

    /// The status of the invoice a run creates: `draft` in draft mode, else `created`.
    pub fn invoice_status(self) -> InvoiceStatus {
        match self {
            RecurringMode::Draft => InvoiceStatus::Draft,
            RecurringMode::Finalize | RecurringMode::Send => InvoiceStatus::Created,
        }
    }
}

/// POST /recurring_invoices and PUT /recurring_invoices/{id} body (PUT replaces the
/// schedule completely). Every field is optional in the type so that a missing one is a
/// 422 naming it ([`validate_recurring`]).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NewRecurringInvoice {
    /// Required: an invoice creation body (interface.md § POST /invoices). Its `date`,
    /// `due_date`, service period and `status` are set by each run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub template: Option<NewInvoice>,
    /// Required: `monthly`, `quarterly` or `yearly`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interval: Option<Interval>,
    /// Required: the invoice date of the next run; its day of month is the anchor.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "crate::wire::date_option"
    )]
    pub next_date: Option<NaiveDate>,
    /// Optional last day a run may fall on (not before `next_date`).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "crate::wire::date_option"
    )]
    pub end_date: Option<NaiveDate>,
    /// Required: `draft`, `finalize` or `send`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<RecurringMode>,
}

/// One run of a schedule: the period it billed and the invoice it created (or why not).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RecurringRun {
    /// Run id.
    pub id: i64,
    /// First day of the billed period.
    #[serde(with = "crate::wire::date")]
    pub period_start: NaiveDate,
    /// Last day of the billed period.
    #[serde(with = "crate::wire::date")]
    pub period_end: NaiveDate,
    /// The created invoice's date.
    #[serde(with = "crate::wire::date")]
    pub invoice_date: NaiveDate,
    /// The created invoice; `null` when the run could not create one (see `error`).
    pub invoice_id: Option<i64>,
    /// The invoice's number (`null` for a draft or without invoice).
    pub invoice_identifier: Option<String>,
    /// The invoice's current status (`null` without invoice or when it was deleted).
    pub status: Option<InvoiceStatus>,
    /// Why the invoice could not be created or sent; `null` when all went well.
    pub error: Option<String>,
    /// When the run happened (UTC).
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
}

/// A recurring invoice (a schedule) as GET /recurring_invoices/{id} answers it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RecurringInvoice {
    /// Schedule id.
    pub id: i64,
    /// The invoice creation body each run starts from.
    pub template: NewInvoice,
    /// The template's customer.
    pub customer: IdName,
    /// The template's title, placeholders unfilled (`"Hosting {month} {year}"`).
    pub title: String,
    /// How often it bills.
    pub interval: Interval,
    /// The invoice date of the next run (after the last run: the date that would follow).
    #[serde(with = "crate::wire::date")]
    pub next_date: NaiveDate,
    /// The last day a run may fall on; `null` for no end.
    #[serde(with = "crate::wire::date_option")]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub end_date: Option<NaiveDate>,
    /// What runs do with their invoice.
    pub mode: RecurringMode,
    /// Whether another run will come ([`is_active`]).
    pub active: bool,
    /// The invoice date of the latest run; `null` before the first.
    #[serde(with = "crate::wire::date_option")]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub last_run_date: Option<NaiveDate>,
    /// Runs, newest first (all on the detail; the latest three in the list).
    #[serde(default)]
    pub runs: Vec<RecurringRun>,
    /// Creation time (UTC).
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
    /// Last change (UTC).
    #[serde(with = "crate::timestamp")]
    pub updated_at: DateTime<Utc>,
}

/// The calendar period a run bills (both days inclusive).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Period {
    /// First day.
    pub start: NaiveDate,
    /// Last day.
    pub end: NaiveDate,
}

/// The number of days of `month` (1–12) in `year`; `None` for an invalid month or year.
pub fn days_in_month(year: i32, month: u32) -> Option<u32> {
    let first = NaiveDate::from_ymd_opt(year, month, 1)?;
    let next = if month == 12 {
        NaiveDate::from_ymd_opt(year.checked_add(1)?, 1, 1)?
    } else {
        NaiveDate::from_ymd_opt(year, month + 1, 1)?
    };
    u32::try_from(next.signed_duration_since(first).num_days()).ok()
}

/// The calendar month, quarter or year (per `interval`) containing `date`. `None` only at
/// the end of chrono's calendar.
pub fn period_of(interval: Interval, date: NaiveDate) -> Option<Period> {
    let year = date.year();
    let (first_month, last_month) = match interval {
        Interval::Monthly => (date.month(), date.month()),
        Interval::Quarterly => {
            let first = (date.month0() / 3) * 3 + 1;
            (first, first + 2)
        }
        Interval::Yearly => (1, 12),
    };
    Some(Period {
        start: NaiveDate::from_ymd_opt(year, first_month, 1)?,
        end: NaiveDate::from_ymd_opt(year, last_month, days_in_month(year, last_month)?)?,
    })
}

/// The run date after `date`: `interval` months later, on day `anchor_day` (1–31, the
/// day of month of the schedule's first next date) clamped to the month's end — so a
/// schedule anchored on the 31st runs 31 Jan, 28 (29) Feb, 31 Mar and never drifts.
/// `None` beyond chrono's calendar or for an anchor outside 1–31.
pub fn advance(date: NaiveDate, interval: Interval, anchor_day: u32) -> Option<NaiveDate> {
    if !(1..=31).contains(&anchor_day) {
        return None;
    }
    let index = i64::from(date.year())
        .checked_mul(12)?
        .checked_add(i64::from(date.month0()))?
        .checked_add(i64::from(interval.months()))?;
    let year = i32::try_from(index.div_euclid(12)).ok()?;
    let month = u32::try_from(index.rem_euclid(12)).ok()? + 1;
    let day = anchor_day.min(days_in_month(year, month)?);
    NaiveDate::from_ymd_opt(year, month, day)
}

/// The invoice dates due on `today`: `next_date` and every following date ([`advance`])
/// up to `today` and, when given, `end_date` (both inclusive) — the catch-up after
/// downtime — at most `limit` of them (the next pass continues).
pub fn due_dates(
    next_date: NaiveDate,
    interval: Interval,
    anchor_day: u32,
    end_date: Option<NaiveDate>,
    today: NaiveDate,
    limit: usize,
) -> Vec<NaiveDate> {
    let mut out = Vec::new();
    let mut date = Some(next_date);
    while let Some(d) = date {
        if d > today || end_date.is_some_and(|e| d > e) || out.len() >= limit {
            break;
        }
        out.push(d);
        date = advance(d, interval, anchor_day);
    }
    out
}

/// Whether a schedule will run again: no end date, or the next date not after it.
pub fn is_active(next_date: NaiveDate, end_date: Option<NaiveDate>) -> bool {
    end_date.is_none_or(|e| next_date <= e)
}

/// The name of `month` (1–12) in `language` (`"März"`, `"March"`); `""` outside 1–12.
pub fn month_name(month: u32, language: Language) -> &'static str {
    const DE: [&str; 12] = [
        "Januar",
        "Februar",
        "März",
        "April",
        "Mai",
        "Juni",
        "Juli",
        "August",
        "September",
        "Oktober",
        "November",
        "Dezember",
    ];
    const EN: [&str; 12] = [
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ];
    let names = match language {
        Language::De => &DE,
        Language::En => &EN,
    };
    month
        .checked_sub(1)
        .and_then(|i| names.get(i as usize))
        .copied()
        .unwrap_or("")
}

/// `text` with the placeholders of `period` filled in: `{month}` (the name of the period's
/// first month in `language`), `{year}` (`2026`), `{quarter}` (`Q4`, the quarter of the
/// period's start) and `{period}` (`11/2026` monthly, `Q4 2026` quarterly, `2026` yearly).
/// Other braces stay as they are.
pub fn fill_placeholders(
    text: &str,
    period: Period,
    interval: Interval,
    language: Language,
) -> String {
    let start = period.start;
    let quarter = format!("Q{}", start.month0() / 3 + 1);
    let year = start.year().to_string();
    let whole = match interval {
        Interval::Monthly => format!("{:02}/{}", start.month(), year),
        Interval::Quarterly => format!("{quarter} {year}"),
        Interval::Yearly => year.clone(),
    };
    text.replace("{month}", month_name(start.month(), language))
        .replace("{year}", &year)
        .replace("{quarter}", &quarter)
        .replace("{period}", &whole)
}

/// The creation body of the invoice a run creates: `template` dated `date`, due
/// `due_date`, with the service period of `period`, the status of `mode`, and the
/// placeholders ([`fill_placeholders`]) filled in the title and in every position's title
/// and description.
pub fn invoice_body(
    template: &NewInvoice,
    date: NaiveDate,
    due_date: NaiveDate,
    period: Period,
    interval: Interval,
    mode: RecurringMode,
    language: Language,
) -> NewInvoice {
    let fill = |t: &Option<String>| {
        t.as_deref()
            .map(|t| fill_placeholders(t, period, interval, language))
    };
    let mut body = template.clone();
    body.date = Some(date);
    body.due_date = Some(due_date);
    body.service_period_from = Some(period.start);
    body.service_period_to = Some(period.end);
    body.status = Some(mode.invoice_status());
    body.title = fill(&template.title);
    for item in body.items.iter_mut().flatten() {
        item.title = fill(&item.title);
        item.description = fill(&item.description);
    }
    body
}

/// Prefixes every field of `errors` with `prefix` and a dot (`customer_id` →
/// `template.customer_id`; a body-level `body` error becomes `prefix` itself).
pub fn prefix_errors(errors: FieldErrors, prefix: &str) -> FieldErrors {
    errors
        .into_iter()
        .map(|(field, messages)| {
            let name = if field == "body" {
                prefix.to_string()
            } else {
                format!("{prefix}.{field}")
            };
            (name, messages)
        })
        .collect()
}

/// Checks a schedule body (issue 11 contract § Recurring invoices): `template` (required;
/// the invoice creation rules of [`validate_new_invoice`] applied to the first run's
/// invoice — complete, whatever the mode — with fields named `template.…`; no `offer_id`
/// and no billed activities or expenses, which can be billed only once), `interval`,
/// `next_date` and `mode` required, `end_date` not before `next_date`. `currencies` are the
/// account's. References (customer, project, recipients for `send`) are checked by the
/// server. Returns every problem (empty = valid).
pub fn validate_recurring(body: &NewRecurringInvoice, currencies: &[String]) -> FieldErrors {
    let mut e = FieldErrors::new();
    if body.interval.is_none() {
        push_error(&mut e, "interval", messages::IS_REQUIRED);
    }
    if body.mode.is_none() {
        push_error(&mut e, "mode", messages::IS_REQUIRED);
    }
    match (body.next_date, body.end_date) {
        (None, _) => push_error(&mut e, "next_date", messages::IS_REQUIRED),
        (Some(next), Some(end)) if end < next => {
            push_error(&mut e, "end_date", messages::MUST_NOT_BE_BEFORE_NEXT_DATE)
        }
        _ => {}
    }
    let Some(template) = &body.template else {
        push_error(&mut e, "template", messages::IS_REQUIRED);
        return e;
    };
    if template.offer_id.is_some() {
        push_error(
            &mut e,
            "template.offer_id",
            messages::CANNOT_REPEAT_BILLED_OFFER,
        );
    }
    for (n, item) in template.items.iter().flatten().enumerate() {
        for (field, ids) in [
            ("activity_ids", &item.activity_ids),
            ("expense_ids", &item.expense_ids),
        ] {
            if ids.as_ref().is_some_and(|ids| !ids.is_empty()) {
                push_error(
                    &mut e,
                    format!("template.items[{n}].{field}"),
                    messages::CANNOT_REPEAT_BILLED_TIME,
                );
            }
        }
    }
    // The first run's invoice, as the job will create it (the date stands in for the due
    // date, which the customer's payment term sets).
    let date = body
        .next_date
        .unwrap_or_else(|| NaiveDate::from_ymd_opt(2000, 1, 1).unwrap_or_default());
    let interval = body.interval.unwrap_or(Interval::Monthly);
    if let Some(period) = period_of(interval, date) {
        let first = invoice_body(
            template,
            date,
            date,
            period,
            interval,
            RecurringMode::Finalize,
            Language::En,
        );
        e.extend(prefix_errors(
            validate_new_invoice(&first, currencies),
            "template",
        ));
    }
    e
}

/// The subject of a run's e-mail in `language` (`"Rechnung R2611-001"`).
pub fn email_subject(identifier: &str, language: Language) -> String {
    match language {
        Language::De => format!("Rechnung {identifier}"),
        Language::En => format!("Invoice {identifier}"),
    }
}

/// The text of a run's e-mail in `language`: the invoice number, its date and due date
/// (`DD.MM.YYYY` in German, `YYYY-MM-DD` in English), signed with `sender`.
pub fn email_text(
    identifier: &str,
    date: NaiveDate,
    due_date: NaiveDate,
    sender: &str,
    language: Language,
) -> String {
    match language {
        Language::De => format!(
            "Sehr geehrte Damen und Herren,\n\nanbei erhalten Sie die Rechnung {identifier} vom {}, zahlbar bis {}.\n\nMit freundlichen Grüßen\n{sender}",
            date.format("%d.%m.%Y"),
            due_date.format("%d.%m.%Y")
        ),
        Language::En => format!(
            "Dear Sir or Madam,\n\nplease find attached invoice {identifier} of {}, due on {}.\n\nKind regards\n{sender}",
            date.format("%Y-%m-%d"),
            due_date.format("%Y-%m-%d")
        ),
    }
    .trim_end()
    .to_string()
}

#[cfg(test)]
mod tests;
