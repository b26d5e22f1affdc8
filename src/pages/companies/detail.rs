//! A customer's or supplier's page: header with name, status and the actions (edit,
//! archive / restore, delete with confirmation — the server's 422 says what still
//! references it), the master data, contacts, projects (customers) and the company's
//! documents with their open amounts.

use super::detail_contacts::ContactsSection;
use super::detail_documents::DocumentsSection;
use super::detail_projects::ProjectsSection;
use super::list::active_badge;
use super::{base_path, country_label, plural};
use crate::api::companies::{delete_company, get_company, set_company_active};
use crate::components::audit_history::AuditHistory;
use crate::components::dialog::Dialog;
use crate::components::error_panel::loaded_view;
use crate::components::route_record::{route_record, use_route_id};
use crate::components::task::Task;
use crate::components::toast::Toasts;
use crate::i18n::{fill, t};
use crate::paths::href;
use kontor_model::party::{Company, CompanyType, EinvoiceFormat};
use leptos::prelude::*;
use leptos_router::hooks::use_navigate;

/// The route's `:id` as a number.
pub fn use_company_id() -> Memo<Option<i64>> {
    use_route_id()
}

/// `/customers/:id`, `/suppliers/:id`.
#[component]
pub fn CompanyDetail(
    /// Customers or suppliers.
    kind: CompanyType,
) -> impl IntoView {
    let id = use_company_id();
    let company = route_record(id, || t().company_detail().invalid_address, get_company);
    let reload = Callback::new(move |_: ()| company.refetch());
    view! {
        <p class="breadcrumb"><a href=href(base_path(kind))>{format!("← {}", plural(kind))}</a></p>
        {loaded_view(company, 10, move |c| view! { <CompanyView kind=kind company=c on_changed=reload /> })}
    }
}

/// One loaded company.
#[component]
fn CompanyView(kind: CompanyType, company: Company, on_changed: Callback<()>) -> impl IntoView {
    let toasts = Toasts::use_context();
    let navigate = use_navigate();
    let id = company.id;
    let active = company.active;
    let base = base_path(kind);
    let task = Task::new();
    let delete_open = RwSignal::new(false);
    let delete_error = RwSignal::new(None::<String>);
    let toggle_active = move || {
        task.run(
            set_company_active(id, !active),
            move |answer| match answer {
                Ok(c) => {
                    delete_open.set(false);
                    let text = if c.active {
                        t().company_detail().restored
                    } else {
                        t().company_detail().archived
                    };
                    toasts.success(fill(text, &[("name", &c.name)]));
                    on_changed.run(());
                }
                Err(e) => toasts.error(e.message),
            },
        );
    };
    let name = company.name.clone();
    let confirm_delete = Callback::new(move |_: ()| {
        let navigate = navigate.clone();
        let name = name.clone();
        task.run(delete_company(id), move |answer| match answer {
            Ok(()) => {
                toasts.success(fill(t().company_detail().deleted, &[("name", &name)]));
                navigate(base, Default::default());
            }
            Err(e) => delete_error.set(Some(e.message)),
        });
    });
    // After a refusal the dialog says why and offers archiving instead.
    let refused = move || delete_error.with(Option::is_some);
    let delete_text = move || {
        delete_error
            .get()
            .unwrap_or_else(|| t().company_detail().delete_text.into())
    };
    let kind_label = match kind {
        CompanyType::Supplier => t().common().supplier,
        _ => t().common().customer,
    };
    view! {
        <div class="page-head detail-head">
            <div class="detail-title">
                <h1>{company.name.clone()} " " {active_badge(active)}</h1>
                <p class="detail-facts">
                    <span>{kind_label}</span>
                    {company.country_code.clone().map(|c| view! { <span class="detail-sep">"·"</span><span>{country_label(&c)}</span> })}
                    {company.email.clone().map(|e| view! { <span class="detail-sep">"·"</span><span>{e}</span> })}
                </p>
            </div>
            <div class="page-actions">
                <a class="btn btn-primary" href=href(&format!("{base}/{id}/edit"))>{t().common().edit}</a>
                <button type="button" class="btn" id="company-archive" disabled=move || task.pending.get() on:click=move |_| toggle_active()>
                    {if active { t().company_detail().archive } else { t().company_detail().restore }}
                </button>
                <button type="button" class="btn btn-danger-quiet" id="company-delete" on:click=move |_| { delete_error.set(None); delete_open.set(true); }>
                    {t().common().delete}
                </button>
            </div>
        </div>
        <MasterData company=company.clone() />
        <ContactsSection company_id=id />
        {(kind == CompanyType::Customer).then(|| view! { <ProjectsSection company=company.clone() /> })}
        <DocumentsSection kind=kind company_id=id />
        <AuditHistory record_type="company" record_id=id />
        <Dialog open=delete_open title=fill(t().company_detail().delete_title, &[("name", &company.name)])>
            <p class="confirm-text" role=move || refused().then_some("alert")>{delete_text}</p>
            <div class="dialog-actions">
                <button type="button" class="btn" on:click=move |_| delete_open.set(false)>{t().common().cancel}</button>
                {move || if refused() {
                    (active).then(|| view! {
                        <button type="button" class="btn btn-primary" id="company-archive-instead" autofocus
                            disabled=move || task.pending.get() on:click=move |_| toggle_active()>{t().company_detail().archive_instead}</button>
                    }).into_any()
                } else {
                    view! {
                        <button type="button" class="btn btn-danger" id="company-delete-confirm" autofocus
                            disabled=move || task.pending.get() on:click=move |_| confirm_delete.run(())>{t().common().delete}</button>
                    }.into_any()
                }}
            </div>
        </Dialog>
    }
}

/// The facts of the company (its master data).
#[component]
pub fn MasterData(
    /// The company shown.
    company: Company,
) -> impl IntoView {
    let tx = t().company_detail();
    let fact = |label: &'static str, value: Option<String>| {
        value
            .filter(|v| !v.trim().is_empty())
            .map(|v| view! { <div><dt>{label}</dt><dd class="pre-line">{v}</dd></div> })
    };
    let pct = |d: Option<rust_decimal::Decimal>| {
        d.map(|d| {
            format!(
                "{} %",
                crate::components::locale::format_input(d.normalize())
            )
        })
    };
    let c = company;
    let vat = &c.customer_vat;
    let treatment = if vat.reverse_charge {
        Some(tx.reverse_charge.to_string())
    } else if vat.intra_eu {
        Some(tx.intra_eu.to_string())
    } else {
        None
    };
    let cash = c.default_cash_discount.map(|d| {
        let percent = crate::components::locale::format_input(d.normalize());
        match c.default_cash_discount_days {
            Some(n) => fill(
                tx.cash_discount_within,
                &[("percent", &percent), ("days", &n.to_string())],
            ),
            None => format!("{percent} %"),
        }
    });
    let days = |n: i64| {
        if n == 1 {
            tx.days_one.to_string()
        } else {
            fill(tx.days_other, &[("n", &n.to_string())])
        }
    };
    // Only a choice other than the default PDF is worth a line.
    let einvoice_format = match c.einvoice_format {
        EinvoiceFormat::Pdf => None,
        EinvoiceFormat::XrechnungCii => Some("XRechnung CII".to_string()),
        EinvoiceFormat::XrechnungUbl => Some("XRechnung UBL".to_string()),
    };
    view! {
        <section class="section" aria-labelledby="sec-master">
            <h2 class="section-title" id="sec-master">{tx.master_data}</h2>
            <dl class="facts">
                {fact(tx.address, Some(c.address.clone()))}
                {fact(tx.country, c.country_code.clone().map(|code| format!("{} ({code})", country_label(&code))))}
                {fact(tx.billing_email, c.email.clone())}
                {fact(tx.billing_cc, c.billing_email_cc.clone())}
                {fact(tx.billing_contact, c.billing_contact.as_ref().map(|b| b.name.clone()))}
                {fact(tx.phone, c.phone.clone())}
                {fact(tx.website, c.website.clone())}
                {fact(tx.vat_id, c.vat_identifier.clone())}
                {fact(tx.tax_number, c.tax_number.clone())}
                {fact(tx.iban, c.iban.as_deref().map(grouped))}
                {fact(tx.bic, c.bic.clone())}
                {fact(tx.buyer_reference, c.buyer_reference.clone())}
                {fact(tx.einvoice_address, c.electronic_address.clone())}
                {fact(tx.invoices_as, einvoice_format)}
                {fact(tx.sepa_mandate, c.sepa_mandate_reference.clone())}
                {fact(tx.currency, c.currency.clone())}
                {fact(tx.payment_term, c.default_invoice_due_days.or(c.payment_term_days).map(days))}
                {fact(tx.vat, pct(vat.tax))}
                {fact(tx.vat_treatment, treatment)}
                {fact(tx.discount, pct(c.default_discount))}
                {fact(tx.cash_discount, cash)}
                {fact(tx.document_language, Some(if c.language.as_str() == "en" { tx.english } else { tx.german }.to_string()))}
                {fact(tx.tags, Some(c.tags.join(", ")))}
                {fact(tx.notes, c.info.clone())}
                {c.custom_properties.iter().map(|(name, value)| view! {
                    <div class="custom-property"><dt>{name.clone()}</dt><dd class="pre-line">{value.clone()}</dd></div>
                }).collect_view()}
            </dl>
        </section>
    }
}

/// An IBAN in groups of four for reading (`DE89 3704 0044 …`).
fn grouped(iban: &str) -> String {
    let compact: Vec<char> = iban.chars().filter(|c| !c.is_whitespace()).collect();
    compact
        .chunks(4)
        .map(|c| c.iter().collect::<String>())
        .collect::<Vec<_>>()
        .join(" ")
}
