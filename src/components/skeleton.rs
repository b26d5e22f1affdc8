//! Loading placeholders shaped like the content that is coming.

use crate::i18n::t;
use leptos::prelude::*;

/// A table of grey bars shown while a list loads.
#[component]
pub fn SkeletonTable(
    /// Column headings (the real table's, so the layout does not jump).
    #[prop(into)]
    headings: Vec<&'static str>,
    /// Number of placeholder rows.
    #[prop(default = 8)]
    rows: usize,
) -> impl IntoView {
    view! {
        <table class="table skeleton" aria-busy="true" aria-label=t().common().loading_label>
            <thead>
                <tr>{headings.iter().map(|h| view! { <th scope="col">{*h}</th> }).collect_view()}</tr>
            </thead>
            <tbody>
                {(0..rows)
                    .map(|_| {
                        view! {
                            <tr>
                                {headings
                                    .iter()
                                    .map(|_| view! { <td><span class="skeleton-bar"></span></td> })
                                    .collect_view()}
                            </tr>
                        }
                    })
                    .collect_view()}
            </tbody>
        </table>
    }
}

/// Grey text lines shown while a detail page loads.
#[component]
pub fn SkeletonBlock(
    /// Number of lines.
    #[prop(default = 6)]
    lines: usize,
) -> impl IntoView {
    view! {
        <div class="skeleton-block" aria-busy="true" aria-label=t().common().loading_label>
            {(0..lines).map(|_| view! { <span class="skeleton-bar"></span> }).collect_view()}
        </div>
    }
}
