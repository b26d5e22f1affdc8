//! Amounts for display: `1,234.50 EUR`, right-aligned with tabular figures by the
//! `.money` class. Formatting is [`kontor_model::money::format_amount`].

use kontor_model::money::format_amount;
use kontor_model::Decimal;
use leptos::prelude::*;

/// `amount` with the currency's places and code: `"1,234.50 EUR"`.
pub fn format_money(amount: Decimal, currency: &str) -> String {
    format!("{} {}", format_amount(amount, currency), currency)
}

/// An amount with its currency, e.g. `1,234.50 EUR`.
#[component]
pub fn Money(
    /// The amount in currency units.
    #[prop(into)]
    amount: Signal<Decimal>,
    /// The currency code (decides the number of places).
    #[prop(into)]
    currency: Signal<String>,
) -> impl IntoView {
    view! { <span class="money">{move || currency.with(|c| format_money(amount.get(), c))}</span> }
}
