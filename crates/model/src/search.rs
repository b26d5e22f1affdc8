//! One search over everything (issue 33 § One search): `GET /search?term=` answers the
//! first [`PER_GROUP`] invoices, offers, purchases, companies and contact people the term
//! finds — each group as its list finds it (`term` of that list: numbers, titles, names,
//! e-mail addresses) — and, when the term reads as an amount ([`search_amount`]:
//! `1.190,00`, `1190.00`, `1190`), the invoices of exactly that gross total.

use crate::invoice::Invoice;
use crate::number_input::{parse_number, Locale};
use crate::offer::Offer;
use crate::party::{Company, Person};
use crate::purchase::Purchase;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

/// Hits per group (issue 33: at most 5).
pub const PER_GROUP: u32 = 5;

/// The longest term searched, in characters (longer is a 422 on `term`).
pub const MAX_TERM_CHARS: usize = 200;

/// The answer of `GET /search`: each group in its list's shape and order, at most
/// [`PER_GROUP`] each.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SearchResults {
    /// Invoices: by number, title, customer, recipient; then by amount.
    pub invoices: Vec<Invoice>,
    /// Offers: by number, title, customer, recipient.
    pub offers: Vec<Offer>,
    /// Purchases: by number, receipt number, supplier, title.
    pub purchases: Vec<Purchase>,
    /// Companies: by name, address, e-mail, phone, VAT ID, tags.
    pub companies: Vec<Company>,
    /// Contact people: by name and e-mail.
    pub contacts: Vec<Person>,
}

impl SearchResults {
    /// Whether nothing was found.
    pub fn is_empty(&self) -> bool {
        self.invoices.is_empty()
            && self.offers.is_empty()
            && self.purchases.is_empty()
            && self.companies.is_empty()
            && self.contacts.is_empty()
    }
}

/// The amount a search term means, if it is one: digits with an optional sign, `€`/`EUR`
/// and grouping — German when it has a decimal comma (`1.190,00`, `1190,5`) or dots
/// grouping thousands (`1.190`), English otherwise (`1,190.00`, `1190.00`, `1190`). `None`
/// for anything else (`R2611-004`, `12.5.2026`, `Müller`) and for zero.
pub fn search_amount(term: &str) -> Option<Decimal> {
    let t = term
        .trim()
        .trim_end_matches("EUR")
        .trim_end_matches('€')
        .trim_start_matches('€')
        .trim();
    if t.is_empty()
        || !t.chars().any(|c| c.is_ascii_digit())
        || !t
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | ',' | '-' | '+'))
    {
        return None;
    }
    let german = match (t.rfind(','), t.rfind('.')) {
        (Some(comma), Some(dot)) => comma > dot,
        (Some(_), None) => !thousands_grouped(t, ','),
        (None, Some(_)) => thousands_grouped(t, '.'),
        (None, None) => false,
    };
    let locale = if german { Locale::De } else { Locale::En };
    parse_number(t, locale).ok().filter(|a| !a.is_zero())
}

/// Whether `separator` only groups thousands in `t` (`1.190`, `12.345.678`): every group
/// after the first has three digits.
fn thousands_grouped(t: &str, separator: char) -> bool {
    let digits = t.trim_start_matches(['-', '+']);
    let mut groups = digits.split(separator);
    let first = groups.next().unwrap_or("");
    !first.is_empty() && first.len() <= 3 && groups.all(|g| g.len() == 3)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    fn d(s: &str) -> Option<Decimal> {
        Some(Decimal::from_str(s).unwrap())
    }

    #[test]
    fn amounts_are_read_as_people_type_them() {
        assert_eq!(search_amount("1.190,00"), d("1190.00"));
        assert_eq!(search_amount("1190,00 €"), d("1190.00"));
        assert_eq!(search_amount("1.190"), d("1190"));
        assert_eq!(search_amount("1,190.00"), d("1190.00"));
        assert_eq!(search_amount("1190.00"), d("1190.00"));
        assert_eq!(search_amount("119"), d("119"));
        assert_eq!(search_amount("€ 12,5"), d("12.5"));
        assert_eq!(search_amount("-50,00"), d("-50.00"));
    }

    #[test]
    fn numbers_dates_and_names_are_no_amounts() {
        for term in [
            "R2611-004",
            "12.5.2026",
            "Müller",
            "",
            "0",
            "0,00",
            "1.2.3,4,5",
            "RF18",
        ] {
            assert_eq!(search_amount(term), None, "{term}");
        }
    }
}
