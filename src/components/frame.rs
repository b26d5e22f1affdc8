//! The frame around every signed-in page (UI.md § Frame): the left navigation, the top bar
//! with the account name, a search field and the key's name with sign-out, and the page.
//!
//! The frame loads the account's name and the session once and offers them to pages
//! through [`AccountContext::use_context`]; the whole account is loaded on a page's first
//! [`AccountContext::account`] and then shared.

use crate::api::client::has_key;
use crate::api::session::{get_account, get_account_head, get_session};
use crate::api::ApiError;
use crate::components::outbox_link::OutboxLink;
use crate::components::shortcuts::ShortcutSheet;
use crate::components::top_search::TopSearch;
use crate::components::user_menu::UserMenu;
use crate::i18n::t;
use crate::lazy::Preloads;
use crate::paths::href;
use kontor_model::account::{Account, AccountHead, Session};
use leptos::prelude::*;
use leptos_router::components::{Outlet, Redirect, A};

/// The account and session loaded by the frame.
#[derive(Clone, Copy)]
pub struct AccountContext {
    /// GET /account, the name only (the top bar).
    pub head: LocalResource<Result<AccountHead, ApiError>>,
    /// GET /session.
    pub session: LocalResource<Result<Session, ApiError>>,
    /// The whole account once a page asked for it ([`AccountContext::account`]).
    full: StoredValue<Option<LocalResource<Result<Account, ApiError>>>>,
    /// The frame's owner: the whole account lives as long as the frame, not the page.
    owner: StoredValue<Owner>,
}

impl AccountContext {
    /// The context provided by the frame; `None` outside it (e.g. in component tests).
    pub fn use_context() -> Option<Self> {
        use_context::<AccountContext>()
    }

    /// GET /account, whole: loaded on the first call and shared by every page of the frame
    /// (the first screen does not need it, so its decoder is not in the main module).
    pub fn account(&self) -> LocalResource<Result<Account, ApiError>> {
        if let Some(account) = self.full.get_value() {
            return account;
        }
        let account = self
            .owner
            .with_value(|owner| owner.with(|| LocalResource::new(get_account)));
        self.full.set_value(Some(account));
        account
    }

    /// Loads the account again (after it was saved): the name and, when loaded, the whole
    /// account.
    pub fn refetch(&self) {
        self.head.refetch();
        if let Some(account) = self.full.get_value() {
            account.refetch();
        }
    }
}

/// The frame; redirects to the sign-in page when no key is stored.
#[component]
pub fn Frame() -> impl IntoView {
    if !has_key() {
        return view! { <Redirect path="/sign-in" /> }.into_any();
    }
    let account = LocalResource::new(get_account_head);
    let session = LocalResource::new(get_session);
    provide_context(AccountContext {
        head: account,
        session,
        full: StoredValue::new(None),
        owner: StoredValue::new(Owner::current().unwrap_or_default()),
    });
    if let Some(preloads) = Preloads::use_context() {
        Effect::new(move |_| request_idle_callback(move || preloads.frame_shown.run(())));
    }
    crate::components::route_focus::focus_heading_on_route_change();
    view! {
        <div class="frame">
            <a class="skip-link" href="#main" on:click=crate::components::route_focus::skip_to_main>{t().nav().skip}</a>
            <SideNav session=session />
            <div class="frame-main">
                <TopBar account=account session=session />
                <crate::components::offline_notice::UpdateNotice />
                <crate::components::offline_notice::OfflineNotice />
                <main id="main" class="page" tabindex="-1">
                    <Outlet />
                </main>
            </div>
            <ShortcutSheet />
        </div>
    }
    .into_any()
}

/// The left navigation.
#[component]
fn SideNav(
    /// The session: "Users" and "API keys" are shown to admins only (issue 12).
    session: LocalResource<Result<Session, ApiError>>,
) -> impl IntoView {
    let admin = move || {
        session
            .get()
            .and_then(Result::ok)
            .is_some_and(|s| is_admin(&s))
    };
    view! {
        <nav class="sidenav" aria-label=t().nav().main>
            <a class="brand" href=href("/dashboard")>
                "Kontor"
            </a>
            <ul>
                <li>
                    <A href=href("/dashboard")>{t().nav().dashboard}</A>
                </li>
                <li>
                    <A href=href("/invoices")>{t().nav().invoices}</A>
                </li>
                <li>
                    <A href=href("/dunning")>{t().nav().dunning}</A>
                </li>
                <li>
                    <A href=href("/recurring_invoices")>{t().nav().recurring}</A>
                </li>
                <li>
                    <A href=href("/offers")>{t().nav().offers}</A>
                </li>
                <li>
                    <A href=href("/purchases")>{t().nav().purchases}</A>
                </li>
                <li>
                    <A href=href("/inbox")>{t().nav().inbox}</A>
                </li>
                <li>
                    <A href=href("/bank")>{t().nav().bank}</A>
                </li>
                <li>
                    <A href=href("/customers")>{t().nav().customers}</A>
                </li>
                <li>
                    <A href=href("/suppliers")>{t().nav().suppliers}</A>
                </li>
                <li>
                    <A href=href("/exports")>{t().nav().exports}</A>
                </li>
                <li>
                    <A href=href("/mail")>{t().nav().mail}</A>
                </li>
                <li>
                    <A href=href("/articles")>{t().nav().catalogue}</A>
                </li>
            </ul>
            <ul class="sidenav-end">
                <li>
                    <A href=href("/settings") exact=true>{t().nav().settings}</A>
                </li>
                <Show when=admin>
                    <li>
                        <A href=href("/settings/users")>{t().nav().users}</A>
                    </li>
                    <li>
                        <A href=href("/settings/api_keys")>{t().nav().api_keys}</A>
                    </li>
                    <li>
                        <A href=href("/settings/inbox")>{t().nav().inbox_settings}</A>
                    </li>
                </Show>
            </ul>
        </nav>
    }
}

/// The top bar: account name, the page-aware search ([`TopSearch`]), key name and sign-out.
#[component]
fn TopBar(
    /// The account (its name is shown).
    account: LocalResource<Result<AccountHead, ApiError>>,
    /// The session (the key's name is shown).
    session: LocalResource<Result<Session, ApiError>>,
) -> impl IntoView {
    let account_name = move || match account.get() {
        Some(Ok(a)) => a.name,
        Some(Err(_)) => "Kontor".into(),
        None => String::new(),
    };
    view! {
        <header class="topbar">
            <span class="topbar-account">{account_name}</span>
            <TopSearch />
            <OutboxLink session=session />
            <span class="topbar-user">
                <UserMenu session=session />
            </span>
        </header>
    }
}

/// Whether the frame's session is an admin's: `Some(true/false)` once loaded, `None`
/// while loading or outside the frame.
pub fn admin_state() -> Signal<Option<bool>> {
    let ctx = AccountContext::use_context();
    Signal::derive(move || {
        let ctx = ctx?;
        match ctx.session.get()? {
            Ok(s) => Some(is_admin(&s)),
            Err(_) => Some(false),
        }
    })
}

/// Whether the session may see the admin pages (users, API keys): its user is an admin
/// and the key may write.
pub fn is_admin(session: &Session) -> bool {
    !session.read_only
        && session
            .user
            .as_ref()
            .is_some_and(|u| u.role == kontor_model::users::Role::Admin)
}
