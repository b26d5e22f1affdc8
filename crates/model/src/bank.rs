//! Bank statements and their transactions on the wire (issue 32 § Statements in):
//! `POST/GET/DELETE /bank_statements`, `GET /bank_transactions`, and the bodies of
//! `POST /bank_transactions/{id}/match`. The matching rules are
//! [`crate::bank_matching`]; reading the files is the server's (`kontor_bank`).

use crate::bank_matching::Reason;
use crate::query::one;
use chrono::{DateTime, NaiveDate, Utc};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

/// One imported statement file (or ZIP of files) and what the import did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BankStatement {
    /// Record id.
    pub id: i64,
    /// `camt.052`, `camt.053`, `camt.054` or `mt940` (of the first statement in a ZIP).
    pub format: String,
    /// The uploaded file's name.
    pub filename: String,
    /// The account's IBAN, compact; `null` when the file names none.
    pub account_iban: Option<String>,
    /// ISO 4217 code of the account.
    pub currency: Option<String>,
    /// First day covered (`YYYY-MM-DD`).
    pub from_date: Option<NaiveDate>,
    /// Last day covered.
    pub to_date: Option<NaiveDate>,
    /// Opening balance, currency units (signed).
    #[serde(with = "crate::wire::decimal_option")]
    pub opening_balance: Option<Decimal>,
    /// Closing balance, currency units (signed).
    #[serde(with = "crate::wire::decimal_option")]
    pub closing_balance: Option<Decimal>,
    /// Transactions stored by this import.
    pub entries: i64,
    /// Transactions skipped as already imported.
    pub duplicates: i64,
    /// Transactions booked by themselves.
    pub matched: i64,
    /// Transactions with suggestions.
    pub suggested: i64,
    /// Import time.
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
}

/// Where a transaction stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum TransactionState {
    /// Nothing found.
    Unmatched,
    /// Suggestions wait for a person.
    Suggested,
    /// Booked: payments were recorded from it.
    Matched,
    /// Set aside (fees, private transfers).
    Ignored,
}

impl TransactionState {
    /// Every state, in tab order.
    pub const ALL: [TransactionState; 4] = [
        TransactionState::Unmatched,
        TransactionState::Suggested,
        TransactionState::Matched,
        TransactionState::Ignored,
    ];

    /// The wire word.
    pub fn as_str(self) -> &'static str {
        match self {
            TransactionState::Unmatched => "unmatched",
            TransactionState::Suggested => "suggested",
            TransactionState::Matched => "matched",
            TransactionState::Ignored => "ignored",
        }
    }

    /// The state of a wire word.
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.as_str() == s)
    }
}

/// A payment booked from a transaction: exactly one of `invoice_id` and `purchase_id`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BankMatch {
    /// The invoice paid (money in).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invoice_id: Option<i64>,
    /// The purchase paid (money out).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub purchase_id: Option<i64>,
    /// Amount booked, currency units (> 0).
    #[serde(with = "crate::wire::decimal")]
    pub amount: Decimal,
    /// The payment recorded (`/invoices/payments/{id}` or `/purchases/payments/{id}`).
    pub payment_id: i64,
}

/// A suggestion for a transaction: exactly one of `invoice_id` and `purchase_id`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BankSuggestion {
    /// The invoice suggested.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invoice_id: Option<i64>,
    /// The purchase suggested.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub purchase_id: Option<i64>,
    /// Its number (invoice number or purchase receipt number), for display.
    #[serde(default)]
    pub identifier: Option<String>,
    /// The amount confirming it would book, currency units.
    #[serde(with = "crate::wire::decimal")]
    pub amount: Decimal,
    /// 0–100.
    pub score: u8,
    /// Why, most important first.
    pub reasons: Vec<Reason>,
}

/// One bank transaction.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BankTransaction {
    /// Record id.
    pub id: i64,
    /// The import it came from.
    pub bank_statement_id: i64,
    /// Booking day.
    pub booking_date: NaiveDate,
    /// Value day.
    pub value_date: Option<NaiveDate>,
    /// Signed amount: credit +, debit −, currency units.
    #[serde(with = "crate::wire::decimal")]
    pub amount: Decimal,
    /// ISO 4217 code.
    pub currency: String,
    /// Who paid or was paid.
    pub counterparty_name: Option<String>,
    /// Their IBAN.
    pub counterparty_iban: Option<String>,
    /// The transfer's text.
    pub remittance_information: Option<String>,
    /// The payer's end-to-end reference.
    pub end_to_end_id: Option<String>,
    /// The structured creditor reference (ISO 11649), if given.
    pub creditor_reference: Option<String>,
    /// Where it stands.
    pub state: TransactionState,
    /// The payments booked from it.
    pub matches: Vec<BankMatch>,
    /// The suggestions, best first (empty once matched or ignored).
    pub suggestions: Vec<BankSuggestion>,
}

/// One part of a transfer paying several documents.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Allocation {
    /// The invoice (for a credit).
    #[serde(default)]
    pub invoice_id: Option<i64>,
    /// The purchase (for a debit).
    #[serde(default)]
    pub purchase_id: Option<i64>,
    /// Amount, currency units (> 0).
    #[serde(default, with = "crate::wire::decimal_option")]
    pub amount: Option<Decimal>,
}

/// `POST /bank_transactions/{id}/match`: `{invoice_id}` or `{purchase_id}` (the whole
/// transfer, at most what is open), or `{allocations: [...]}` (several documents; their
/// sum at most the transfer).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MatchTransaction {
    /// The invoice the whole (credit) transfer pays.
    #[serde(default)]
    pub invoice_id: Option<i64>,
    /// The purchase the whole (debit) transfer pays.
    #[serde(default)]
    pub purchase_id: Option<i64>,
    /// Several parts.
    #[serde(default)]
    pub allocations: Option<Vec<Allocation>>,
}

/// `GET /bank_transactions` filters.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::IntoParams))]
#[cfg_attr(feature = "openapi", into_params(parameter_in = Query))]
#[serde(default)]
pub struct BankTransactionFilter {
    /// `unmatched`, `suggested`, `matched` or `ignored`.
    #[serde(deserialize_with = "one")]
    pub state: Option<String>,
    /// Only the transactions of this import.
    #[serde(deserialize_with = "one")]
    pub bank_statement_id: Option<i64>,
    /// Booked on or after this day.
    #[serde(deserialize_with = "one")]
    pub date_from: Option<NaiveDate>,
    /// Booked on or before this day.
    #[serde(deserialize_with = "one")]
    pub date_to: Option<NaiveDate>,
    /// Text in the counterparty, the remittance text or the references.
    #[serde(deserialize_with = "one")]
    pub term: Option<String>,
}
