//! The top bar's results of one search (issue 33 § One search): the hits of
//! `GET /search` grouped (invoices, offers, purchases, companies, contact people), each a
//! link; the field moves through them with the arrow keys (`aria-activedescendant`), Enter
//! opens the active one (the first when none is active), Escape closes the list.

use crate::components::money::format_money;
use crate::i18n::t;
use crate::paths::href;
use kontor_model::party::CompanyType;
use kontor_model::search::SearchResults;
use leptos::prelude::*;

/// One hit: its group's heading, its label, a quieter detail, and its app path.
#[derive(Clone, Debug, PartialEq)]
pub struct Hit {
    /// The group (`invoices`, …).
    pub group: &'static str,
    /// What it is called (number and title, a name).
    pub label: String,
    /// A second line (customer, amount, e-mail).
    pub detail: String,
    /// The app path it opens (without the hosting prefix).
    pub path: String,
}

fn company_path(kind: CompanyType, id: i64) -> String {
    match kind {
        CompanyType::Supplier => format!("/suppliers/{id}"),
        _ => format!("/customers/{id}"),
    }
}

/// The hits of `results` in the order shown: invoices, offers, purchases, companies,
/// contact people (a person opens their company).
pub fn hits(results: &SearchResults) -> Vec<Hit> {
    let texts = t().top_search();
    let mut out = Vec::new();
    for i in &results.invoices {
        out.push(Hit {
            group: "invoices",
            label: format!(
                "{} · {}",
                i.identifier
                    .clone()
                    .unwrap_or_else(|| texts.draft.to_string()),
                i.title
            ),
            detail: format!(
                "{} · {}",
                i.customer
                    .as_ref()
                    .map(|c| c.name.clone())
                    .unwrap_or_default(),
                format_money(i.gross_total, &i.currency)
            ),
            path: format!("/invoices/{}", i.id),
        });
    }
    for o in &results.offers {
        out.push(Hit {
            group: "offers",
            label: format!("{} · {}", o.identifier, o.title),
            detail: format_money(o.gross_total, &o.currency),
            path: format!("/offers/{}", o.id),
        });
    }
    for p in &results.purchases {
        let number = if p.receipt_identifier.trim().is_empty() {
            p.identifier.clone()
        } else {
            p.receipt_identifier.clone()
        };
        out.push(Hit {
            group: "purchases",
            label: format!("{number} · {}", p.title),
            detail: format_money(p.gross_total, &p.currency),
            path: format!("/purchases/{}", p.id),
        });
    }
    for c in &results.companies {
        out.push(Hit {
            group: "companies",
            label: c.name.clone(),
            detail: c.email.clone().unwrap_or_default(),
            path: company_path(c.kind, c.id),
        });
    }
    for p in &results.contacts {
        let Some(company) = &p.company else { continue };
        out.push(Hit {
            group: "contacts",
            label: format!("{} {}", p.firstname, p.lastname).trim().to_string(),
            detail: format!(
                "{}{}",
                company.name,
                p.email
                    .as_deref()
                    .map(|e| format!(" · {e}"))
                    .unwrap_or_default()
            ),
            // A person is shown on their company's page.
            path: format!("/customers/{}", company.id),
        });
    }
    out
}

/// The heading of `group`.
fn group_heading(group: &str) -> &'static str {
    let texts = t().top_search();
    match group {
        "invoices" => texts.group_invoices,
        "offers" => texts.group_offers,
        "purchases" => texts.group_purchases,
        "companies" => texts.group_companies,
        _ => texts.group_contacts,
    }
}

/// The id of hit `n` (for `aria-activedescendant`).
pub fn hit_id(n: usize) -> String {
    format!("search-hit-{n}")
}

/// The result list under the field (`id` = `global-search-results`): `hits` grouped,
/// `active` marked; `searching` while the answer is awaited; "Nothing found" for none.
#[component]
pub fn SearchResultsList(
    /// The hits shown.
    #[prop(into)]
    hits: Signal<Vec<Hit>>,
    /// The active hit's index.
    #[prop(into)]
    active: Signal<Option<usize>>,
    /// Called with a hit's index when it is clicked.
    on_pick: Callback<usize>,
) -> impl IntoView {
    view! {
        <div class="search-results" id="global-search-results" role="listbox"
            aria-label=t().top_search().results>
            {move || {
                let list = hits.get();
                if list.is_empty() {
                    return view! { <p class="search-results-none muted" role="status">{t().top_search().nothing}</p> }.into_any();
                }
                let mut last = "";
                list.into_iter().enumerate().map(|(n, hit)| {
                    let heading = (hit.group != last).then(|| {
                        last = hit.group;
                        view! { <p class="search-results-group" role="presentation">{group_heading(hit.group)}</p> }
                    });
                    let link = href(&hit.path);
                    view! {
                        {heading}
                        <a class="search-hit" id=hit_id(n) role="option" href=link data-group=hit.group
                            aria-selected=move || (active.get() == Some(n)).to_string()
                            class:is-active=move || active.get() == Some(n)
                            on:mousedown=|ev| ev.prevent_default()
                            on:click=move |ev| { ev.prevent_default(); on_pick.run(n); }>
                            <span class="search-hit-label">{hit.label}</span>
                            <span class="search-hit-detail muted">{hit.detail}</span>
                        </a>
                    }
                }).collect_view().into_any()
            }}
        </div>
    }
}
