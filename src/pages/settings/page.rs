//! `/settings`: the account's own data in seven sections (Company, Bank, E-invoices,
//! Documents, Taxes and defaults, E-mail, DATEV) and the dunning levels (issue 33), each with its own Save (`PUT /account` with that section's
//! fields only). Leaving with unsaved changes in any section asks first. A read-only key,
//! and anyone who is not an administrator (issue 34), sees everything disabled with a note
//! saying who can change it.

use super::documents::DocumentsSection;
use super::dunning::DunningSection;
use super::email::EmailSection;
use super::env::{account_json, SettingsEnv};
use super::field_spec::Text;
use super::fields::{FieldGrid, SectionCard};
use super::section::Section;
use super::specs::{BANK, COMPANY, DATEV, DOCUMENTS, EINVOICE, EMAIL, TAXES};
use crate::api::session::{get_account, get_session};
use crate::api::ApiError;
use crate::components::audit_history::AuditHistory;
use crate::components::error_panel::ErrorPanel;
use crate::components::leave_guard::use_snapshot_guard;
use crate::components::skeleton::SkeletonBlock;
use crate::i18n::t;
use kontor_model::account::Account;
use leptos::prelude::*;

/// Why the settings are shown read-only, if they are.
#[derive(Clone, Copy, PartialEq)]
enum ReadOnly {
    /// An administrator with a key that may write: everything can be changed.
    No,
    /// A read-only key.
    Key,
    /// A person without the admin role (staff, read-only): only administrators change the
    /// settings (`PUT /account` needs the admin role).
    Role,
}

async fn load() -> Result<(Account, ReadOnly), ApiError> {
    let (account, session) = futures::try_join!(get_account(), get_session())?;
    let read_only = if session.read_only {
        ReadOnly::Key
    } else if !crate::components::frame::is_admin(&session) {
        ReadOnly::Role
    } else {
        ReadOnly::No
    };
    Ok((account, read_only))
}

/// `/settings`.
#[component]
pub fn SettingsPage() -> impl IntoView {
    let data = LocalResource::new(load);
    view! {
        <div class="page-head">
            <h1>{t().nav().settings}</h1>
            <SectionIndex />
        </div>
        <Transition fallback=|| view! { <SkeletonBlock lines=14 /> }>
            {move || Suspend::new(async move {
                match data.await {
                    Err(error) => view! { <ErrorPanel error=error on_retry=Callback::new(move |_| data.refetch()) /> }.into_any(),
                    Ok((account, read_only)) => view! { <SettingsForms account=account read_only=read_only /> }.into_any(),
                }
            })}
        </Transition>
        <AuditHistory record_type="account_settings" record_id=1 />
    }
}

/// The sections, for the index under the title: `(card id, name)`.
const SECTIONS: [(&str, Text); 8] = [
    ("settings-company", |c| c.settings_page().company),
    ("settings-bank", |c| c.settings_page().bank),
    ("settings-einvoice", |c| c.settings_page().einvoice),
    ("settings-documents", |c| c.settings_page().documents),
    ("settings-taxes", |c| c.settings_page().taxes),
    ("settings-email", |c| c.settings_page().email),
    ("settings-datev", |c| c.settings_page().datev),
    ("settings-dunning", |c| c.dunning_settings().title),
];

/// Buttons that scroll to each section (buttons, not links: the leave guard asks before
/// following links).
#[component]
fn SectionIndex() -> impl IntoView {
    let go = |id: &'static str| {
        move |_| {
            if let Some(el) = document().get_element_by_id(id) {
                el.scroll_into_view();
                if let Some(first) = el
                    .query_selector("input:not([type=file]), select, textarea")
                    .ok()
                    .flatten()
                {
                    let _ =
                        wasm_bindgen::JsCast::unchecked_into::<web_sys::HtmlElement>(first).focus();
                }
            }
        }
    };
    view! {
        <nav class="settings-index" aria-label=t().settings_page().sections>
            {SECTIONS
                .iter()
                .map(|(id, name)| view! {
                    <button type="button" class="btn btn-small btn-quiet" on:click=go(id)>{name(t())}</button>
                })
                .collect_view()}
        </nav>
    }
}

/// The seven sections, once the account is loaded.
#[component]
fn SettingsForms(
    /// The account as loaded.
    account: Account,
    /// Whether and why nothing can be changed.
    read_only: ReadOnly,
) -> impl IntoView {
    let why = read_only;
    let read_only = read_only != ReadOnly::No;
    let json = account_json(&account);
    let company = Section::new(COMPANY, &json);
    let bank = Section::new(BANK, &json);
    let einvoice = Section::new(EINVOICE, &json);
    let documents = Section::new(DOCUMENTS, &json);
    let taxes = Section::new(TAXES, &json);
    let email = Section::new(EMAIL, &json);
    let datev = Section::new(DATEV, &json);
    let smtp_on = RwSignal::new(!json["smtp"].is_null());
    let smtp_saved = RwSignal::new(smtp_on.get_untracked());
    let sections = [company, bank, einvoice, documents, taxes, email, datev];
    let guard_smtp = move || smtp_on.get() != smtp_saved.get();
    use_snapshot_guard(Callback::new(move |_| {
        let dirty: Vec<String> = sections
            .iter()
            .enumerate()
            .filter(|(_, s)| s.is_dirty())
            .map(|(i, _)| i.to_string())
            .collect();
        format!(
            "{}{}",
            dirty.join(","),
            if guard_smtp() { "smtp" } else { "" }
        )
    }));
    let env = SettingsEnv::new(account, read_only);
    let (validate, read_only) = (env.validate, env.read_only);
    let texts = t().settings_page();
    let (save_company, company_pending) = env.saver(company, texts.company_saved_as, None);
    let (save_bank, bank_pending) = env.saver(bank, texts.bank_saved_as, None);
    let (save_einvoice, einvoice_pending) = env.saver(einvoice, texts.einvoice_saved_as, None);
    let (save_datev, datev_pending) = env.saver(datev, texts.datev_saved_as, None);
    let (save_taxes, taxes_pending) = env.saver(taxes, texts.taxes_saved_as, None);
    view! {
        {move || read_only.get().then(|| view! {
            <p class="notice" role="status" id="settings-read-only">
                {if why == ReadOnly::Key { t().settings_page().read_only } else { t().settings_page().admins_only }}
            </p>
        })}
        <div class="settings">
            <SectionCard id="settings-company" title=texts.company section=company validate=validate
                intro=texts.company_intro
                on_save=save_company pending=company_pending read_only=read_only>
                <FieldGrid section=company />
            </SectionCard>
            <SectionCard id="settings-bank" title=texts.bank section=bank validate=validate
                intro=texts.bank_intro
                on_save=save_bank pending=bank_pending read_only=read_only>
                <FieldGrid section=bank />
            </SectionCard>
            <SectionCard id="settings-einvoice" title=texts.einvoice section=einvoice validate=validate
                intro=texts.einvoice_intro
                on_save=save_einvoice pending=einvoice_pending read_only=read_only>
                <FieldGrid section=einvoice />
            </SectionCard>
            <DocumentsSection section=documents account=json.clone() env=env />
            <SectionCard id="settings-taxes" title=texts.taxes section=taxes validate=validate
                intro=texts.taxes_intro
                on_save=save_taxes pending=taxes_pending read_only=read_only>
                <FieldGrid section=taxes />
            </SectionCard>
            <EmailSection section=email smtp_on=smtp_on smtp_saved=smtp_saved
                account_email=json["email"].as_str().unwrap_or_default().to_string()
                password_set=json["smtp"]["password_set"].as_bool().unwrap_or(false) env=env />
            <SectionCard id="settings-datev" title=texts.datev section=datev validate=validate
                intro=texts.datev_intro
                on_save=save_datev pending=datev_pending read_only=read_only>
                <FieldGrid section=datev />
            </SectionCard>
            <DunningSection read_only=read_only />
        </div>
    }
}
