//! Payments and reminders: what the payment and reminder dialogs check and what the
//! server's `/invoices/payments`, `/purchases/payments` and `/invoice_reminders` refuse
//! (`decisions.md` § State rules; `docs/decisions.md` § Payments, reminders, reversal and
//! § Rules in the model (issue 8)). One copy for the browser and the server.

use crate::error::messages;
use crate::error::{push_error, FieldErrors};
use crate::money::{minor_units, round_money};
use crate::status::InvoiceStatus;
use chrono::NaiveDate;
use rust_decimal::Decimal;

/// Checks an amount in currency units against `currency`'s minor unit and adds the
/// message for `field` to `errors`: absent → "is required" (when `required`); with
/// `positive` it must be > 0, otherwise ≥ 0; at most the currency's minor-unit places
/// (`10.005` EUR is refused, `10.5` is fine).
pub fn check_amount(
    errors: &mut FieldErrors,
    field: &str,
    value: Option<Decimal>,
    currency: &str,
    positive: bool,
) {
    let Some(value) = value else {
        push_error(errors, field, messages::IS_REQUIRED);
        return;
    };
    let places = minor_units(currency);
    if positive && value <= Decimal::ZERO {
        push_error(errors, field, messages::MUST_BE_GREATER_THAN_0);
    } else if value < Decimal::ZERO {
        push_error(errors, field, messages::MUST_NOT_BE_NEGATIVE);
    } else if value >= crate::validation::MAX_AMOUNT {
        push_error(
            errors,
            field,
            messages::MUST_BE_BELOW_N.with([crate::validation::MAX_AMOUNT]),
        );
    } else if value.normalize().scale() > places {
        push_error(
            errors,
            field,
            messages::MUST_HAVE_AT_MOST_N_DECIMALS_IN_N
                .with([places.to_string(), currency.to_string()]),
        );
    }
}

/// Validates a payment (invoice or purchase, `decisions.md` § State rules): `date`
/// required; the amount (named `amount_field`: `paid_total` for invoices, `total` for
/// purchases) required, > 0 and with at most `currency`'s minor-unit places.
/// Returns the field errors, empty when valid.
pub fn validate_payment(
    date: Option<NaiveDate>,
    amount: Option<Decimal>,
    amount_field: &str,
    currency: &str,
) -> FieldErrors {
    let mut errors = FieldErrors::new();
    if date.is_none() {
        push_error(&mut errors, "date", messages::IS_REQUIRED);
    }
    check_amount(&mut errors, amount_field, amount, currency, true);
    errors
}

/// Errors when a payment names a currency other than the invoice's: the message for the
/// field `currency`. `None` (no currency given) is always fine.
pub fn check_payment_currency(
    given: Option<&str>,
    invoice_currency: &str,
) -> Result<(), crate::error::Message> {
    match given {
        Some(c) if c != invoice_currency => {
            Err(crate::error::messages::MUST_BE_INVOICES_CURRENCY_N.with([invoice_currency]))
        }
        _ => Ok(()),
    }
}

/// Why an invoice in `status` takes no payment (the message for the field `invoice_id`),
/// or `None` when it may: only drafts are refused (see [`crate::status::can_record_payment`]).
pub fn payment_refusal(status: InvoiceStatus) -> Option<crate::error::Text> {
    (status == InvoiceStatus::Draft).then_some(crate::error::messages::IS_DRAFT_NO_PAYMENTS)
}

/// The sum of payment amounts (currency units); `None` when the sum overflows.
pub fn paid_sum(amounts: impl IntoIterator<Item = Decimal>) -> Option<Decimal> {
    amounts
        .into_iter()
        .try_fold(Decimal::ZERO, |sum, a| sum.checked_add(a))
}

/// Where an invoice stands after its payments (currency units, at the currency's places).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Balance {
    /// Still to be paid: gross − payments > 0.
    Open(Decimal),
    /// Nothing open and nothing overpaid (also a reversal's negative gross without
    /// payments).
    Settled(Decimal),
    /// Paid more than the gross total: payments − gross > 0, owed to the customer.
    Credit(Decimal),
}

impl Balance {
    /// The balance of an invoice with gross total `gross` and payments summing to `paid`
    /// (currency units), rounded to `currency`'s places: `119.00` gross, `50` paid →
    /// `Open(69.00)`; `129` paid → `Credit(10.00)`. A credit arises only from payments
    /// (paid > 0). `None` when the difference overflows.
    pub fn of(gross: Decimal, paid: Decimal, currency: &str) -> Option<Balance> {
        let open = round_money(gross.checked_sub(paid)?, currency);
        let zero = round_money(Decimal::ZERO, currency);
        Some(if open > Decimal::ZERO {
            Balance::Open(open)
        } else if open < Decimal::ZERO && paid > Decimal::ZERO {
            Balance::Credit(-open)
        } else {
            Balance::Settled(zero)
        })
    }

    /// The open amount: the `Open` value, else 0 (never below zero).
    pub fn open(self) -> Decimal {
        match self {
            Balance::Open(v) => v,
            Balance::Settled(z) => z,
            Balance::Credit(c) => Decimal::new(0, c.scale()),
        }
    }
}

/// What the payments leave unpaid (currency units): gross − payments at the currency's
/// places, never below zero (`119.00` gross, `50` paid → `69.00`); 0 when the sum
/// overflows. It looks at amounts only: an invoice's `open_amount`, which also follows its
/// status (drafts, reversed and ignored invoices owe nothing), is
/// [`crate::dashboard::open_amount`], built on this.
pub fn unpaid_amount(gross: Decimal, payments: &[Decimal], currency: &str) -> Decimal {
    paid_sum(payments.iter().copied())
        .and_then(|paid| Balance::of(gross, paid, currency))
        .map(Balance::open)
        .unwrap_or_else(|| round_money(Decimal::ZERO, currency))
}

/// Whether recording `amount` (currency units) pays more than is open, so the app asks
/// before recording it (the API accepts overpayments, `docs/decisions.md` § Rules in the
/// model (issue 8)).
pub fn is_overpayment(amount: Decimal, open: Decimal) -> bool {
    amount > open
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;
    use InvoiceStatus::*;

    fn d(s: &str) -> Decimal {
        Decimal::from_str(s).unwrap()
    }
    fn day(s: &str) -> Option<NaiveDate> {
        NaiveDate::from_str(s).ok()
    }

    #[test]
    fn payment_needs_date_and_positive_amount_in_minor_units() {
        let e = validate_payment(None, None, "paid_total", "EUR");
        assert_eq!(e["date"], ["is required"]);
        assert_eq!(e["paid_total"], ["is required"]);
        let e = validate_payment(day("2026-11-10"), Some(d("0")), "total", "EUR");
        assert_eq!(e["total"], ["must be greater than 0"]);
        let e = validate_payment(day("2026-11-10"), Some(d("10.005")), "total", "EUR");
        assert_eq!(e["total"], ["must have at most 2 decimal places in EUR"]);
        let e = validate_payment(day("2026-11-10"), Some(d("10.5")), "total", "JPY");
        assert_eq!(e["total"], ["must have at most 0 decimal places in JPY"]);
        assert!(validate_payment(day("2026-11-10"), Some(d("10.500")), "total", "EUR").is_empty());
        assert!(validate_payment(day("2026-11-10"), Some(d("1.005")), "x", "KWD").is_empty());
    }

    #[test]
    fn payment_currency_and_eligibility() {
        assert!(check_payment_currency(None, "EUR").is_ok());
        assert!(check_payment_currency(Some("EUR"), "EUR").is_ok());
        assert_eq!(
            check_payment_currency(Some("USD"), "EUR").unwrap_err(),
            "must be the invoice's currency (EUR)"
        );
        assert!(payment_refusal(Draft).is_some());
        for s in [Created, Sent, PartiallyPaid, Paid, Overdue, Ignored] {
            assert_eq!(payment_refusal(s), None, "{s}");
        }
    }

    #[test]
    fn balance_is_open_settled_or_credit() {
        let gross = d("119.00");
        assert_eq!(
            Balance::of(gross, d("0"), "EUR"),
            Some(Balance::Open(d("119.00")))
        );
        assert_eq!(
            Balance::of(gross, d("50"), "EUR"),
            Some(Balance::Open(d("69.00")))
        );
        assert_eq!(
            Balance::of(gross, gross, "EUR"),
            Some(Balance::Settled(d("0.00")))
        );
        assert_eq!(
            Balance::of(gross, d("129"), "EUR"),
            Some(Balance::Credit(d("10.00")))
        );
        assert_eq!(
            Balance::of(d("-119"), d("0"), "EUR"),
            Some(Balance::Settled(d("0.00"))),
            "a reversal without payments owes nothing and has no credit"
        );
        assert_eq!(Balance::of(Decimal::MIN, Decimal::MAX, "EUR"), None);
        assert_eq!(
            unpaid_amount(gross, &[d("100"), d("30")], "EUR").to_string(),
            "0.00"
        );
        assert_eq!(unpaid_amount(gross, &[d("50")], "EUR").to_string(), "69.00");
        assert_eq!(
            unpaid_amount(gross, &[Decimal::MAX, Decimal::MAX], "EUR").to_string(),
            "0.00"
        );
        assert_eq!(paid_sum([Decimal::MAX, Decimal::ONE]), None);
        assert!(is_overpayment(d("120"), d("119.00")));
        assert!(!is_overpayment(d("119"), d("119.00")));
    }
}
