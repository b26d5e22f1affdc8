//! The revenue chart (issue 11 § Find and see: "revenue per month (12 months, as a chart
//! drawn in SVG)"): one bar per month in an inline SVG, each month (bar and label) a link
//! to that month's invoices named by its figure, and the same figures as a visually
//! hidden table for screen readers.
//!
//! [`bars`] computes the geometry from the months alone, so a component test can check
//! bars and labels for a fixed data set.

use super::links;
use crate::components::money::format_money;
use crate::i18n::{fill, t};
use crate::paths::href;
use kontor_model::dashboard::{MonthRevenue, YearMonth};
use kontor_model::Decimal;
use leptos::prelude::*;
use rust_decimal::prelude::ToPrimitive;

/// Width of the drawing in SVG units.
pub const WIDTH: f64 = 720.0;
/// Height of the drawing (bars and labels) in SVG units.
pub const HEIGHT: f64 = 220.0;
/// Height of the bar area: above it room for nothing, below it the month labels.
const PLOT: f64 = 176.0;
/// Top margin of the bar area.
const TOP: f64 = 8.0;
/// Share of a month's slot the bar fills.
const FILL: f64 = 0.62;

/// One month's bar in SVG units: `x`/`width` across, `y`/`height` down from the top;
/// positive months stand on the baseline, negative ones (reversals outweighing) hang
/// below it.
#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    /// The month.
    pub month: YearMonth,
    /// Net revenue (currency units).
    pub net_total: Decimal,
    /// Left edge.
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// Bar width.
    pub width: f64,
    /// Bar height (0 for a month without revenue).
    pub height: f64,
    /// The month's short name in the user's language ("Nov", German "Dez").
    pub label: String,
    /// The year under the label, on the first bar and on January ("2026").
    pub year: Option<String>,
}

/// The short name of `month` in the user's language from the catalogue ("Oct", German
/// "Okt"; `dashboard_chart.m1`…`m12`).
pub fn month_label(month: YearMonth) -> &'static str {
    let key = format!("m{}", month.month.clamp(1, 12));
    t().dashboard_chart().get(&key).unwrap_or_default()
}

/// The month with its year ("Nov 2026", German "Dez 2026").
pub fn month_year(month: YearMonth) -> String {
    fill(
        t().dashboard_chart().month_year,
        &[
            ("month", month_label(month)),
            ("year", &month.year.to_string()),
        ],
    )
}

/// `part / whole` as a share from 0 to 1 for drawing (0 when `whole` is 0).
fn share(part: Decimal, whole: Decimal) -> f64 {
    part.checked_div(whole)
        .and_then(|s| s.to_f64())
        .unwrap_or(0.0)
        .clamp(0.0, 1.0)
}

/// The largest positive month (0 when none) and the range from the largest negative to
/// the largest positive month (net amounts in currency units; `Decimal::MAX` when the
/// sum does not fit).
fn extent(months: &[MonthRevenue]) -> (Decimal, Decimal) {
    let top = months
        .iter()
        .map(|m| m.net_total)
        .fold(Decimal::ZERO, Decimal::max);
    let bottom = months
        .iter()
        .map(|m| -m.net_total)
        .fold(Decimal::ZERO, Decimal::max);
    let range = top.checked_add(bottom).unwrap_or(Decimal::MAX);
    (top, range)
}

/// The y coordinate of the zero line: at the bottom of the bar area when nothing is
/// negative, otherwise where the largest positive and the largest negative month split
/// the height.
pub fn baseline(months: &[MonthRevenue]) -> f64 {
    let (top, range) = extent(months);
    TOP + PLOT
        * if range.is_zero() {
            1.0
        } else {
            share(top, range)
        }
}

/// The bars of `months` (oldest first): equal slots across [`WIDTH`], heights to scale
/// of the largest absolute month (all 0 when every month is 0).
pub fn bars(months: &[MonthRevenue]) -> Vec<Bar> {
    let (_, range) = extent(months);
    let zero = baseline(months);
    let slot = WIDTH / months.len().max(1) as f64;
    months
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let height = PLOT * share(m.net_total.abs(), range);
            Bar {
                month: m.month,
                net_total: m.net_total,
                x: slot * i as f64 + slot * (1.0 - FILL) / 2.0,
                y: if m.net_total < Decimal::ZERO {
                    zero
                } else {
                    zero - height
                },
                width: slot * FILL,
                height,
                label: month_label(m.month).to_string(),
                year: (i == 0 || m.month.month == 1).then(|| m.month.year.to_string()),
            }
        })
        .collect()
}

/// The chart with its hidden table. `currency` names the months' amounts.
#[component]
pub fn RevenueChart(
    /// Twelve months, oldest first (the dashboard's `revenue.months`).
    months: Vec<MonthRevenue>,
    /// Their currency (the account's default).
    currency: String,
) -> impl IntoView {
    let drawn = bars(&months);
    let zero = baseline(&months);
    let slot = WIDTH / drawn.len().max(1) as f64;
    let label_y = TOP + PLOT + 16.0;
    let texts = t().dashboard_chart();
    let marks = drawn
        .iter()
        .map(|b| {
            let center = b.x + b.width / 2.0;
            let title = fill(
                texts.bar_title,
                &[
                    ("month", &month_year(b.month)),
                    ("amount", &format_money(b.net_total, &currency)),
                ],
            );
            let label = fill(texts.bar_link, &[("title", &title)]);
            let class = if b.net_total < Decimal::ZERO {
                "chart-bar is-negative"
            } else {
                "chart-bar"
            };
            view! {
                <g class="chart-month" data-month=b.month.to_string()>
                    <a href=href(&links::invoices_of_month(b.month)) aria-label=label>
                        <title>{title}</title>
                        <rect class="chart-slot" x=b.x - slot * (1.0 - FILL) / 2.0 y=TOP width=slot height=PLOT + 28.0></rect>
                        <rect class=class x=b.x y=b.y width=b.width height=b.height.max(0.0) rx="2"></rect>
                        <text class="chart-label" x=center y=label_y text-anchor="middle">{b.label.clone()}</text>
                        {b.year.clone().map(|y| view! {
                            <text class="chart-year" x=center y=label_y + 14.0 text-anchor="middle">{y}</text>
                        })}
                    </a>
                </g>
            }
        })
        .collect_view();
    let rows = months
        .iter()
        .map(|m| {
            view! {
                <tr>
                    <th scope="row">{month_year(m.month)}</th>
                    <td>{format_money(m.net_total, &currency)}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <figure class="revenue-chart">
            <svg
                class="chart"
                viewBox=format!("0 0 {WIDTH} {HEIGHT}")
                role="group"
                aria-label=fill(texts.label, &[("currency", &currency)])
            >
                <line class="chart-zero" x1="0" x2=WIDTH y1=zero y2=zero></line>
                {marks}
            </svg>
            <table class="visually-hidden">
                <caption>{fill(texts.caption, &[("currency", &currency)])}</caption>
                <thead>
                    <tr>
                        <th scope="col">{texts.month}</th>
                        <th scope="col">{texts.net_revenue}</th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </figure>
    }
}
