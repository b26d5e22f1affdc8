//! The chart above the invoice list (issue 14 § App): for the list's filter, the open and
//! the overdue total, and for the last twelve months (by invoice date) one stacked bar per
//! month — paid, open, overdue — drawn as inline SVG (no chart library). The figures are
//! the server's (`GET /invoices/monthly`); the currency with the most open is drawn, other
//! currencies' totals are listed. [`stacked_bars`] computes the geometry from the months
//! alone, so a component test can check it.

use crate::api::invoices::get_invoice_months;
use crate::components::money::format_money;
use crate::i18n::{fill, t};
use kontor_model::query::{CurrencyMonths, InvoiceFilter, MonthAmounts};
use kontor_model::Decimal;
use leptos::prelude::*;
use rust_decimal::prelude::ToPrimitive;

/// Width of the drawing in SVG units.
pub const WIDTH: f64 = 720.0;
/// Height of the bar area in SVG units (the month labels sit below it).
pub const PLOT: f64 = 72.0;
/// Height of the whole drawing.
const HEIGHT: f64 = PLOT + 18.0;
/// Share of a month's slot the bar fills.
const FILL: f64 = 0.6;

/// One month's stacked bar in SVG units (`y` down from the top): the paid part at the
/// bottom, then open, then overdue on top; a part of 0 has height 0.
#[derive(Clone, Debug, PartialEq)]
pub struct StackedBar {
    /// The month's figures.
    pub month: MonthAmounts,
    /// Left edge.
    pub x: f64,
    /// Width.
    pub width: f64,
    /// (top, height) of the paid part.
    pub paid: (f64, f64),
    /// (top, height) of the open part.
    pub open: (f64, f64),
    /// (top, height) of the overdue part.
    pub overdue: (f64, f64),
}

/// The bars of `months` scaled so the highest month's total fills [`PLOT`]; all zero
/// when nothing was invoiced.
pub fn stacked_bars(months: &[MonthAmounts]) -> Vec<StackedBar> {
    let total = |m: &MonthAmounts| {
        [m.paid, m.open, m.overdue]
            .iter()
            .map(|v| (*v).max(Decimal::ZERO).to_f64().unwrap_or(0.0))
            .sum::<f64>()
    };
    let highest = months.iter().map(total).fold(0.0_f64, f64::max);
    let scale = if highest > 0.0 { PLOT / highest } else { 0.0 };
    let slot = WIDTH / months.len().max(1) as f64;
    months
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let h = |v: Decimal| v.max(Decimal::ZERO).to_f64().unwrap_or(0.0) * scale;
            let (paid, open, overdue) = (h(m.paid), h(m.open), h(m.overdue));
            let paid_top = PLOT - paid;
            let open_top = paid_top - open;
            StackedBar {
                month: m.clone(),
                x: i as f64 * slot + slot * (1.0 - FILL) / 2.0,
                width: slot * FILL,
                paid: (paid_top, paid),
                open: (open_top, open),
                overdue: (open_top - overdue, overdue),
            }
        })
        .collect()
}

/// The chart for `filter` (the list's filter without paging); nothing while loading or
/// when no invoice matches.
#[component]
pub fn InvoiceChart(
    /// The list's filter.
    #[prop(into)]
    filter: Signal<InvoiceFilter>,
) -> impl IntoView {
    let months = LocalResource::new(move || {
        let f = filter.get();
        async move { get_invoice_months(&f).await }
    });
    view! {
        <Suspense fallback=|| ()>
            {move || Suspend::new(async move {
                match months.await {
                    Ok(m) if !m.currencies.is_empty() => view! { <Chart currencies=m.currencies /> }.into_any(),
                    _ => ().into_any(),
                }
            })}
        </Suspense>
    }
}

/// The figures and bars of the first currency; the others' totals below.
#[component]
fn Chart(currencies: Vec<CurrencyMonths>) -> impl IntoView {
    let c = t().invoice_chart();
    let first = currencies[0].clone();
    let cur = first.currency.clone();
    let money = move |v: Decimal| format_money(v, &cur);
    let bars = stacked_bars(&first.months);
    let label = fill(
        c.summary,
        &[
            ("open", &money(first.open_amount)),
            ("overdue", &money(first.overdue_amount)),
        ],
    );
    let others = currencies[1..]
        .iter()
        .map(|o| {
            fill(
                c.other_currency,
                &[
                    ("open", &format_money(o.open_amount, &o.currency)),
                    ("overdue", &format_money(o.overdue_amount, &o.currency)),
                ],
            )
        })
        .collect::<Vec<_>>();
    let title = |m: &MonthAmounts| {
        fill(
            c.month_title,
            &[
                ("month", &m.month.to_string()),
                ("paid", &money(m.paid)),
                ("open", &money(m.open)),
                ("overdue", &money(m.overdue)),
            ],
        )
    };
    view! {
        <figure class="invoice-chart" id="invoice-chart">
            <figcaption class="invoice-chart-figures">
                <span>{c.open}" "<strong class="money" id="chart-open">{money(first.open_amount)}</strong></span>
                <span>{c.overdue}" "<strong class="money" class:is-overdue=!first.overdue_amount.is_zero() id="chart-overdue">{money(first.overdue_amount)}</strong></span>
                {others.into_iter().map(|o| view! { <span class="muted">{o}</span> }).collect_view()}
                <span class="invoice-chart-legend" aria-hidden="true">
                    <span class="key key-paid"></span>{c.paid}
                    <span class="key key-open"></span>{c.open}
                    <span class="key key-overdue"></span>{c.overdue}
                </span>
            </figcaption>
            <svg class="chart" viewBox=format!("0 0 {WIDTH} {HEIGHT}") role="img" aria-label=label>
                <line class="chart-zero" x1="0" x2=WIDTH.to_string() y1=PLOT.to_string() y2=PLOT.to_string() />
                {bars.into_iter().map(|b| {
                    let month_label = format!("{:02}/{}", b.month.month.month, b.month.month.year % 100);
                    view! {
                        <g class="chart-month" data-month=b.month.month.to_string()>
                            <title>{title(&b.month)}</title>
                            <rect class="bar-paid" x=b.x.to_string() width=b.width.to_string() y=b.paid.0.to_string() height=b.paid.1.to_string() />
                            <rect class="bar-open" x=b.x.to_string() width=b.width.to_string() y=b.open.0.to_string() height=b.open.1.to_string() />
                            <rect class="bar-overdue" x=b.x.to_string() width=b.width.to_string() y=b.overdue.0.to_string() height=b.overdue.1.to_string() />
                            <text class="chart-label" x=(b.x + b.width / 2.0).to_string() y=(HEIGHT - 3.0).to_string() text-anchor="middle">{month_label}</text>
                        </g>
                    }
                }).collect_view()}
            </svg>
        </figure>
    }
}
