//! The totals of a list's filter result (issue 11 § Find and see: "a totals row for the
//! current filter per currency (net, gross, open — computed by the server)"):
//! `GET /invoices/summary`, `GET /offers/summary`, `GET /purchases/summary` take exactly
//! the list's filter parameters (paging and sorting are ignored) and answer a
//! [`ListSummary`].

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

/// The totals of one currency among the records a list filter selects.
///
/// Amounts are JSON numbers in currency units at the currency's minor-unit places (like
/// every amount of the API, `crate::wire`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CurrencyTotals {
    /// ISO 4217 currency code (`"EUR"`).
    pub currency: String,
    /// How many records of this currency the filter selects.
    pub count: i64,
    /// Sum of the records' net totals (currency units).
    #[serde(with = "crate::wire::decimal")]
    pub net_total: Decimal,
    /// Sum of the records' gross totals (currency units).
    #[serde(with = "crate::wire::decimal")]
    pub gross_total: Decimal,
    /// Sum of what is still to be paid (currency units): invoices' `open_amount`
    /// ([`crate::dashboard::open_amount`]), purchases' gross − payments (never below 0
    /// per purchase); `null` for offers, which are not paid.
    #[serde(default, with = "crate::wire::decimal_option")]
    pub open_amount: Option<Decimal>,
}

/// The answer of `GET /{invoices,offers,purchases}/summary`: one entry per currency,
/// sorted by currency code; `[]` when the filter selects nothing.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ListSummary {
    /// Per-currency totals, sorted by `currency`.
    pub totals: Vec<CurrencyTotals>,
}

impl ListSummary {
    /// The totals of `currency`, if the filter selected any record in it.
    pub fn of(&self, currency: &str) -> Option<&CurrencyTotals> {
        self.totals.iter().find(|t| t.currency == currency)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wire_form_has_numbers_and_null_open_amount() {
        let summary = ListSummary {
            totals: vec![
                CurrencyTotals {
                    currency: "CHF".into(),
                    count: 1,
                    net_total: Decimal::new(10000, 2),
                    gross_total: Decimal::new(10810, 2),
                    open_amount: None,
                },
                CurrencyTotals {
                    currency: "EUR".into(),
                    count: 12,
                    net_total: Decimal::new(100000, 2),
                    gross_total: Decimal::new(119000, 2),
                    open_amount: Some(Decimal::new(59500, 2)),
                },
            ],
        };
        let json = serde_json::to_value(&summary).unwrap();
        let eur = &json["totals"][1];
        assert_eq!(
            (
                eur["currency"].as_str(),
                eur["count"].to_string(),
                eur["net_total"].to_string(),
                eur["gross_total"].to_string(),
                eur["open_amount"].to_string()
            ),
            (
                Some("EUR"),
                "12".to_string(),
                "1000.00".to_string(),
                "1190.00".to_string(),
                "595.00".to_string()
            )
        );
        assert!(json["totals"][0]["open_amount"].is_null());
        let back: ListSummary = serde_json::from_value(json).unwrap();
        assert_eq!(back, summary);
        assert_eq!(back.of("EUR").map(|t| t.count), Some(12));
        assert!(back.of("USD").is_none());
        let empty: ListSummary = serde_json::from_str(r#"{"totals": []}"#).unwrap();
        assert!(empty.totals.is_empty());
    }
}
