//! Debtor and creditor numbers (issue 31, `docs/decisions.md` § Debtor and creditor
//! numbers): a company's bookkeeping account as a customer (`debit_number`, the DATEV
//! debtor range 10000–69999) and as a supplier (`credit_number`, 70000–99999). Each number
//! belongs to at most one company per kind (the server checks it, the schema's unique
//! indexes hold it); with `datev.assign_account_numbers` on, a new customer or supplier
//! without one gets the next free number ([`next_account_number`]).

use super::CompanyType;
use crate::error::messages;
use crate::error::{push_error, FieldErrors};
use std::ops::RangeInclusive;

/// The two kinds of personal account a company can have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AccountKind {
    /// Debtor (customer) account: `debit_number`, 10000–69999.
    Debit,
    /// Creditor (supplier) account: `credit_number`, 70000–99999.
    Credit,
}

impl AccountKind {
    /// Both kinds, debtor first.
    pub const ALL: [AccountKind; 2] = [AccountKind::Debit, AccountKind::Credit];

    /// The numbers of this kind: 10000–69999 ([`crate::datev::DEBTORS`]) or 70000–99999
    /// ([`crate::datev::CREDITORS`]), DATEV's personal accounts with account length 4.
    pub fn range(self) -> RangeInclusive<i64> {
        match self {
            AccountKind::Debit => crate::datev::DEBTORS,
            AccountKind::Credit => crate::datev::CREDITORS,
        }
    }

    /// The company field (wire name): `debit_number` or `credit_number`.
    pub fn field(self) -> &'static str {
        match self {
            AccountKind::Debit => "debit_number",
            AccountKind::Credit => "credit_number",
        }
    }

    /// Issue 11's wire name of the field, still read on input: `debtor_number` or
    /// `creditor_number`.
    pub fn legacy_field(self) -> &'static str {
        match self {
            AccountKind::Debit => "debtor_number",
            AccountKind::Credit => "creditor_number",
        }
    }

    /// The first number of the range, the default start of the counter: 10000 or 70000.
    pub fn default_start(self) -> i64 {
        *self.range().start()
    }

    /// The kind a new company of type `kind` is given a number of: a customer a debtor
    /// number, a supplier a creditor number, an organization none (it is neither invoiced
    /// nor bought from as such; a number can still be typed in).
    pub fn assigned_to(kind: CompanyType) -> Option<AccountKind> {
        match kind {
            CompanyType::Customer => Some(AccountKind::Debit),
            CompanyType::Supplier => Some(AccountKind::Credit),
            CompanyType::Organization => None,
        }
    }
}

/// Adds "must be between 10000 and 69999" (or 70000–99999) under `field` when `value` is
/// outside `kind`'s range; `None` (empty) is fine.
pub fn check_account_number(
    e: &mut FieldErrors,
    field: &str,
    kind: AccountKind,
    value: Option<i64>,
) {
    let range = kind.range();
    if value.is_some_and(|n| !range.contains(&n)) {
        push_error(
            e,
            field,
            messages::MUST_BE_BETWEEN_N_AND_N
                .with([range.start().to_string(), range.end().to_string()]),
        );
    }
}

/// The number a new company of `kind` is given: one above `highest_in_use` (the highest
/// number of the kind already in use from `start` to the end of the range), else `start`
/// itself. `start` outside the range counts as the range's first number. `None` when the
/// range is used up to its end (the company stays without a number; gaps below are not
/// searched, as a counter does not go back).
pub fn next_account_number(
    kind: AccountKind,
    start: i64,
    highest_in_use: Option<i64>,
) -> Option<i64> {
    let range = kind.range();
    let start = if range.contains(&start) {
        start
    } else {
        *range.start()
    };
    let next = match highest_in_use {
        Some(h) if h >= start => h.checked_add(1)?,
        _ => start,
    };
    range.contains(&next).then_some(next)
}

/// Renames issue 11's field names in a company body (`debtor_number`,
/// `creditor_number`) to issue 31's (`debit_number`, `credit_number`), so that a partial
/// update naming the old one merges onto the new one. A body naming both keeps the new
/// name's value.
pub fn rename_legacy_account_fields(body: &mut serde_json::Value) {
    if let Some(map) = body.as_object_mut() {
        for kind in AccountKind::ALL {
            if let Some(value) = map.remove(kind.legacy_field()) {
                map.entry(kind.field()).or_insert(value);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ranges_are_the_datev_personal_accounts() {
        let mut e = FieldErrors::new();
        check_account_number(&mut e, "debit_number", AccountKind::Debit, Some(10_000));
        check_account_number(&mut e, "debit_number", AccountKind::Debit, Some(69_999));
        check_account_number(&mut e, "credit_number", AccountKind::Credit, Some(70_000));
        check_account_number(&mut e, "credit_number", AccountKind::Credit, Some(99_999));
        check_account_number(&mut e, "credit_number", AccountKind::Credit, None);
        assert!(e.is_empty(), "{e:?}");
        check_account_number(&mut e, "debit_number", AccountKind::Debit, Some(9_999));
        check_account_number(&mut e, "credit_number", AccountKind::Credit, Some(69_999));
        check_account_number(&mut e, "credit_number", AccountKind::Credit, Some(100_000));
        assert_eq!(
            e["debit_number"][0].to_string(),
            "must be between 10000 and 69999"
        );
        assert_eq!(e["credit_number"].len(), 2);
        assert_eq!(
            e["credit_number"][0].to_string(),
            "must be between 70000 and 99999"
        );
    }

    #[test]
    fn the_counter_goes_one_above_the_highest_number_from_its_start() {
        let debit = AccountKind::Debit;
        assert_eq!(next_account_number(debit, 10_000, None), Some(10_000));
        assert_eq!(
            next_account_number(debit, 10_000, Some(10_041)),
            Some(10_042)
        );
        assert_eq!(next_account_number(debit, 20_000, None), Some(20_000));
        assert_eq!(
            next_account_number(debit, 20_000, Some(20_000)),
            Some(20_001)
        );
        // A number below the start does not pull the counter back.
        assert_eq!(
            next_account_number(debit, 20_000, Some(15_000)),
            Some(20_000)
        );
        // A start outside the range is the range's first number.
        assert_eq!(next_account_number(debit, 5, None), Some(10_000));
        assert_eq!(
            next_account_number(AccountKind::Credit, 10_000, Some(70_004)),
            Some(70_005)
        );
        // Used up: no number.
        assert_eq!(next_account_number(debit, 10_000, Some(69_999)), None);
        assert_eq!(
            next_account_number(AccountKind::Credit, 99_999, None),
            Some(99_999)
        );
        assert_eq!(
            next_account_number(AccountKind::Credit, 99_999, Some(99_999)),
            None
        );
    }

    #[test]
    fn customers_get_debtor_and_suppliers_creditor_numbers() {
        assert_eq!(
            AccountKind::assigned_to(CompanyType::Customer),
            Some(AccountKind::Debit)
        );
        assert_eq!(
            AccountKind::assigned_to(CompanyType::Supplier),
            Some(AccountKind::Credit)
        );
        assert_eq!(AccountKind::assigned_to(CompanyType::Organization), None);
        assert_eq!(AccountKind::Debit.default_start(), 10_000);
        assert_eq!(AccountKind::Credit.default_start(), 70_000);
    }

    #[test]
    fn issue_11_names_are_read_as_the_new_ones() {
        let mut body = serde_json::json!({"debtor_number": 12345, "creditor_number": null});
        rename_legacy_account_fields(&mut body);
        assert_eq!(
            body,
            serde_json::json!({"debit_number": 12345, "credit_number": null})
        );
        let mut both = serde_json::json!({"debtor_number": 1, "debit_number": 2});
        rename_legacy_account_fields(&mut both);
        assert_eq!(both, serde_json::json!({"debit_number": 2}));
    }
}
