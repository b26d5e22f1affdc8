//! The frame around every signed-in page (UI.md § Frame): the left navigation, the top bar
//! with the account name, a search field and the key's name with sign-out, and the page.
//!
//! The frame loads the account and the session once and offers them to pages through
//! [`AccountContext::use_context`].

use crate::api::client::{clear_key, has_key};
use crate::api::session::{get_account, get_session};
use crate::api::ApiError;
use crate::components::top_search::TopSearch;
use crate::paths::href;
use kontor_model::account::{Account, Session};
use leptos::prelude::*;
use leptos_router::components::{Outlet, Redirect, A};
use leptos_router::hooks::use_navigate;

/// The account and session loaded by the frame.
#[derive(Clone, Copy)]
pub struct AccountContext {
    /// GET /account.
    pub account: LocalResource<Result<Account, ApiError>>,
    /// GET /session.
    pub session: LocalResource<Result<Session, ApiError>>,
}

impl AccountContext {
    /// The context provided by the frame; `None` outside it (e.g. in component tests).
    pub fn use_context() -> Option<Self> {
        use_context::<AccountContext>()
    }
}

/// The frame; redirects to the sign-in page when no key is stored.
#[component]
pub fn Frame() -> impl IntoView {
    if !has_key() {
        return view! { <Redirect path="/sign-in" /> }.into_any();
    }
    let account = LocalResource::new(get_account);
    let session = LocalResource::new(get_session);
    provide_context(AccountContext { account, session });
    view! {
        <div class="frame">
            <a class="skip-link" href="#main">"Skip to content"</a>
            <SideNav />
            <div class="frame-main">
                <TopBar account=account session=session />
                <main id="main" class="page" tabindex="-1">
                    <Outlet />
                </main>
            </div>
        </div>
    }
    .into_any()
}

/// The left navigation.
#[component]
fn SideNav() -> impl IntoView {
    view! {
        <nav class="sidenav" aria-label="Main">
            <a class="brand" href=href("/dashboard")>
                "Kontor"
            </a>
            <ul>
                <li>
                    <A href=href("/dashboard")>"Dashboard"</A>
                </li>
                <li>
                    <A href=href("/invoices")>"Invoices"</A>
                </li>
                <li>
                    <A href=href("/recurring_invoices")>"Recurring invoices"</A>
                </li>
                <li>
                    <A href=href("/offers")>"Offers"</A>
                </li>
                <li>
                    <A href=href("/purchases")>"Purchases"</A>
                </li>
                <li>
                    <A href=href("/customers")>"Customers"</A>
                </li>
                <li>
                    <A href=href("/suppliers")>"Suppliers"</A>
                </li>
                <li>
                    <A href=href("/exports")>"Exports"</A>
                </li>
            </ul>
            <ul class="sidenav-end">
                <li>
                    <A href=href("/settings")>"Settings"</A>
                </li>
            </ul>
        </nav>
    }
}

/// The top bar: account name, the page-aware search ([`TopSearch`]), key name and sign-out.
#[component]
fn TopBar(
    /// The account (its name is shown).
    account: LocalResource<Result<Account, ApiError>>,
    /// The session (the key's name is shown).
    session: LocalResource<Result<Session, ApiError>>,
) -> impl IntoView {
    let navigate = use_navigate();
    let account_name = move || match account.get() {
        Some(Ok(a)) => a.name,
        Some(Err(_)) => "Kontor".into(),
        None => String::new(),
    };
    let key_name = move || match session.get() {
        Some(Ok(s)) if !s.name.is_empty() => format!(
            "{}{}",
            s.name,
            if s.read_only { " (read-only)" } else { "" }
        ),
        Some(Ok(_)) => "API key".into(),
        _ => String::new(),
    };
    let sign_out = move |_| {
        clear_key();
        navigate("/sign-in", Default::default());
    };
    view! {
        <header class="topbar">
            <span class="topbar-account">{account_name}</span>
            <TopSearch />
            <span class="topbar-user">
                <span class="topbar-key" title="Signed in with this API key">
                    {key_name}
                </span>
                <button type="button" class="btn btn-small btn-quiet" on:click=sign_out>
                    "Sign out"
                </button>
            </span>
        </header>
    }
}
