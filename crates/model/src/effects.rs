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
