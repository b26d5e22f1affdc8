//! Payment terms at dunning time: the cash discount (Skonto) a payment may take and what
//! is due with fees and interest.

use super::*;

/// The cash discount (Skonto) on `gross` at `percent` (0–100), in currency units rounded
/// to `currency`'s minor unit: `gross × percent / 100`. `None` on overflow.
pub fn cash_discount_amount(gross: Decimal, percent: Decimal, currency: &str) -> Option<Decimal> {
    let raw = gross
        .checked_mul(percent)?
        .checked_div(Decimal::ONE_HUNDRED)?;
    Some(round_money(raw, currency))
}

/// Whether a payment of `amount` received on `paid_on` settles an invoice of `gross` dated
/// `invoice_date` with a cash discount of `percent` for `days` days (issue 14 § Cash
/// discount): received within the days (`paid_on ≤ invoice_date + days`) and equal to the
/// gross minus the discount. A discount of 0 % or 0 days settles nothing early.
pub fn settles_with_cash_discount(
    gross: Decimal,
    percent: Decimal,
    days: i64,
    invoice_date: NaiveDate,
    paid_on: NaiveDate,
    amount: Decimal,
    currency: &str,
) -> bool {
    if percent <= Decimal::ZERO || days <= 0 {
        return false;
    }
    let Some(last_day) = invoice_date.checked_add_signed(chrono::Duration::days(days)) else {
        return false;
    };
    let Some(discount) = cash_discount_amount(gross, percent, currency) else {
        return false;
    };
    paid_on <= last_day && arith::sub(gross, discount) == Some(round_money(amount, currency))
}

/// The cash discount an invoice's payments took (issue 14 § Cash discount), in currency
/// units: the discount ([`cash_discount_amount`]) when the payments (date received,
/// amount in currency units) together equal the gross minus the discount and the last of
/// them arrived within `days` of `invoice_date` ([`settles_with_cash_discount`]); `None`
/// otherwise (no payments, too late, another amount, no discount agreed, overflow). The
/// server records it on the last payment, and the open amount is then zero.
pub fn cash_discount_taken(
    gross: Decimal,
    percent: Decimal,
    days: i64,
    invoice_date: NaiveDate,
    payments: &[(NaiveDate, Decimal)],
    currency: &str,
) -> Option<Decimal> {
    let last = payments.iter().map(|(date, _)| *date).max()?;
    let sum = payments
        .iter()
        .try_fold(Decimal::ZERO, |sum, (_, amount)| arith::add(sum, *amount))?;
    settles_with_cash_discount(gross, percent, days, invoice_date, last, sum, currency)
        .then(|| cash_discount_amount(gross, percent, currency))
        .flatten()
}

/// What a reminder asks the customer to pay (issue 14 § API, the letter's "amount due"),
/// currency units: its open amount plus its fee, the § 288 (5) flat fee and the default
/// interest. `None` on overflow.
pub fn amount_due(
    open_amount: Decimal,
    fee: Decimal,
    flat_fee: Decimal,
    interest: Decimal,
) -> Option<Decimal> {
    [fee, flat_fee, interest]
        .into_iter()
        .try_fold(open_amount, arith::add)
}
