//! The customer / supplier picker of the invoice, offer and purchase forms: a combobox
//! that searches the server as the user types (`GET /companies?term=…&type=…&active=true`,
//! 250 ms after typing stops, the previous request aborted), and a last entry
//! "New customer…" / "New supplier…" that opens [`CompanyDialog`]; the company created
//! there is picked.
//!
//! The input carries `data-company-id` with the picked id (empty when none), so a page
//! (or a test) can read the choice without knowing the name.
//!
//! With `filter` set (the list filters, e.g. the purchase list's supplier filter) the
//! picker has no "New …" entry; its first entry "All suppliers" / "All customers" clears
//! the choice, and archived companies are found too (their old documents stay findable);
//! a "×" button beside the input clears a chosen company.

use crate::api::companies::{get_company_as, list_companies, search_filter};
use crate::api::ApiError;
use crate::components::company_dialog::CompanyDialog;
use crate::components::debounce::Debounce;
use crate::i18n::t;
use kontor_model::party::{Company, CompanyRef, CompanyType};
use leptos::prelude::*;
use leptos::task::spawn_local_scoped_with_cancellation;
use std::time::Duration;

/// How long typing must pause before the server is asked.
pub const SEARCH_DELAY: Duration = Duration::from_millis(250);

/// The picker's last entry: "New customer…", "New supplier…" or "New company…".
pub fn new_entry_label(kind: CompanyType) -> &'static str {
    match kind {
        CompanyType::Customer => t().company_form().new_customer_entry,
        CompanyType::Supplier => t().company_form().new_supplier_entry,
        CompanyType::Organization => t().company_form().new_company_entry,
    }
}

/// What a picker lists and hands over: the whole [`Company`] (the forms, which take over
/// its defaults; with a "New …" entry and [`CompanyDialog`]) or the slim [`CompanyRef`]
/// (the list filters; no dialog, so none of its code is in the main module).
pub trait PickedCompany:
    serde::de::DeserializeOwned + Clone + PartialEq + Send + Sync + 'static
{
    /// The company's id.
    fn id(&self) -> i64;
    /// Its name.
    fn name(&self) -> &str;
    /// The line shown under the name (the e-mail address), if any.
    fn detail(&self) -> Option<&str>;
    /// The "New …" dialog creating a company of `kind`, starting with `name`; `None` for
    /// pickers that cannot create.
    fn new_dialog(
        open: RwSignal<bool>,
        kind: CompanyType,
        name: RwSignal<String>,
        on_created: Callback<Self>,
    ) -> Option<AnyView>;
}

/// [`PickedCompany`]'s id, name and detail (the e-mail) of a record with the fields
/// `id`, `name` and `email`.
macro_rules! picked_fields {
    () => {
        fn id(&self) -> i64 {
            self.id
        }
        fn name(&self) -> &str {
            &self.name
        }
        fn detail(&self) -> Option<&str> {
            self.email.as_deref()
        }
    };
}

impl PickedCompany for Company {
    picked_fields!();
    fn new_dialog(
        open: RwSignal<bool>,
        kind: CompanyType,
        name: RwSignal<String>,
        on_created: Callback<Company>,
    ) -> Option<AnyView> {
        Some(
            view! { <CompanyDialog open=open kind=kind name=name on_created=on_created /> }
                .into_any(),
        )
    }
}

impl PickedCompany for CompanyRef {
    picked_fields!();
    fn new_dialog(
        _: RwSignal<bool>,
        _: CompanyType,
        _: RwSignal<String>,
        _: Callback<CompanyRef>,
    ) -> Option<AnyView> {
        None
    }
}

/// What the list below the input shows.
#[derive(Clone, Debug, PartialEq)]
enum Found<C> {
    /// A search is under way.
    Searching,
    /// The answer (the first page).
    Companies(Vec<C>),
    /// The search failed.
    Failed(String),
}

/// A searching company picker with inline creation (for `C` = [`Company`]).
#[component]
pub fn CompanyPicker<C: PickedCompany>(
    /// Id of the text input (the label's `for`), e.g. `f-customer_id`.
    id: &'static str,
    /// Customers or suppliers: what is searched and what "New …" creates.
    kind: CompanyType,
    /// The chosen company's id (from the form state); the picker shows its name.
    #[prop(into)]
    value: Signal<Option<i64>>,
    /// Called with the company picked from the list or just created, or `None` when the
    /// input is cleared.
    on_pick: Callback<Option<C>>,
    /// Marks the input invalid (a field error is shown).
    #[prop(optional, into)]
    invalid: Signal<bool>,
    /// A list filter: a first entry "All …" that clears (`on_pick(None)`), no "New …"
    /// entry and no dialog, archived companies included in the search.
    #[prop(optional)]
    filter: bool,
) -> impl IntoView {
    // Entries before the companies ("All …") and after them ("New …").
    let lead = usize::from(filter);
    let tail = usize::from(!filter);
    let text = RwSignal::new(String::new());
    // The id and name shown for the chosen company.
    let known = RwSignal::new(None::<(i64, String)>);
    let open = RwSignal::new(false);
    let active = RwSignal::new(None::<usize>);
    let found = RwSignal::new(Found::<C>::Companies(Vec::new()));
    let dialog_open = RwSignal::new(false);
    let dialog_name = RwSignal::new(String::new());
    let debounce = Debounce::new(SEARCH_DELAY);
    let parent = StoredValue::new(Owner::current());
    // The owner of the running search; cleaning it up aborts its request.
    let search_owner = StoredValue::new(None::<Owner>);

    // A choice made elsewhere (a deal, a project, an offer, the draft being edited):
    // show its name, loading it when needed.
    Effect::new(move |_| {
        let id = value.get();
        let shown = known.with_untracked(|k| k.as_ref().map(|(i, _)| *i));
        match id {
            None if shown.is_some() => {
                known.set(None);
                text.set(String::new());
            }
            Some(id) if shown != Some(id) => {
                spawn_local_scoped_with_cancellation(async move {
                    if let Ok(c) = get_company_as::<CompanyRef>(id).await {
                        if value.get_untracked() == Some(id) {
                            text.set(c.name.clone());
                            known.set(Some((id, c.name)));
                        }
                    }
                });
            }
            _ => {}
        }
    });

    let search = move |term: String| {
        if let Some(previous) = search_owner.try_update_value(Option::take).flatten() {
            previous.cleanup();
        }
        found.set(Found::Searching);
        let owner = parent.with_value(|p| match p {
            Some(p) => p.with(Owner::new),
            None => Owner::new(),
        });
        owner.with(|| {
            spawn_local_scoped_with_cancellation(async move {
                let mut query = search_filter(kind, &term);
                if filter {
                    query.active = None;
                }
                let answer: Result<_, ApiError> = list_companies(&query).await;
                match answer {
                    Ok(page) => found.set(Found::Companies(page.items)),
                    Err(e) if e.message.contains("cancelled") => {}
                    Err(e) => found.set(Found::Failed(e.message)),
                }
            })
        });
        search_owner.set_value(Some(owner));
        active.set(None);
    };
    let companies = move || match found.get() {
        Found::Companies(list) => list,
        _ => Vec::new(),
    };
    // Entries: "All …" (filter), the companies found, then "New …" (not in a filter).
    let entry_count = move || {
        lead + found.with(|f| {
            if let Found::Companies(l) = f {
                l.len()
            } else {
                0
            }
        }) + tail
    };

    let pick = move |company: C| {
        text.set(company.name().to_string());
        known.set(Some((company.id(), company.name().to_string())));
        open.set(false);
        on_pick.run(Some(company));
    };
    let start_new = move || {
        let typed = text.get_untracked();
        let is_known = known.with_untracked(|k| k.as_ref().is_some_and(|(_, n)| *n == typed));
        dialog_name.set(if is_known { String::new() } else { typed });
        open.set(false);
        dialog_open.set(true);
    };
    let clear = move || {
        text.set(String::new());
        known.set(None);
        open.set(false);
        on_pick.run(None);
    };
    let choose = move |index: usize| {
        if index < lead {
            return clear();
        }
        let list = companies();
        match list.get(index - lead) {
            Some(c) => pick(c.clone()),
            None if filter => {}
            None => start_new(),
        }
    };
    let show_list = move || {
        if !open.get_untracked() {
            open.set(true);
            search(text.get_untracked());
        }
    };
    let on_input = move |ev: leptos::ev::Event| {
        let typed = event_target_value(&ev);
        text.set(typed.clone());
        open.set(true);
        found.set(Found::Searching);
        if typed.trim().is_empty() && known.with_untracked(Option::is_some) {
            known.set(None);
            on_pick.run(None);
        }
        debounce.call(move || search(typed));
    };
    let on_keydown = move |ev: leptos::ev::KeyboardEvent| {
        let count = entry_count();
        match ev.key().as_str() {
            "ArrowDown" => {
                ev.prevent_default();
                if !open.get_untracked() {
                    show_list();
                    return;
                }
                active.update(|a| *a = Some(a.map_or(0, |i| (i + 1) % count)));
            }
            "ArrowUp" => {
                ev.prevent_default();
                active.update(|a| *a = Some(a.map_or(count - 1, |i| (i + count - 1) % count)));
            }
            "Enter" if open.get_untracked() => {
                ev.prevent_default();
                if let Some(i) = active.get_untracked() {
                    choose(i);
                }
            }
            "Escape" if open.get_untracked() => {
                ev.prevent_default();
                ev.stop_propagation();
                open.set(false);
            }
            _ => {}
        }
    };
    // Leaving the input: the text goes back to the chosen company's name.
    let on_blur = move |_| {
        open.set(false);
        debounce.cancel();
        let name = known.with_untracked(|k| k.as_ref().map(|(_, n)| n.clone()));
        text.set(name.unwrap_or_default());
    };
    let list_id = format!("{id}-list");
    let option_id = move |i: usize| format!("{id}-opt-{i}");
    let activedescendant = move || active.get().filter(|_| open.get()).map(option_id);
    let new_label = new_entry_label(kind);
    let all_label = match kind {
        CompanyType::Supplier => t().company_form().all_suppliers,
        CompanyType::Customer => t().company_form().all_customers,
        CompanyType::Organization => t().company_form().all_companies,
    };
    let clear_label = match kind {
        CompanyType::Supplier => t().company_form().clear_supplier,
        CompanyType::Customer => t().company_form().clear_customer,
        CompanyType::Organization => t().company_form().clear_company,
    };
    let placeholder = match kind {
        _ if filter => all_label,
        CompanyType::Supplier => t().company_form().search_suppliers,
        _ => t().company_form().search_customers,
    };
    let on_created = Callback::new(move |c: C| pick(c));
    view! {
        <div class="combo">
            <input
                id=id
                type="text"
                role="combobox"
                autocomplete="off"
                placeholder=placeholder
                aria-autocomplete="list"
                aria-controls=list_id.clone()
                aria-expanded=move || open.get().to_string()
                aria-activedescendant=activedescendant
                aria-invalid=move || invalid.get().then_some("true")
                data-company-id=move || value.get().map(|v| v.to_string()).unwrap_or_default()
                prop:value=move || text.get()
                on:input=on_input
                on:keydown=on_keydown
                on:click=move |_| show_list()
                on:blur=on_blur
            />
            {filter.then(|| view! {
                <button type="button" class="combo-clear-button" hidden=move || value.get().is_none()
                    aria-label=clear_label title=clear_label
                    on:click=move |_| clear()>
                    "×"
                </button>
            })}
            <ul class="combo-list" id=list_id role="listbox" aria-label=placeholder hidden=move || !open.get()>
                {move || match found.get() {
                    Found::Searching => Some(view! { <li class="combo-status" aria-live="polite">{t().company_form().searching}</li> }.into_any()),
                    Found::Failed(message) => Some(view! { <li class="combo-status combo-error">{message}</li> }.into_any()),
                    Found::Companies(list) if list.is_empty() => Some(view! { <li class="combo-status">{t().company_form().no_match}</li> }.into_any()),
                    Found::Companies(_) => None,
                }}
                {filter.then(|| view! {
                    <li role="option" id=option_id(0) class="combo-option combo-clear"
                        class:is-active=move || active.get() == Some(0)
                        aria-selected=move || (active.get() == Some(0)).to_string()
                        on:mousedown=move |ev| { ev.prevent_default(); clear(); }>
                        {all_label}
                    </li>
                })}
                {move || companies().into_iter().enumerate().map(|(i, c)| {
                    let i = i + lead;
                    let name = c.name().to_string();
                    let detail = c.detail().unwrap_or_default().to_string();
                    view! {
                        <li role="option" id=option_id(i) class="combo-option"
                            class:is-active=move || active.get() == Some(i)
                            aria-selected=move || (active.get() == Some(i)).to_string()
                            data-id=c.id().to_string()
                            on:mousedown=move |ev| { ev.prevent_default(); pick(c.clone()); }>
                            <span class="combo-name">{name}</span>
                            <span class="combo-detail">{detail}</span>
                        </li>
                    }
                }).collect_view()}
                {move || (!filter).then(|| {
                    let i = entry_count() - 1;
                    view! {
                        <li role="option" id=option_id(i) class="combo-option combo-new"
                            class:is-active=move || active.get() == Some(i)
                            aria-selected=move || (active.get() == Some(i)).to_string()
                            on:mousedown=move |ev| { ev.prevent_default(); start_new(); }>
                            {new_label}
                        </li>
                    }
                })}
            </ul>
        </div>
        {(!filter).then(|| C::new_dialog(dialog_open, kind, dialog_name, on_created))}
    }
}
