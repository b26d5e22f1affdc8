//! The check of an incoming e-invoice against EN 16931 (issue 36): what a purchase made from
//! an e-invoice carries as `einvoice_check`, and the one rule that decides whether such a
//! purchase may be approved.
//!
//! Findings are classified as the BMF letter of 15 October 2025 on e-invoicing does
//! (`docs/decisions.md` § E-invoice check):
//! - [`DefectClass::Formal`]: the document is not a valid structured invoice (not UBL 2.1 /
//!   CII D16B, a structure or data type the schema refuses, a code outside the EN 16931 code
//!   lists, a Factur-X profile below EN 16931) — it does not count as an e-invoice;
//! - [`DefectClass::Content`]: data § 14 (4) UStG requires is missing or wrong (parties and
//!   their addresses, VAT ID or tax number, date, number, items, amounts and VAT per rate,
//!   the calculation rules BR-CO-10 … BR-CO-17 and the VAT breakdown per category) — input
//!   VAT may be deducted only after a correction;
//! - [`DefectClass::Other`]: everything else (e.g. XRechnung's BT-10 buyer reference) —
//!   informational.

use serde::{Deserialize, Serialize};

/// The BMF class of a finding (wire: `formal`, `content`, `other`), ordered from the least
/// to the most serious: `Other < Content < Formal`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum DefectClass {
    /// An other defect: informational, approval is not held up.
    Other,
    /// A content defect relevant for input VAT (§ 14 (4) UStG data missing or wrong).
    Content,
    /// A formal defect: not a valid structured e-invoice.
    Formal,
}

impl DefectClass {
    /// The wire text: `formal`, `content` or `other`.
    pub fn as_str(self) -> &'static str {
        match self {
            DefectClass::Formal => "formal",
            DefectClass::Content => "content",
            DefectClass::Other => "other",
        }
    }
}

/// One rule an e-invoice breaks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Finding {
    /// The rule id as the official rules name it: `BR-CO-10`, `BR-CL-04`, `BR-DE-15`, … ;
    /// Kontor's own structure checks are `KONTOR-…` (e.g. `KONTOR-XML` for a document that
    /// is no well-formed XML).
    pub rule: String,
    /// The business term(s) concerned: `BT-106`, `BG-23`, `BT-5`, … (empty when the rule
    /// concerns the whole document).
    pub term: String,
    /// What is wrong, in English, with the value found (`BT-106 is 603.65 but the lines
    /// (BT-131) add up to 613.65`).
    pub message: String,
    /// The same in German (the app and the correction request show the reader's language).
    #[serde(default)]
    pub message_de: String,
    /// The BMF class of this finding.
    pub class: DefectClass,
}

/// The check result a purchase made from an e-invoice carries (`einvoice_check`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EinvoiceCheck {
    /// `true` when no rule is broken (then `class` is `null` and `findings` empty).
    pub valid: bool,
    /// The worst finding's class, `null` when valid.
    pub class: Option<DefectClass>,
    /// Every broken rule, in document order within each group of rules (structure, mandatory
    /// terms, code lists, calculations, XRechnung).
    pub findings: Vec<Finding>,
}

impl EinvoiceCheck {
    /// The check result of `findings`: valid when empty, else the worst class.
    pub fn of(findings: Vec<Finding>) -> Self {
        let class = findings.iter().map(|f| f.class).max();
        EinvoiceCheck {
            valid: findings.is_empty(),
            class,
            findings,
        }
    }

    /// The rules broken, each once, in the order found (`["BR-CO-10", "BR-S-08"]`).
    pub fn rules(&self) -> Vec<&str> {
        let mut rules: Vec<&str> = Vec::new();
        for f in &self.findings {
            if !rules.contains(&f.rule.as_str()) {
                rules.push(&f.rule);
            }
        }
        rules
    }

    /// Whether approving needs an admin's override with a reason: a formal or a content
    /// defect (input VAT may not be deducted before a correction; a formal defect is worse
    /// still). Other defects never hold approval up.
    pub fn holds_approval(&self) -> bool {
        self.class.is_some_and(|c| c >= DefectClass::Content)
    }
}

/// Longest reason for approving a purchase despite its defects (characters).
pub const MAX_OVERRIDE_REASON: usize = 2_000;

/// Why approving a purchase with `check` is refused, `None` when it may be approved.
///
/// `override_reason` is the reason given for approving anyway (blank counts as none),
/// `is_admin` whether the caller is an admin. Refused: a formal or content defect
/// ([`EinvoiceCheck::holds_approval`]) without a reason ([`ApprovalRefusal::NeedsOverride`])
/// or by someone who is not an admin ([`ApprovalRefusal::AdminOnly`]); a reason longer than
/// [`MAX_OVERRIDE_REASON`] ([`ApprovalRefusal::ReasonTooLong`]). A purchase without a
/// check (entered by hand) or with only other defects is always approvable.
pub fn approval_refusal(
    check: Option<&EinvoiceCheck>,
    override_reason: Option<&str>,
    is_admin: bool,
) -> Option<ApprovalRefusal> {
    if !check.is_some_and(EinvoiceCheck::holds_approval) {
        return None;
    }
    let reason = override_reason.map(str::trim).filter(|r| !r.is_empty());
    match reason {
        None => Some(ApprovalRefusal::NeedsOverride),
        Some(_) if !is_admin => Some(ApprovalRefusal::AdminOnly),
        Some(r) if r.chars().count() > MAX_OVERRIDE_REASON => Some(ApprovalRefusal::ReasonTooLong),
        Some(_) => None,
    }
}

/// Why [`approval_refusal`] refuses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ApprovalRefusal {
    /// The e-invoice has a formal or content defect and no override reason was given.
    NeedsOverride,
    /// Only an admin may approve despite such a defect.
    AdminOnly,
    /// The override reason is longer than [`MAX_OVERRIDE_REASON`].
    ReasonTooLong,
}

/// The subject and text of a request for a corrected invoice (issue 36, "Ask for a
/// corrected invoice"): to the seller, naming the invoice (`invoice_number`, BT-1, and
/// `invoice_date` as written), every finding of `check` with its rule, business term and
/// what is wrong, and the account's name (`sender`) as signature — in German when `german`,
/// else in English. A finding without a German text falls back to its English one.
pub fn correction_request(
    check: &EinvoiceCheck,
    invoice_number: &str,
    invoice_date: &str,
    sender: &str,
    german: bool,
) -> (String, String) {
    let list: String = check
        .findings
        .iter()
        .map(|f| {
            let message = if german && !f.message_de.is_empty() {
                &f.message_de
            } else {
                &f.message
            };
            let term = if f.term.is_empty() {
                String::new()
            } else {
                format!(", {}", f.term)
            };
            format!("- {}{term}: {message}\n", f.rule)
        })
        .collect();
    if german {
        (
            format!("Bitte um berichtigte Rechnung {invoice_number}"),
            format!(
                "Guten Tag,\n\nwir haben Ihre Rechnung {invoice_number} vom {invoice_date} als E-Rechnung erhalten und nach EN 16931 geprüft. Dabei ist Folgendes aufgefallen:\n\n{list}\nBitte senden Sie uns eine berichtigte Rechnung, die auf diese Rechnung Bezug nimmt. Vielen Dank.\n\nMit freundlichen Grüßen\n{sender}\n"
            ),
        )
    } else {
        (
            format!("Request for a corrected invoice {invoice_number}"),
            format!(
                "Hello,\n\nwe received your invoice {invoice_number} of {invoice_date} as an e-invoice and checked it against EN 16931. We found the following:\n\n{list}\nPlease send us a corrected invoice that refers to this invoice. Thank you.\n\nKind regards\n{sender}\n"
            ),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finding(class: DefectClass) -> Finding {
        Finding {
            rule: "BR-CO-10".into(),
            term: "BT-106".into(),
            message: "off".into(),
            message_de: "falsch".into(),
            class,
        }
    }

    #[test]
    fn a_correction_request_lists_every_finding_in_the_language_asked() {
        let check = EinvoiceCheck::of(vec![finding(DefectClass::Content)]);
        let (subject, text) = correction_request(&check, "R-17", "2026-11-02", "Muster GmbH", true);
        assert_eq!(subject, "Bitte um berichtigte Rechnung R-17");
        assert!(text.contains("- BR-CO-10, BT-106: falsch"), "{text}");
        assert!(text.contains("vom 2026-11-02") && text.ends_with("Muster GmbH\n"));
        let (subject, text) =
            correction_request(&check, "R-17", "2026-11-02", "Muster GmbH", false);
        assert!(subject.contains("corrected invoice R-17"));
        assert!(text.contains("- BR-CO-10, BT-106: off"), "{text}");
    }

    #[test]
    fn the_worst_class_counts() {
        let check = EinvoiceCheck::of(vec![
            finding(DefectClass::Other),
            finding(DefectClass::Content),
        ]);
        assert!(!check.valid);
        assert_eq!(check.class, Some(DefectClass::Content));
        assert_eq!(check.rules(), ["BR-CO-10"]);
        let none = EinvoiceCheck::of(vec![]);
        assert!(none.valid && none.class.is_none());
        let json = serde_json::to_value(&check).unwrap();
        assert_eq!(json["class"], "content");
        assert_eq!(json["findings"][0]["class"], "other");
    }

    #[test]
    fn content_and_formal_defects_need_an_admin_and_a_reason() {
        let content = EinvoiceCheck::of(vec![finding(DefectClass::Content)]);
        let formal = EinvoiceCheck::of(vec![finding(DefectClass::Formal)]);
        let other = EinvoiceCheck::of(vec![finding(DefectClass::Other)]);
        assert_eq!(approval_refusal(None, None, false), None);
        assert_eq!(approval_refusal(Some(&other), None, false), None);
        for check in [&content, &formal] {
            assert_eq!(
                approval_refusal(Some(check), None, true),
                Some(ApprovalRefusal::NeedsOverride)
            );
            assert_eq!(
                approval_refusal(Some(check), Some("  "), true),
                Some(ApprovalRefusal::NeedsOverride)
            );
            assert_eq!(
                approval_refusal(Some(check), Some("agreed by phone"), false),
                Some(ApprovalRefusal::AdminOnly)
            );
            assert_eq!(
                approval_refusal(Some(check), Some("agreed by phone"), true),
                None
            );
        }
        let long = "x".repeat(MAX_OVERRIDE_REASON + 1);
        assert_eq!(
            approval_refusal(Some(&content), Some(&long), true),
            Some(ApprovalRefusal::ReasonTooLong)
        );
    }
}
