//! The GiroCode (EPC QR code, European Payments Council *Quick Response Code: Guidelines to
//! Enable Data Capture for the Initiation of a SEPA Credit Transfer*, EPC069-12, version
//! 002): the text a banking app scans to fill in a transfer — beneficiary, IBAN, amount
//! and the structured reference (issue 32 § The GiroCode).
//!
//! Pure: which documents get one ([`applies`]) and the payload ([`payload`]); the QR code
//! image is `kontor_pdf`'s. `docs/decisions.md` § GiroCode.

use crate::payment_reference;
use crate::sepa::is_valid_iban;
use rust_decimal::Decimal;

/// The largest amount a GiroCode may carry: 999,999,999.99 EUR (EPC069-12 § 3.4, AT-04).
pub fn max_amount() -> Decimal {
    Decimal::new(99_999_999_999, 2)
}

/// The most characters of the beneficiary's name (AT-21).
pub const MAX_NAME: usize = 70;

/// The most bytes of a whole payload (EPC069-12 § 3.4).
pub const MAX_PAYLOAD: usize = 331;

/// What a GiroCode carries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GiroCode {
    /// The beneficiary's BIC (AT-23), optional in version 002.
    pub bic: Option<String>,
    /// The beneficiary's name (AT-21): the account holder, else the account's name; at most
    /// [`MAX_NAME`] characters (cut there).
    pub name: String,
    /// The beneficiary's IBAN (AT-20), compact and upper case.
    pub iban: String,
    /// The amount in EUR (AT-04), 0.01–999,999,999.99, two decimals.
    pub amount: Decimal,
    /// The structured creditor reference (AT-05, ISO 11649), if any.
    pub reference: Option<String>,
    /// The unstructured remittance text (AT-05 alternative, ≤ 140 characters), used only
    /// without a reference.
    pub text: Option<String>,
}

fn compact_iban(iban: &str) -> String {
    iban.chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_ascii_uppercase()
}

/// Whether a document asking for `amount` in `currency` gets a GiroCode: the switch
/// `enabled` (Settings, default on), EUR, a valid account `iban`, and an amount from
/// 0.01 to [`max_amount`] (a credit, a paid invoice or an amount beyond the limit prints
/// none).
pub fn applies(enabled: bool, currency: &str, iban: Option<&str>, amount: Decimal) -> bool {
    enabled
        && currency.trim() == "EUR"
        && iban.is_some_and(|i| is_valid_iban(&compact_iban(i)))
        && amount >= Decimal::new(1, 2)
        && amount <= max_amount()
}

impl GiroCode {
    /// The GiroCode for a transfer of `amount` EUR to `iban` (with `bic` if known) of
    /// `name`, referring to invoice `invoice_number` by its payment reference
    /// ([`payment_reference::payment_reference`]; the number as text when it has none).
    /// `None` when [`applies`] says no (the switch left aside).
    pub fn new(
        iban: &str,
        bic: Option<&str>,
        name: &str,
        amount: Decimal,
        invoice_number: &str,
    ) -> Option<GiroCode> {
        if !applies(true, "EUR", Some(iban), amount) {
            return None;
        }
        let reference = payment_reference::payment_reference(invoice_number);
        let text = reference
            .is_none()
            .then(|| invoice_number.chars().take(140).collect::<String>())
            .filter(|t| !t.trim().is_empty());
        Some(GiroCode {
            bic: bic
                .map(|b| b.trim().to_ascii_uppercase())
                .filter(|b| !b.is_empty()),
            name: name.trim().chars().take(MAX_NAME).collect(),
            iban: compact_iban(iban),
            amount: amount.round_dp(2),
            reference,
            text,
        })
    }

    /// The payload: the service tag `BCD`, version `002`, character set `1` (UTF-8),
    /// `SCT`, BIC, name, IBAN, `EUR` and the amount (`EUR1487.50`), an empty purpose, the
    /// reference and the text (one of them empty), joined by line feeds; nothing after the
    /// last field that has a value (EPC069-12 § 3.4).
    pub fn payload(&self) -> String {
        let fields = [
            "BCD".to_string(),
            "002".into(),
            "1".into(),
            "SCT".into(),
            self.bic.clone().unwrap_or_default(),
            self.name.clone(),
            self.iban.clone(),
            format!("EUR{:.2}", self.amount),
            String::new(),
            self.reference.clone().unwrap_or_default(),
            self.text.clone().unwrap_or_default(),
        ];
        let last = fields.iter().rposition(|f| !f.is_empty()).unwrap_or(0);
        fields[..=last].join("\n")
    }
}

#[cfg(test)]
mod tests;
