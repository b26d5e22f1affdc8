//! Status enums and the state rules (`decisions.md` § State rules).

use serde::{Deserialize, Serialize};
use std::fmt;

/// Invoice status.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum InvoiceStatus {
    /// Not finalized: no number yet, editable, deletable without reason.
    Draft,
    /// Finalized.
    Created,
    /// Sent to the customer.
    Sent,
    /// Some payment received (set by payments only).
    PartiallyPaid,
    /// Fully paid (set by payments only).
    Paid,
    /// Past its due date.
    Overdue,
    /// Not pursued.
    Ignored,
}

impl InvoiceStatus {
    /// All statuses in list-filter order.
    pub const ALL: [InvoiceStatus; 7] = [
        InvoiceStatus::Draft,
        InvoiceStatus::Created,
        InvoiceStatus::Sent,
        InvoiceStatus::PartiallyPaid,
        InvoiceStatus::Paid,
        InvoiceStatus::Overdue,
        InvoiceStatus::Ignored,
    ];

    /// The wire name (`"partially_paid"`).
    pub fn as_str(self) -> &'static str {
        match self {
            InvoiceStatus::Draft => "draft",
            InvoiceStatus::Created => "created",
            InvoiceStatus::Sent => "sent",
            InvoiceStatus::PartiallyPaid => "partially_paid",
            InvoiceStatus::Paid => "paid",
            InvoiceStatus::Overdue => "overdue",
            InvoiceStatus::Ignored => "ignored",
        }
    }

    /// Parses a wire name; `None` for anything else.
    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.as_str() == text)
    }

    /// A label for people (`"Partially paid"`).
    pub fn label(self) -> &'static str {
        match self {
            InvoiceStatus::Draft => "Draft",
            InvoiceStatus::Created => "Created",
            InvoiceStatus::Sent => "Sent",
            InvoiceStatus::PartiallyPaid => "Partially paid",
            InvoiceStatus::Paid => "Paid",
            InvoiceStatus::Overdue => "Overdue",
            InvoiceStatus::Ignored => "Ignored",
        }
    }

    /// Whether an invoice in this status has been issued (finalized, § 14 UStG): every
    /// status but `draft`. Exports, revenue and the DATEV batch read issued invoices only;
    /// the server's SQL (`crate::sql::rules` there) is built from this function.
    pub fn is_issued(self) -> bool {
        self != InvoiceStatus::Draft
    }

    /// Whether an invoice in this status waits for its payment with nothing else said
    /// about it (`created`, `sent`): such an invoice reads as `overdue` once it is due and
    /// something is open ([`crate::dunning::effective_status`]).
    pub fn awaits_payment(self) -> bool {
        matches!(self, InvoiceStatus::Created | InvoiceStatus::Sent)
    }

    /// The statuses PUT /invoices/{id}/update_status may move this invoice to:
    /// `draft` → `created` (finalize); among `created`, `sent`, `overdue`, `ignored` any
    /// other of the four; `partially_paid` and `paid` none (payments decide).
    pub fn permitted_moves(self) -> &'static [InvoiceStatus] {
        use InvoiceStatus::*;
        match self {
            Draft => &[Created],
            Created => &[Sent, Overdue, Ignored],
            Sent => &[Created, Overdue, Ignored],
            Overdue => &[Created, Sent, Ignored],
            Ignored => &[Created, Sent, Overdue],
            PartiallyPaid | Paid => &[],
        }
    }

    /// Whether update_status may move from `self` to `target`. Setting the current status
    /// again is allowed (a no-op) except for `draft`, `partially_paid` and `paid`.
    pub fn can_move_to(self, target: InvoiceStatus) -> bool {
        self.permitted_moves().contains(&target)
            || (self == target
                && matches!(
                    self,
                    InvoiceStatus::Created
                        | InvoiceStatus::Sent
                        | InvoiceStatus::Overdue
                        | InvoiceStatus::Ignored
                ))
    }
}

impl fmt::Display for InvoiceStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Who may delete a finalized invoice (the account setting `finalized_invoice_deletion`,
/// issue 29 § Books that stay whole): GoBD wants finalized invoices kept; deleting one
/// that was never sent nor paid (a mistake caught at once) is an admin's act with a
/// reason, or not possible at all.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum FinalizedDeletion {
    /// Admins may, with a reason (the default).
    #[default]
    Admins,
    /// Nobody may: finalized invoices are corrected by reversal only.
    Never,
}

impl FinalizedDeletion {
    /// Wire name (`admins`, `never`).
    pub fn as_str(self) -> &'static str {
        match self {
            FinalizedDeletion::Admins => "admins",
            FinalizedDeletion::Never => "never",
        }
    }

    /// Parses a wire name; `None` otherwise.
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "admins" => Some(FinalizedDeletion::Admins),
            "never" => Some(FinalizedDeletion::Never),
            _ => None,
        }
    }
}

/// What decides whether an invoice may be deleted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InvoiceDeletion {
    /// The invoice's status.
    pub status: InvoiceStatus,
    /// Sent or paid (`locked`).
    pub locked: bool,
    /// It is itself a reversal invoice or a credit note (issue 33).
    pub reversal: bool,
    /// It has been reversed or credited by a credit note (issue 33).
    pub reversed: bool,
    /// The person deleting is an admin.
    pub admin: bool,
    /// The account's setting.
    pub policy: FinalizedDeletion,
}

/// Why an invoice may not be deleted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeleteRefusal {
    /// A reversal invoice is part of the books: it stays (its original would read open).
    Reversal,
    /// A reversed invoice stays with its reversal.
    Reversed,
    /// Sent or paid: only a reversal corrects it.
    Locked,
    /// The account does not allow deleting finalized invoices.
    Never,
    /// Only an admin may delete a finalized invoice (answered 403).
    AdminOnly,
    /// A finalized invoice needs a reason.
    ReasonRequired,
}

impl DeleteRefusal {
    /// The catalogue message the server answers with (English and German; the app shows
    /// its own words).
    pub fn message(self) -> crate::error::message::Text {
        use crate::error::messages;
        match self {
            DeleteRefusal::Reversal => messages::REVERSAL_NOT_DELETABLE,
            DeleteRefusal::Reversed => messages::REVERSED_NOT_DELETABLE,
            DeleteRefusal::Locked => messages::LOCKED_NOT_DELETABLE,
            DeleteRefusal::Never => messages::FINALIZED_DELETION_NEVER,
            DeleteRefusal::AdminOnly => messages::FINALIZED_DELETION_ADMIN_ONLY,
            DeleteRefusal::ReasonRequired => messages::DELETION_REASON_REQUIRED,
        }
    }
}

/// Why an invoice may not be deleted, or `Ok` when it may (`decisions.md` § State rules;
/// issue 29): drafts by anyone who may write, without a reason; never a reversal or a
/// reversed invoice; a locked (sent or paid) invoice only by reversal; any other finalized
/// invoice only by an admin, with a non-empty reason, and not at all when the account's
/// policy is [`FinalizedDeletion::Never`].
pub fn check_invoice_delete(d: InvoiceDeletion, reason: Option<&str>) -> Result<(), DeleteRefusal> {
    if d.reversal {
        return Err(DeleteRefusal::Reversal);
    }
    if d.reversed {
        return Err(DeleteRefusal::Reversed);
    }
    if d.status == InvoiceStatus::Draft {
        return Ok(());
    }
    if d.locked {
        return Err(DeleteRefusal::Locked);
    }
    if d.policy == FinalizedDeletion::Never {
        return Err(DeleteRefusal::Never);
    }
    if !d.admin {
        return Err(DeleteRefusal::AdminOnly);
    }
    if reason.map(str::trim).unwrap_or("").is_empty() {
        return Err(DeleteRefusal::ReasonRequired);
    }
    Ok(())
}

/// What an invoice's badge shows (issue 29 § Books that stay whole): `reversed`
/// ("Storniert") once it has been reversed, whatever status it held, else its status's
/// wire name. Lists, the detail page, the company page and the dashboard all use it.
pub fn invoice_badge(status: InvoiceStatus, reversed: bool) -> &'static str {
    if reversed {
        "reversed"
    } else {
        status.as_str()
    }
}

/// Whether an invoice may be reversed: final (not a draft), not itself a reversal, and
/// not reversed already (`decisions.md` § State rules).
pub fn can_reverse_invoice(status: InvoiceStatus, reversal: bool, reversed: bool) -> bool {
    reverse_refusal(status, reversal, reversed).is_none()
}

/// Why an invoice may not be reversed (the catalogue message the server answers with 422
/// and the app shows), or `None` when it may (`decisions.md` § State rules).
pub fn reverse_refusal(
    status: InvoiceStatus,
    reversal: bool,
    reversed: bool,
) -> Option<crate::error::message::Text> {
    use crate::error::messages;
    if status == InvoiceStatus::Draft {
        Some(messages::DRAFT_NOT_REVERSIBLE)
    } else if reversal {
        Some(messages::REVERSAL_NOT_REVERSIBLE)
    } else if reversed {
        Some(messages::INVOICE_ALREADY_REVERSED)
    } else {
        None
    }
}

/// Whether payments can be recorded: final invoices only.
pub fn can_record_payment(status: InvoiceStatus) -> bool {
    status != InvoiceStatus::Draft
}

/// The status an invoice gets from its payments: paid total ≥ gross → `paid`; > 0 →
/// `partially_paid`; 0 → `before_payments` (the status held before the first payment).
pub fn status_after_payments(
    paid_total: rust_decimal::Decimal,
    gross_total: rust_decimal::Decimal,
    before_payments: InvoiceStatus,
) -> InvoiceStatus {
    if paid_total > rust_decimal::Decimal::ZERO && paid_total >= gross_total {
        InvoiceStatus::Paid
    } else if paid_total > rust_decimal::Decimal::ZERO {
        InvoiceStatus::PartiallyPaid
    } else {
        before_payments
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal::Decimal;
    use InvoiceStatus::*;

    #[test]
    fn issued_is_every_status_but_draft_and_only_created_and_sent_await_payment() {
        let issued: Vec<_> = InvoiceStatus::ALL
            .into_iter()
            .filter(|s| s.is_issued())
            .collect();
        assert_eq!(
            issued,
            [Created, Sent, PartiallyPaid, Paid, Overdue, Ignored]
        );
        let waiting: Vec<_> = InvoiceStatus::ALL
            .into_iter()
            .filter(|s| s.awaits_payment())
            .collect();
        assert_eq!(waiting, [Created, Sent]);
    }

    #[test]
    fn draft_only_finalizes() {
        assert!(Draft.can_move_to(Created));
        for s in [Draft, Sent, Overdue, Ignored, Paid, PartiallyPaid] {
            assert!(!Draft.can_move_to(s), "draft → {s}");
        }
    }

    #[test]
    fn open_states_move_freely_but_never_to_draft_or_paid() {
        for from in [Created, Sent, Overdue, Ignored] {
            for to in [Created, Sent, Overdue, Ignored] {
                assert!(from.can_move_to(to), "{from} → {to}");
            }
            for to in [Draft, Paid, PartiallyPaid] {
                assert!(!from.can_move_to(to), "{from} → {to}");
            }
        }
    }

    #[test]
    fn paid_states_refuse_update_status() {
        for from in [Paid, PartiallyPaid] {
            for to in InvoiceStatus::ALL {
                assert!(!from.can_move_to(to));
            }
        }
    }

    #[test]
    fn a_reversed_invoice_reads_reversed() {
        assert_eq!(invoice_badge(Sent, true), "reversed");
        assert_eq!(invoice_badge(Sent, false), "sent");
    }

    #[test]
    fn delete_rules() {
        let d = |status, locked| InvoiceDeletion {
            status,
            locked,
            reversal: false,
            reversed: false,
            admin: true,
            policy: FinalizedDeletion::Admins,
        };
        assert_eq!(check_invoice_delete(d(Draft, false), None), Ok(()));
        assert_eq!(
            check_invoice_delete(
                InvoiceDeletion {
                    admin: false,
                    ..d(Draft, false)
                },
                None
            ),
            Ok(())
        );
        assert_eq!(
            check_invoice_delete(d(Created, false), None),
            Err(DeleteRefusal::ReasonRequired)
        );
        assert_eq!(
            check_invoice_delete(d(Created, false), Some("  ")),
            Err(DeleteRefusal::ReasonRequired)
        );
        assert_eq!(
            check_invoice_delete(d(Created, false), Some("typo")),
            Ok(())
        );
        assert_eq!(
            check_invoice_delete(d(Sent, true), Some("typo")),
            Err(DeleteRefusal::Locked)
        );
        // Staff may not delete a finalized invoice; the policy may forbid it for all.
        assert_eq!(
            check_invoice_delete(
                InvoiceDeletion {
                    admin: false,
                    ..d(Created, false)
                },
                Some("typo")
            ),
            Err(DeleteRefusal::AdminOnly)
        );
        assert_eq!(
            check_invoice_delete(
                InvoiceDeletion {
                    policy: FinalizedDeletion::Never,
                    ..d(Created, false)
                },
                Some("typo")
            ),
            Err(DeleteRefusal::Never)
        );
        // A reversal and the invoice it reverses are never deleted.
        assert_eq!(
            check_invoice_delete(
                InvoiceDeletion {
                    reversal: true,
                    ..d(Created, false)
                },
                Some("x")
            ),
            Err(DeleteRefusal::Reversal)
        );
        assert_eq!(
            check_invoice_delete(
                InvoiceDeletion {
                    reversed: true,
                    ..d(Created, false)
                },
                Some("x")
            ),
            Err(DeleteRefusal::Reversed)
        );
        assert_eq!(
            FinalizedDeletion::parse("never"),
            Some(FinalizedDeletion::Never)
        );
        assert_eq!(FinalizedDeletion::default().as_str(), "admins");
    }

    #[test]
    fn payments_drive_status() {
        let gross = Decimal::new(11900, 2);
        assert_eq!(status_after_payments(Decimal::ZERO, gross, Sent), Sent);
        assert_eq!(
            status_after_payments(Decimal::new(100, 0), gross, Sent),
            PartiallyPaid
        );
        assert_eq!(status_after_payments(gross, gross, Sent), Paid);
        assert_eq!(
            status_after_payments(Decimal::new(200, 0), gross, Created),
            Paid
        );
    }

    #[test]
    fn reversal_eligibility_with_one_message_each() {
        assert!(can_reverse_invoice(Sent, false, false));
        assert!(can_reverse_invoice(Paid, false, false));
        assert!(!can_reverse_invoice(Draft, false, false));
        assert_eq!(
            reverse_refusal(Created, true, false).map(|t| t.en),
            Some("A reversal invoice cannot be reversed.")
        );
        assert_eq!(
            reverse_refusal(Created, false, true).map(|t| t.de),
            Some("Diese Rechnung wurde bereits storniert.")
        );
    }

    #[test]
    fn wire_names_round_trip() {
        for s in InvoiceStatus::ALL {
            assert_eq!(InvoiceStatus::parse(s.as_str()), Some(s));
            let json = serde_json::to_string(&s).unwrap();
            assert_eq!(json, format!("\"{}\"", s.as_str()));
        }
    }
}
