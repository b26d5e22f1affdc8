//! The VAT choice of an `item` position (issue 10 contract § Per-position VAT): the
//! document default, 19 %, 7 %, 0 %, exempt (with a reason), reverse charge, intra-EU or
//! export. A choice is the pair of wire fields `tax` (percent) and `tax_category` the
//! position sends; the default sends neither, so the position follows the document's
//! `tax` (and its reverse-charge / intra-EU flags).

use crate::components::locale::format_input;
use crate::i18n::{fill, t};
use kontor_model::position_vat::{effective_vat, TaxCategory};
use kontor_model::vat::VatChoice;
use kontor_model::Decimal;

/// A position's VAT as the editor holds it: the `tax` and `tax_category` it sends.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PositionVat {
    /// The position's own rate in percent; `None` inherits the document's.
    pub tax: Option<Decimal>,
    /// The position's category; `None` derives it from the rate and the document.
    pub category: Option<TaxCategory>,
}

impl PositionVat {
    /// The document default: neither field sent.
    pub const DEFAULT: PositionVat = PositionVat {
        tax: None,
        category: None,
    };

    /// A taxed rate (`percent` > 0) in `category` (standard or reduced).
    pub fn rate(percent: i64, category: TaxCategory) -> Self {
        PositionVat {
            tax: Some(Decimal::new(percent, 0)),
            category: Some(category),
        }
    }

    /// A category without tax: 0 % (`zero`, sent with `tax` 0) or exempt, reverse charge,
    /// intra-EU, export (sent without a rate: their rate is 0 by the rule).
    pub fn untaxed(category: TaxCategory) -> Self {
        PositionVat {
            tax: (category == TaxCategory::Zero).then_some(Decimal::ZERO),
            category: Some(category),
        }
    }

    /// The choices offered, in menu order: default, 19 %, 7 %, 0 %, exempt, reverse
    /// charge, intra-EU, export.
    pub fn choices() -> [PositionVat; 8] {
        [
            Self::DEFAULT,
            Self::rate(19, TaxCategory::Standard),
            Self::rate(7, TaxCategory::Reduced),
            Self::untaxed(TaxCategory::Zero),
            Self::untaxed(TaxCategory::Exempt),
            Self::untaxed(TaxCategory::ReverseCharge),
            Self::untaxed(TaxCategory::IntraEu),
            Self::untaxed(TaxCategory::Export),
        ]
    }

    /// The choice for stored fields: a known choice when they match one (a category
    /// without tax ignores a stored rate of 0), else the pair itself (e.g. 16 % standard,
    /// shown as an extra option).
    pub fn from_stored(tax: Option<Decimal>, category: Option<TaxCategory>) -> Self {
        let given = PositionVat { tax, category };
        match category {
            Some(c) if !c.charges_tax() => Self::untaxed(c),
            None if tax.is_some_and(|t| t.is_zero()) => Self::untaxed(TaxCategory::Zero),
            None => match tax {
                Some(t) => PositionVat {
                    tax: Some(t),
                    category: Some(TaxCategory::Standard),
                },
                None => Self::DEFAULT,
            },
            Some(_) => given,
        }
    }

    /// The `<option>` value: `default`, `standard:19`, `reduced:7`, `zero`, `exempt`, ….
    pub fn value(&self) -> String {
        match (self.category, self.tax) {
            (None, _) => "default".into(),
            (Some(c), Some(t)) if c.charges_tax() => format!("{}:{}", c.as_str(), t.normalize()),
            (Some(c), _) => c.as_str().into(),
        }
    }

    /// Reads a value written by [`PositionVat::value`]; `None` for anything else.
    pub fn parse(value: &str) -> Option<Self> {
        if value == "default" {
            return Some(Self::DEFAULT);
        }
        match value.split_once(':') {
            Some((c, t)) => {
                let category = TaxCategory::parse(c).filter(|c| c.charges_tax())?;
                let tax: Decimal = t.parse().ok()?;
                Some(PositionVat {
                    tax: Some(tax),
                    category: Some(category),
                })
            }
            None => {
                let category = TaxCategory::parse(value).filter(|c| !c.charges_tax())?;
                Some(Self::untaxed(category))
            }
        }
    }

    /// What the menu shows: "19 %", "0 %", "exempt", "reverse charge", "intra-EU",
    /// "export"; the default names what the document gives: "Default (19 %)".
    pub fn label(&self, document: &VatChoice) -> String {
        match self.category {
            None => {
                let inherited = effective_vat(None, None, document);
                fill(
                    t().position_editor_vat().default,
                    &[(
                        "vat",
                        &Self::untaxed_or_rate(inherited.category, inherited.rate),
                    )],
                )
            }
            Some(c) => Self::untaxed_or_rate(c, self.tax.unwrap_or_default()),
        }
    }

    fn untaxed_or_rate(category: TaxCategory, rate: Decimal) -> String {
        match category {
            TaxCategory::Standard | TaxCategory::Reduced | TaxCategory::Zero => fill(
                t().position_editor_vat().rate,
                &[("rate", &format_input(rate.normalize()))],
            ),
            TaxCategory::Exempt => t().position_editor_vat().exempt.into(),
            TaxCategory::ReverseCharge => t().position_editor_vat().reverse_charge.into(),
            TaxCategory::IntraEu => t().position_editor_vat().intra_eu.into(),
            TaxCategory::Export => t().position_editor_vat().export.into(),
        }
    }

    /// Whether the position needs an exemption reason typed (exempt only; reverse charge,
    /// intra-EU and export get a default reason).
    pub fn needs_reason(&self) -> bool {
        self.category == Some(TaxCategory::Exempt)
    }
}

/// The VAT note of a stored position with its own choice ("VAT 7 %", "VAT exempt: § 4 Nr.
/// 21 UStG"); `None` for positions that follow the document.
pub fn vat_note(
    tax: Option<Decimal>,
    category: Option<TaxCategory>,
    reason: Option<&str>,
) -> Option<String> {
    let vat = PositionVat::from_stored(tax, category);
    if vat == PositionVat::DEFAULT {
        return None;
    }
    let document = VatChoice {
        tax: Decimal::ZERO,
        reverse_charge: false,
        intra_eu: false,
    };
    let label = vat.label(&document);
    Some(match reason.map(str::trim) {
        Some(r) if !r.is_empty() => fill(
            t().position_editor_vat().note_reason,
            &[("vat", &label), ("reason", r)],
        ),
        _ => fill(t().position_editor_vat().note, &[("vat", &label)]),
    })
}
