//! What sending, paying and reminding do to an invoice's status and lock
//! (`decisions.md` § State rules; `docs/decisions.md` § E-mail (issue 3) and § Rules in
//! the model (issue 8)). The server writes exactly what these functions return.

use crate::offer::OfferStatus;
use crate::payment_rules::paid_sum;
use crate::status::{status_after_payments, InvoiceStatus};
use rust_decimal::Decimal;

/// Status and lock of an invoice after it was sent by e-mail: `created`, `overdue` and
/// `ignored` become `sent`; `sent`, `partially_paid`, `paid` (and `draft`, which cannot
/// be sent) keep their status. A sent invoice is always locked.
pub fn after_send(status: InvoiceStatus, _locked: bool) -> (InvoiceStatus, bool) {
    let next = match status {
        InvoiceStatus::Created | InvoiceStatus::Overdue | InvoiceStatus::Ignored => {
            InvoiceStatus::Sent
        }
        other => other,
    };
    (next, true)
}

/// The lock after update_status moved an invoice to `target`: moving to `sent` locks it;
/// otherwise the lock stays as it was (nothing unlocks an invoice through a status move).
pub fn locked_after_status_change(target: InvoiceStatus, locked: bool) -> bool {
    locked || target == InvoiceStatus::Sent
}

/// Status and lock after a reminder was recorded: unchanged (a reminder is a letter about
/// an invoice, it neither sends the invoice nor pays it).
pub fn after_reminder(status: InvoiceStatus, locked: bool) -> (InvoiceStatus, bool) {
    (status, locked)
}

/// What the payments of an invoice decide.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PaymentEffect {
    /// The invoice's status.
    pub status: InvoiceStatus,
    /// The status to return to when every payment is gone; `None` without payments.
    pub status_before_payments: Option<InvoiceStatus>,
    /// Whether the invoice is locked.
    pub locked: bool,
}

/// Status and lock of an invoice whose payments are now `payments` (currency units):
/// `current` is its stored status, `stored_before` the status it held before its first
/// payment (if recorded), `ever_sent` whether it was ever sent. Paid ≥ gross → `paid`,
/// paid above 0 → `partially_paid`, none → the status before payments; any payment locks,
/// and a sent invoice stays locked. `None` when the payments' sum overflows.
pub fn after_payments(
    current: InvoiceStatus,
    stored_before: Option<InvoiceStatus>,
    ever_sent: bool,
    payments: &[Decimal],
    gross: Decimal,
) -> Option<PaymentEffect> {
    let sum = paid_sum(payments.iter().copied())?;
    let before = match stored_before {
        Some(b) => b,
        None if !matches!(current, InvoiceStatus::Paid | InvoiceStatus::PartiallyPaid) => current,
        None => InvoiceStatus::Created,
    };
    Some(PaymentEffect {
        status: status_after_payments(sum, gross, before),
        status_before_payments: (!payments.is_empty()).then_some(before),
        locked: ever_sent || !payments.is_empty(),
    })
}

/// Status and lock of an invoice whose payments are `payments` and whose credit notes
/// credit `credited` (positive, currency units; issue 33): as [`after_payments`], except
/// that an invoice the payments and credit notes settle together (sum ≥ `gross`, with a
/// credit) reads `paid` and is locked — a partial credit alone never makes it
/// "partially paid". `None` when a sum overflows.
pub fn after_payments_and_credit(
    current: InvoiceStatus,
    stored_before: Option<InvoiceStatus>,
    ever_sent: bool,
    payments: &[Decimal],
    credited: Decimal,
    gross: Decimal,
) -> Option<PaymentEffect> {
    let effect = after_payments(current, stored_before, ever_sent, payments, gross)?;
    if credited <= Decimal::ZERO {
        return Some(effect);
    }
    let settled = paid_sum(payments.iter().copied().chain([credited]))?;
    if settled < gross {
        return Some(effect);
    }
    let before = effect.status_before_payments.unwrap_or(match current {
        InvoiceStatus::Paid | InvoiceStatus::PartiallyPaid => InvoiceStatus::Created,
        other => stored_before.unwrap_or(other),
    });
    Some(PaymentEffect {
        status: InvoiceStatus::Paid,
        status_before_payments: Some(before),
        locked: true,
    })
}

/// The status of an offer once invoices were created from it: `billed` when the net
/// totals of its invoices (currency units, `invoiced`) reach the offer's net total
/// (`offer_net`, optional positions not counted), else `partially_billed`; unchanged
/// (`None`) without invoices. An offer whose net total is 0 or less is billed by any
/// invoice. `None` too when the sum overflows.
pub fn offer_status_after_billing(offer_net: Decimal, invoiced: &[Decimal]) -> Option<OfferStatus> {
    if invoiced.is_empty() {
        return None;
    }
    let sum = paid_sum(invoiced.iter().copied())?;
    Some(if sum >= offer_net {
        OfferStatus::Billed
    } else {
        OfferStatus::PartiallyBilled
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use InvoiceStatus::*;

    #[test]
    fn a_credit_settles_only_together_with_the_payments() {
        let d = |s: &str| s.parse::<Decimal>().unwrap();
        // A partial credit alone leaves the invoice as it was.
        let e = after_payments_and_credit(Sent, None, true, &[], d("19.00"), d("119.00")).unwrap();
        assert_eq!((e.status, e.status_before_payments), (Sent, None));
        // Credited in full: paid (settled), locked, and the status before remembered.
        let e =
            after_payments_and_credit(Created, None, false, &[], d("119.00"), d("119.00")).unwrap();
        assert_eq!(
            (e.status, e.status_before_payments, e.locked),
            (Paid, Some(Created), true)
        );
        // A payment of 100 and a credit of 19 settle 119.
        let e =
            after_payments_and_credit(Sent, None, true, &[d("100")], d("19"), d("119")).unwrap();
        assert_eq!((e.status, e.status_before_payments), (Paid, Some(Sent)));
        // A payment of 50 and a credit of 19: partially paid by the payment.
        let e = after_payments_and_credit(Sent, None, true, &[d("50")], d("19"), d("119")).unwrap();
        assert_eq!(e.status, PartiallyPaid);
        // Overflow is refused, never wrapped.
        assert!(
            after_payments_and_credit(Sent, None, true, &[Decimal::MAX], d("1"), d("1")).is_none()
        );
    }

    #[test]
    fn sending_marks_sent_and_locks() {
        assert_eq!(after_send(Created, false), (Sent, true));
        assert_eq!(after_send(Overdue, false), (Sent, true));
        assert_eq!(after_send(Ignored, true), (Sent, true));
        assert_eq!(after_send(Sent, true), (Sent, true));
        assert_eq!(after_send(PartiallyPaid, true), (PartiallyPaid, true));
        assert_eq!(after_send(Paid, false), (Paid, true));
    }

    #[test]
    fn status_moves_lock_only_when_sent() {
        assert!(locked_after_status_change(Sent, false));
        assert!(!locked_after_status_change(Overdue, false));
        assert!(locked_after_status_change(Created, true));
        assert_eq!(after_reminder(Overdue, false), (Overdue, false));
    }

    #[test]
    fn invoicing_bills_an_offer_fully_or_partially() {
        let net = Decimal::new(1000, 0);
        assert_eq!(offer_status_after_billing(net, &[]), None);
        assert_eq!(
            offer_status_after_billing(net, &[net]),
            Some(OfferStatus::Billed)
        );
        assert_eq!(
            offer_status_after_billing(net, &[Decimal::new(400, 0)]),
            Some(OfferStatus::PartiallyBilled)
        );
        assert_eq!(
            offer_status_after_billing(net, &[Decimal::new(400, 0), Decimal::new(600, 0)]),
            Some(OfferStatus::Billed)
        );
        assert_eq!(
            offer_status_after_billing(net, &[Decimal::MAX, Decimal::MAX]),
            None
        );
    }

    #[test]
    fn payments_decide_status_and_lock() {
        let gross = Decimal::new(11900, 2);
        let e = after_payments(Sent, None, true, &[Decimal::new(50, 0)], gross).unwrap();
        assert_eq!(
            e,
            PaymentEffect {
                status: PartiallyPaid,
                status_before_payments: Some(Sent),
                locked: true
            }
        );
        let e = after_payments(PartiallyPaid, Some(Created), false, &[gross], gross).unwrap();
        assert_eq!(e.status, Paid);
        assert!(e.locked);
        let e = after_payments(Paid, Some(Created), false, &[], gross).unwrap();
        assert_eq!(
            e,
            PaymentEffect {
                status: Created,
                status_before_payments: None,
                locked: false
            }
        );
        let e = after_payments(Paid, Some(Overdue), true, &[], gross).unwrap();
        assert_eq!(
            (e.status, e.locked),
            (Overdue, true),
            "a sent invoice stays locked"
        );
        assert_eq!(
            after_payments(Paid, None, false, &[], gross)
                .unwrap()
                .status,
            Created
        );
        assert!(after_payments(Sent, None, true, &[Decimal::MAX, Decimal::MAX], gross).is_none());
    }
}
