//! VAT per position (issue 10 contract § Per-position VAT; `docs/decisions.md` § VAT per
//! position (issue 10)): the tax category of an invoice or offer `item` position, its EN
//! 16931 code (BT-151), the rule that derives the effective category and rate from the
//! position and its document, the default exemption reasons (BT-120/BT-121), the
//! validation of the three position fields, and the `tax_breakdown` entry of the output.
//!
//! A position's `tax` (percent) and `tax_category` are optional: absent, the position
//! inherits the document's VAT ([`effective_vat`]). Only `item` positions carry VAT.

use crate::error::messages;
use crate::error::{push_error, FieldErrors};
use crate::party::Language;
use crate::position::PositionType;
use crate::vat::VatChoice;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Longest accepted `tax_exemption_reason`, in characters.
pub const MAX_EXEMPTION_REASON: usize = 500;

/// The VAT category of a position. The declaration order is the order of the
/// `tax_breakdown` (`Ord`).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, Default,
)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum TaxCategory {
    /// Standard rate (EN 16931 `S`), e.g. 19 %.
    #[default]
    Standard,
    /// Reduced rate (also `S` in EN 16931), e.g. 7 %.
    Reduced,
    /// Zero rated goods (`Z`): rate 0.
    Zero,
    /// Exempt from VAT (`E`): rate 0, an exemption reason is required.
    Exempt,
    /// Reverse charge (`AE`): the recipient owes the VAT; rate 0.
    ReverseCharge,
    /// Tax-exempt intra-community supply (`K`): rate 0.
    IntraEu,
    /// Tax-exempt export outside the EU (`G`): rate 0.
    Export,
}

impl TaxCategory {
    /// All seven categories in `tax_breakdown` order.
    pub const ALL: [TaxCategory; 7] = [
        TaxCategory::Standard,
        TaxCategory::Reduced,
        TaxCategory::Zero,
        TaxCategory::Exempt,
        TaxCategory::ReverseCharge,
        TaxCategory::IntraEu,
        TaxCategory::Export,
    ];

    /// The wire name (`"reverse_charge"`).
    pub fn as_str(self) -> &'static str {
        match self {
            TaxCategory::Standard => "standard",
            TaxCategory::Reduced => "reduced",
            TaxCategory::Zero => "zero",
            TaxCategory::Exempt => "exempt",
            TaxCategory::ReverseCharge => "reverse_charge",
            TaxCategory::IntraEu => "intra_eu",
            TaxCategory::Export => "export",
        }
    }

    /// Parses a wire name; `None` for anything else.
    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|c| c.as_str() == text)
    }

    /// The EN 16931 VAT category code (UNTDID 5305, BT-118/BT-151): standard and reduced
    /// → `S`, zero → `Z`, exempt → `E`, reverse charge → `AE`, intra-EU → `K`,
    /// export → `G`.
    pub fn code(self) -> &'static str {
        match self {
            TaxCategory::Standard | TaxCategory::Reduced => "S",
            TaxCategory::Zero => "Z",
            TaxCategory::Exempt => "E",
            TaxCategory::ReverseCharge => "AE",
            TaxCategory::IntraEu => "K",
            TaxCategory::Export => "G",
        }
    }

    /// Whether VAT is charged: only standard and reduced positions carry a rate > 0; all
    /// other categories have rate 0 and no tax.
    pub fn charges_tax(self) -> bool {
        matches!(self, TaxCategory::Standard | TaxCategory::Reduced)
    }

    /// Whether the category needs an exemption reason in the e-invoice (BT-120/BT-121;
    /// EN 16931 BR-E-10, BR-AE-10, BR-IC-10, BR-G-10): exempt, reverse charge, intra-EU
    /// and export.
    pub fn needs_exemption_reason(self) -> bool {
        matches!(
            self,
            TaxCategory::Exempt
                | TaxCategory::ReverseCharge
                | TaxCategory::IntraEu
                | TaxCategory::Export
        )
    }

    /// The VATEX exemption reason code (BT-121) written when the category has a fixed
    /// legal basis: reverse charge `VATEX-EU-AE`, intra-EU `VATEX-EU-IC`, export
    /// `VATEX-EU-G`; `None` for the others (an exempt position states its own reason).
    pub fn vatex_code(self) -> Option<&'static str> {
        match self {
            TaxCategory::ReverseCharge => Some("VATEX-EU-AE"),
            TaxCategory::IntraEu => Some("VATEX-EU-IC"),
            TaxCategory::Export => Some("VATEX-EU-G"),
            _ => None,
        }
    }

    /// The default exemption reason text (BT-120) in `language` for reverse charge,
    /// intra-EU and export; `None` for the others (exempt positions must give their own
    /// reason, standard and zero have none).
    pub fn default_exemption_reason(self, language: Language) -> Option<&'static str> {
        let (de, en) = match self {
            TaxCategory::ReverseCharge => (
                "Steuerschuldnerschaft des Leistungsempfängers (Reverse Charge)",
                "Reverse charge: the recipient is liable for the VAT",
            ),
            TaxCategory::IntraEu => (
                "Steuerfreie innergemeinschaftliche Lieferung",
                "Tax-exempt intra-community supply",
            ),
            TaxCategory::Export => (
                "Steuerfreie Ausfuhrlieferung",
                "Tax-exempt export outside the EU",
            ),
            _ => return None,
        };
        Some(match language {
            Language::De => de,
            Language::En => en,
        })
    }

    /// A label for people in `language` ("Standard rate", "Ermäßigter Satz", …).
    pub fn label(self, language: Language) -> &'static str {
        let (de, en) = match self {
            TaxCategory::Standard => ("Regelsatz", "Standard rate"),
            TaxCategory::Reduced => ("Ermäßigter Satz", "Reduced rate"),
            TaxCategory::Zero => ("Nullsatz", "Zero rate"),
            TaxCategory::Exempt => ("Steuerfrei", "Exempt"),
            TaxCategory::ReverseCharge => ("Reverse Charge", "Reverse charge"),
            TaxCategory::IntraEu => ("Innergemeinschaftlich", "Intra-EU"),
            TaxCategory::Export => ("Ausfuhr", "Export"),
        };
        match language {
            Language::De => de,
            Language::En => en,
        }
    }
}

impl fmt::Display for TaxCategory {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The VAT a position is actually taxed with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EffectiveVat {
    /// The category (given, or derived from the document).
    pub category: TaxCategory,
    /// The rate in percent: the position's own or the document's for standard/reduced;
    /// always 0 for every other category.
    pub rate: Decimal,
}

/// The effective category and rate of an `item` position (contract § Per-position VAT).
///
/// - category: the given one; absent → the document's reverse charge → `reverse_charge`;
///   its intra-EU flag → `intra_eu`; else the effective rate (`tax`, else the document's
///   `tax`) 0 → `zero`; else `standard`.
/// - rate (percent): standard/reduced → `tax`, else the document's `tax`; every other
///   category → 0 (an inherited document rate is taken as 0 for them; a given rate > 0 is
///   refused by [`check_position_vat`]).
pub fn effective_vat(
    tax: Option<Decimal>,
    category: Option<TaxCategory>,
    document: &VatChoice,
) -> EffectiveVat {
    let inherited = tax.unwrap_or(document.tax);
    let category = category.unwrap_or(if document.reverse_charge {
        TaxCategory::ReverseCharge
    } else if document.intra_eu {
        TaxCategory::IntraEu
    } else if inherited.is_zero() {
        TaxCategory::Zero
    } else {
        TaxCategory::Standard
    });
    let rate = if category.charges_tax() {
        inherited
    } else {
        Decimal::ZERO
    };
    EffectiveVat { category, rate }
}

/// The exemption reason text (BT-120) the e-invoice and the PDF show for a position or a
/// VAT group: the given reason (trimmed, when not blank) for exempt, reverse charge,
/// intra-EU and export, else the category's default in `language`; `None` for standard,
/// reduced and zero (EN 16931 forbids a reason there, BR-S-10/BR-Z-10).
pub fn exemption_reason(
    category: TaxCategory,
    given: Option<&str>,
    language: Language,
) -> Option<String> {
    if !category.needs_exemption_reason() {
        return None;
    }
    given
        .map(str::trim)
        .filter(|r| !r.is_empty())
        .map(str::to_string)
        .or_else(|| {
            category
                .default_exemption_reason(language)
                .map(str::to_string)
        })
}

/// The three VAT fields of one position as a body gives them.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PositionVatInput<'a> {
    /// The position's rate in percent; `None` inherits the document's.
    pub tax: Option<Decimal>,
    /// The position's category; `None` derives it.
    pub tax_category: Option<TaxCategory>,
    /// The exemption reason, if given.
    pub tax_exemption_reason: Option<&'a str>,
}

/// Checks the VAT fields of position `index` (of type `kind`) against the document's VAT
/// and adds 422 errors to `errors` (contract § Per-position VAT):
///
/// - `items[i].tax`: 0–100 with at most 4 places; > 0 (given or inherited) for
///   standard/reduced; a given rate must be 0 for zero, exempt, reverse charge, intra-EU
///   and export (derived categories included).
/// - `items[i].tax_exemption_reason`: at most [`MAX_EXEMPTION_REASON`] characters;
///   required (not blank) for `exempt`.
///
/// Positions other than `item` are not checked: they carry no VAT and the server stores
/// their fields as null.
pub fn check_position_vat(
    errors: &mut FieldErrors,
    index: usize,
    kind: Option<PositionType>,
    input: &PositionVatInput<'_>,
    document: &VatChoice,
) {
    if kind != Some(PositionType::Item) {
        return;
    }
    let field = |f: &str| format!("items[{index}].{f}");
    let before = errors.len();
    crate::limits::percent(errors, &field("tax"), input.tax);
    if let Some(reason) = input.tax_exemption_reason {
        if reason.chars().count() > MAX_EXEMPTION_REASON {
            push_error(
                errors,
                field("tax_exemption_reason"),
                messages::MUST_BE_AT_MOST_N_CHARACTERS.with([MAX_EXEMPTION_REASON]),
            );
        }
    }
    if errors.len() > before {
        return;
    }
    let effective = effective_vat(input.tax, input.tax_category, document);
    let category = effective.category;
    if category.charges_tax() {
        if effective.rate <= Decimal::ZERO {
            let message = if input.tax.is_some() {
                crate::error::messages::MUST_BE_GREATER_THAN_0_FOR_N_POSITION.with([category])
            } else {
                crate::error::messages::IS_REQUIRED_FOR_N_POSITION_TAX_0.with([category])
            };
            push_error(errors, field("tax"), message);
        }
    } else if input.tax.is_some_and(|t| t > Decimal::ZERO) {
        push_error(
            errors,
            field("tax"),
            messages::MUST_BE_0_FOR_N_POSITION.with([category]),
        );
    }
    if category == TaxCategory::Exempt
        && input
            .tax_exemption_reason
            .is_none_or(|r| r.trim().is_empty())
    {
        push_error(
            errors,
            field("tax_exemption_reason"),
            messages::IS_REQUIRED_FOR_EXEMPT_POSITION,
        );
    }
}

/// One entry of an invoice's or offer's `tax_breakdown`: a VAT group of its counted item
/// positions, amounts in currency units after the document discount.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TaxBreakdown {
    /// The group's category.
    pub tax_category: TaxCategory,
    /// The group's rate in percent (0 for every category but standard and reduced).
    #[serde(with = "crate::wire::decimal")]
    pub tax: Decimal,
    /// The group's net total after the discount.
    #[serde(with = "crate::wire::decimal")]
    pub net_total: Decimal,
    /// The group's tax amount.
    #[serde(with = "crate::wire::decimal")]
    pub tax_total: Decimal,
}

impl TaxBreakdown {
    /// The one-entry breakdown of a document stored before issue 10 (every position
    /// inherited the document's VAT): category and rate from [`effective_vat`] of the
    /// document, `net_total` as stored, `tax_total = gross_total − net_total`. `None` when
    /// the difference does not fit.
    pub fn single(document: &VatChoice, net_total: Decimal, gross_total: Decimal) -> Option<Self> {
        let vat = effective_vat(None, None, document);
        Some(TaxBreakdown {
            tax_category: vat.category,
            tax: vat.rate.normalize(),
            net_total,
            tax_total: gross_total.checked_sub(net_total)?,
        })
    }

    /// Reads a stored breakdown (the JSON array the server writes with the totals); a
    /// document stored before issue 10 has none (`None`) and gets [`TaxBreakdown::single`].
    /// Unreadable text gives the single entry too.
    pub fn from_stored(
        stored: Option<&str>,
        document: &VatChoice,
        net_total: Decimal,
        gross_total: Decimal,
    ) -> Vec<Self> {
        stored
            .and_then(|text| serde_json::from_str(text).ok())
            .unwrap_or_else(|| {
                Self::single(document, net_total, gross_total)
                    .into_iter()
                    .collect()
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(n: i64) -> Decimal {
        Decimal::new(n, 0)
    }

    fn doc(tax: i64, reverse_charge: bool, intra_eu: bool) -> VatChoice {
        VatChoice {
            tax: d(tax),
            reverse_charge,
            intra_eu,
        }
    }

    #[test]
    fn wire_names_codes_and_order() {
        for c in TaxCategory::ALL {
            assert_eq!(TaxCategory::parse(c.as_str()), Some(c));
            let json = serde_json::to_string(&c).unwrap();
            assert_eq!(json, format!("\"{}\"", c.as_str()));
        }
        let codes: Vec<_> = TaxCategory::ALL.iter().map(|c| c.code()).collect();
        assert_eq!(codes, ["S", "S", "Z", "E", "AE", "K", "G"]);
        let mut sorted = TaxCategory::ALL;
        sorted.sort();
        assert_eq!(sorted, TaxCategory::ALL);
        assert!(serde_json::from_str::<TaxCategory>("\"luxury\"").is_err());
    }

    #[test]
    fn derived_category_follows_the_document() {
        let e = |tax, cat, document| effective_vat(tax, cat, &document);
        assert_eq!(
            e(None, None, doc(19, false, false)),
            EffectiveVat {
                category: TaxCategory::Standard,
                rate: d(19)
            }
        );
        assert_eq!(
            e(Some(d(7)), None, doc(19, false, false)).rate,
            d(7),
            "own rate wins"
        );
        assert_eq!(
            e(None, None, doc(0, false, false)).category,
            TaxCategory::Zero
        );
        assert_eq!(
            e(Some(d(0)), None, doc(19, false, false)).category,
            TaxCategory::Zero
        );
        assert_eq!(
            e(None, None, doc(0, true, false)).category,
            TaxCategory::ReverseCharge
        );
        let intra = e(None, None, doc(19, false, true));
        assert_eq!((intra.category, intra.rate), (TaxCategory::IntraEu, d(0)));
        let exempt = e(None, Some(TaxCategory::Exempt), doc(19, false, false));
        assert_eq!(exempt.rate, d(0), "an inherited rate is 0 for exempt");
        let reduced = e(Some(d(7)), Some(TaxCategory::Reduced), doc(0, true, false));
        assert_eq!(
            (reduced.category, reduced.rate),
            (TaxCategory::Reduced, d(7))
        );
    }

    fn check(kind: PositionType, input: PositionVatInput<'_>, document: VatChoice) -> FieldErrors {
        let mut e = FieldErrors::new();
        check_position_vat(&mut e, 2, Some(kind), &input, &document);
        e
    }

    #[test]
    fn validation_names_the_fields() {
        let item = PositionType::Item;
        let ok = PositionVatInput::default();
        assert!(check(item, ok, doc(19, false, false)).is_empty());
        // standard with 0 → tax
        let zero_std = PositionVatInput {
            tax: Some(d(0)),
            tax_category: Some(TaxCategory::Standard),
            ..Default::default()
        };
        assert!(check(item, zero_std, doc(19, false, false)).contains_key("items[2].tax"));
        // standard inheriting a 0 % document → tax
        let std = PositionVatInput {
            tax_category: Some(TaxCategory::Reduced),
            ..Default::default()
        };
        assert!(check(item, std, doc(0, false, false)).contains_key("items[2].tax"));
        // exempt without reason → reason
        let exempt = PositionVatInput {
            tax_category: Some(TaxCategory::Exempt),
            ..Default::default()
        };
        let e = check(item, exempt, doc(19, false, false));
        assert_eq!(
            e.keys().collect::<Vec<_>>(),
            ["items[2].tax_exemption_reason"]
        );
        let blank = PositionVatInput {
            tax_exemption_reason: Some("  "),
            ..exempt
        };
        assert!(
            check(item, blank, doc(19, false, false)).contains_key("items[2].tax_exemption_reason")
        );
        let with_reason = PositionVatInput {
            tax_exemption_reason: Some("§ 4 Nr. 14 UStG"),
            ..exempt
        };
        assert!(check(item, with_reason, doc(19, false, false)).is_empty());
        // a given rate > 0 with a zero-rate category, also a derived one
        let export7 = PositionVatInput {
            tax: Some(d(7)),
            tax_category: Some(TaxCategory::Export),
            ..Default::default()
        };
        assert!(check(item, export7, doc(19, false, false)).contains_key("items[2].tax"));
        let own7 = PositionVatInput {
            tax: Some(d(7)),
            ..Default::default()
        };
        assert!(check(item, own7, doc(0, true, false)).contains_key("items[2].tax"));
        assert!(check(item, own7, doc(19, false, false)).is_empty());
        // range and length
        let big = PositionVatInput {
            tax: Some(d(101)),
            ..Default::default()
        };
        assert!(check(item, big, doc(19, false, false)).contains_key("items[2].tax"));
        let long = "x".repeat(501);
        let long = PositionVatInput {
            tax_exemption_reason: Some(&long),
            ..Default::default()
        };
        assert!(
            check(item, long, doc(19, false, false)).contains_key("items[2].tax_exemption_reason")
        );
        // other position types are ignored
        assert!(check(PositionType::Title, export7, doc(19, false, false)).is_empty());
    }

    #[test]
    fn stored_breakdowns_round_trip_and_old_rows_get_one_group() {
        let entry = TaxBreakdown {
            tax_category: TaxCategory::Reduced,
            tax: d(7),
            net_total: Decimal::new(5000, 2),
            tax_total: Decimal::new(350, 2),
        };
        let text = serde_json::to_string(&vec![entry.clone()]).unwrap();
        assert_eq!(
            text,
            r#"[{"tax_category":"reduced","tax":7,"net_total":50.00,"tax_total":3.50}]"#
        );
        let read = TaxBreakdown::from_stored(Some(&text), &doc(19, false, false), d(0), d(0));
        assert_eq!(read, vec![entry]);
        assert!(
            TaxBreakdown::from_stored(Some("[]"), &doc(19, false, false), d(1), d(2)).is_empty()
        );
        let old = TaxBreakdown::from_stored(None, &doc(19, false, false), d(100), d(119));
        assert_eq!(
            (old[0].tax_category, old[0].tax, old[0].tax_total),
            (TaxCategory::Standard, d(19), d(19))
        );
    }

    #[test]
    fn exemption_reasons_default_per_category() {
        let rc = exemption_reason(TaxCategory::ReverseCharge, None, Language::De).unwrap();
        assert!(rc.contains("Steuerschuldnerschaft"));
        let en = exemption_reason(TaxCategory::IntraEu, Some(" "), Language::En).unwrap();
        assert_eq!(en, "Tax-exempt intra-community supply");
        assert_eq!(
            exemption_reason(TaxCategory::Exempt, Some(" § 4 Nr. 11 UStG "), Language::De)
                .as_deref(),
            Some("§ 4 Nr. 11 UStG")
        );
        assert_eq!(
            exemption_reason(TaxCategory::Exempt, None, Language::De),
            None
        );
        assert_eq!(
            exemption_reason(TaxCategory::Standard, Some("x"), Language::De),
            None
        );
        assert_eq!(TaxCategory::Export.vatex_code(), Some("VATEX-EU-G"));
        assert_eq!(TaxCategory::Exempt.vatex_code(), None);
    }
}
