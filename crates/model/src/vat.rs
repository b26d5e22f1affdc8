//! The VAT treatment of invoices and offers taken from the customer (`decisions.md`
//! § Representations beyond the interface's tables; `docs/decisions.md` § Rules in the
//! model (issue 8)): the forms pre-fill it when a customer is picked, the server applies
//! it when a body leaves it out, and the live preview does the same.

use crate::party::CustomerVat;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

/// Optional VAT flags of a creation body; absent → taken from the customer's `customer_vat`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct VatInput {
    /// Reverse charge (tax 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reverse_charge: Option<bool>,
    /// Intra-EU supply.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub intra_eu: Option<bool>,
}

/// The default tax rate in percent when the customer has none.
pub const DEFAULT_TAX_PERCENT: Decimal = Decimal::from_parts(19, 0, 0, false, 0);

/// A VAT treatment: tax in percent and the two flags.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VatChoice {
    /// Tax rate in percent (0 with reverse charge).
    pub tax: Decimal,
    /// Reverse charge: the recipient owes the tax, none is charged.
    pub reverse_charge: bool,
    /// Intra-EU supply.
    pub intra_eu: bool,
}

/// What a form shows once `customer` is picked: the customer's tax (else
/// [`DEFAULT_TAX_PERCENT`]), reverse charge and intra-EU; with reverse charge the tax is 0
/// (a UK company with reverse charge → 0 %, reverse charge ticked).
pub fn customer_default(customer: &CustomerVat) -> VatChoice {
    VatChoice {
        tax: effective_tax(
            Some(customer.tax.unwrap_or(DEFAULT_TAX_PERCENT)),
            customer.reverse_charge,
        ),
        reverse_charge: customer.reverse_charge,
        intra_eu: customer.intra_eu,
    }
}

/// The tax actually charged (percent): 0 with reverse charge, else the given rate (0 when
/// absent).
pub fn effective_tax(tax: Option<Decimal>, reverse_charge: bool) -> Decimal {
    if reverse_charge {
        Decimal::ZERO
    } else {
        tax.unwrap_or_default()
    }
}

/// What is stored for a creation body (and shown by the preview): flags the body gives
/// win; absent ones come from the customer's `customer_vat` (no customer → false); the
/// tax is the body's rate, 0 with reverse charge.
pub fn resolve_vat(
    tax: Option<Decimal>,
    given: Option<&VatInput>,
    customer: Option<&CustomerVat>,
) -> VatChoice {
    let reverse_charge = given
        .and_then(|v| v.reverse_charge)
        .unwrap_or_else(|| customer.is_some_and(|c| c.reverse_charge));
    let intra_eu = given
        .and_then(|v| v.intra_eu)
        .unwrap_or_else(|| customer.is_some_and(|c| c.intra_eu));
    VatChoice {
        tax: effective_tax(tax, reverse_charge),
        reverse_charge,
        intra_eu,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uk() -> CustomerVat {
        CustomerVat {
            tax: Some(Decimal::new(20, 0)),
            reverse_charge: true,
            intra_eu: false,
        }
    }

    #[test]
    fn forms_default_to_the_customers_treatment() {
        let d = customer_default(&uk());
        assert_eq!((d.tax, d.reverse_charge), (Decimal::ZERO, true));
        let d = customer_default(&CustomerVat::default());
        assert_eq!(
            (d.tax, d.reverse_charge, d.intra_eu),
            (Decimal::new(19, 0), false, false)
        );
        let seven = CustomerVat {
            tax: Some(Decimal::new(7, 0)),
            ..Default::default()
        };
        assert_eq!(customer_default(&seven).tax, Decimal::new(7, 0));
    }

    #[test]
    fn bodies_take_given_flags_else_the_customers() {
        let tax = Some(Decimal::new(19, 0));
        let v = resolve_vat(tax, None, Some(&uk()));
        assert_eq!((v.tax, v.reverse_charge), (Decimal::ZERO, true));
        let off = VatInput {
            reverse_charge: Some(false),
            intra_eu: None,
        };
        let v = resolve_vat(tax, Some(&off), Some(&uk()));
        assert_eq!((v.tax, v.reverse_charge), (Decimal::new(19, 0), false));
        let v = resolve_vat(tax, None, None);
        assert_eq!(
            (v.tax, v.reverse_charge, v.intra_eu),
            (Decimal::new(19, 0), false, false)
        );
        assert_eq!(resolve_vat(None, None, None).tax, Decimal::ZERO);
    }
}
