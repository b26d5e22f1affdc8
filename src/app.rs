//! The app root: toasts, the router (with the base path read at runtime, see
//! [`crate::paths`]) and the one table of routes.
//!
//! The sign-in page is in the main module; the frame and every page are lazy routes
//! ([`crate::lazy`]) whose code is a chunk of its own in the release build, loaded on
//! first use or fetched ahead ([`Preloads`]); see `docs/decisions.md` § Route chunks
//! (issue 13).

use crate::api::client::has_key;
use crate::api::client::set_unauthorized_handler;
use crate::components::frame::Frame;
use crate::components::toast::{ToastHost, Toasts};
use crate::lazy::{lazy_route, Preloads};
use crate::pages::admin::{ApiKeysPage, InboxSettingsPage, UsersPage};
use crate::pages::approval::ApprovalPage;
use crate::pages::bank::BankPage;
use crate::pages::catalogue::CataloguePage;
use crate::pages::companies::{CompanyCreate, CompanyDetail, CompanyEdit, CompanyList};
use crate::pages::dashboard::DashboardPage;
use crate::pages::dunning::DunningPage;
use crate::pages::exports::ExportsPage;
use crate::pages::forgot_password::ForgotPasswordPage;
use crate::pages::inbox::InboxPage;
use crate::pages::invoices::{InvoiceCreate, InvoiceDetail, InvoiceEdit, InvoiceList};
use crate::pages::mail::MailPage;
use crate::pages::offers::{OfferCreate, OfferDetail, OfferEdit, OfferList};
use crate::pages::outbox::OutboxPage;
use crate::pages::placeholder::NotFound;
use crate::pages::purchases::{PurchaseCreate, PurchaseDetail, PurchaseEdit, PurchaseList};
use crate::pages::recurring::{RecurringCreate, RecurringDetail, RecurringEdit, RecurringList};
use crate::pages::set_password::SetPasswordPage;
use crate::pages::settings::SettingsPage;
use crate::pages::setup::SetupPage;
use crate::pages::sign_in::SignIn;
use crate::paths::router_base;
use kontor_model::party::CompanyType;
use leptos::prelude::*;
use leptos_router::components::{ParentRoute, Redirect, Route, Router, Routes};
use leptos_router::hooks::use_navigate;
use leptos_router::path;

const CUSTOMER: CompanyType = CompanyType::Customer;
const SUPPLIER: CompanyType = CompanyType::Supplier;

// The lazy routes and their chunks (one chunk per area of the app; an area whose chunk
// grew over the 120 kB budget is split by page kind — forms, settings sections — issue 35).
lazy_route!(SETUP_ROUTE, chunk = kontor_setup, fn = setup_chunk, view! { <SetupPage /> });
lazy_route!(SET_PASSWORD_ROUTE, chunk = kontor_setup, fn = set_password_chunk, view! { <SetPasswordPage /> });
lazy_route!(FORGOT_PASSWORD_ROUTE, chunk = kontor_setup, fn = forgot_password_chunk, view! { <ForgotPasswordPage /> });
lazy_route!(APPROVAL_ROUTE, chunk = kontor_approval, fn = approval_chunk, view! { <ApprovalPage /> });
lazy_route!(FRAME_ROUTE, chunk = kontor_frame, fn = frame_chunk, preload = frame_preload, view! { <Frame /> });
lazy_route!(INVOICE_LIST_ROUTE, chunk = kontor_invoice_list, fn = invoice_list_chunk, preload = invoice_list_preload, view! { <InvoiceList /> });
lazy_route!(DASHBOARD_ROUTE, chunk = kontor_dashboard, fn = dashboard_chunk, preload = dashboard_preload, view! { <DashboardPage /> });
lazy_route!(INVOICE_CREATE_ROUTE, chunk = kontor_invoice_form, fn = invoice_create_chunk, view! { <InvoiceCreate /> });
lazy_route!(INVOICE_EDIT_ROUTE, chunk = kontor_invoice_form, fn = invoice_edit_chunk, view! { <InvoiceEdit /> });
lazy_route!(INVOICE_DETAIL_ROUTE, chunk = kontor_invoice_detail, fn = invoice_detail_chunk, view! { <InvoiceDetail /> });
lazy_route!(RECURRING_LIST_ROUTE, chunk = kontor_recurring, fn = recurring_list_chunk, view! { <RecurringList /> });
lazy_route!(RECURRING_CREATE_ROUTE, chunk = kontor_recurring, fn = recurring_create_chunk, view! { <RecurringCreate /> });
lazy_route!(RECURRING_DETAIL_ROUTE, chunk = kontor_recurring, fn = recurring_detail_chunk, view! { <RecurringDetail /> });
lazy_route!(RECURRING_EDIT_ROUTE, chunk = kontor_recurring, fn = recurring_edit_chunk, view! { <RecurringEdit /> });
lazy_route!(OFFER_LIST_ROUTE, chunk = kontor_offers, fn = offer_list_chunk, view! { <OfferList /> });
lazy_route!(OFFER_CREATE_ROUTE, chunk = kontor_offer_form, fn = offer_create_chunk, view! { <OfferCreate /> });
lazy_route!(OFFER_DETAIL_ROUTE, chunk = kontor_offers, fn = offer_detail_chunk, view! { <OfferDetail /> });
lazy_route!(OFFER_EDIT_ROUTE, chunk = kontor_offer_form, fn = offer_edit_chunk, view! { <OfferEdit /> });
lazy_route!(PURCHASE_LIST_ROUTE, chunk = kontor_purchases, fn = purchase_list_chunk, view! { <PurchaseList /> });
lazy_route!(PURCHASE_CREATE_ROUTE, chunk = kontor_purchase_form, fn = purchase_create_chunk, view! { <PurchaseCreate /> });
lazy_route!(PURCHASE_DETAIL_ROUTE, chunk = kontor_purchases, fn = purchase_detail_chunk, view! { <PurchaseDetail /> });
lazy_route!(PURCHASE_EDIT_ROUTE, chunk = kontor_purchase_form, fn = purchase_edit_chunk, view! { <PurchaseEdit /> });
lazy_route!(CUSTOMER_LIST_ROUTE, chunk = kontor_companies, fn = customer_list_chunk, view! { <CompanyList kind=CUSTOMER /> });
lazy_route!(CUSTOMER_CREATE_ROUTE, chunk = kontor_companies, fn = customer_create_chunk, view! { <CompanyCreate kind=CUSTOMER /> });
lazy_route!(CUSTOMER_DETAIL_ROUTE, chunk = kontor_companies, fn = customer_detail_chunk, view! { <CompanyDetail kind=CUSTOMER /> });
lazy_route!(CUSTOMER_EDIT_ROUTE, chunk = kontor_companies, fn = customer_edit_chunk, view! { <CompanyEdit kind=CUSTOMER /> });
lazy_route!(SUPPLIER_LIST_ROUTE, chunk = kontor_companies, fn = supplier_list_chunk, view! { <CompanyList kind=SUPPLIER /> });
lazy_route!(SUPPLIER_CREATE_ROUTE, chunk = kontor_companies, fn = supplier_create_chunk, view! { <CompanyCreate kind=SUPPLIER /> });
lazy_route!(SUPPLIER_DETAIL_ROUTE, chunk = kontor_companies, fn = supplier_detail_chunk, view! { <CompanyDetail kind=SUPPLIER /> });
lazy_route!(SUPPLIER_EDIT_ROUTE, chunk = kontor_companies, fn = supplier_edit_chunk, view! { <CompanyEdit kind=SUPPLIER /> });
lazy_route!(BANK_ROUTE, chunk = kontor_bank, fn = bank_chunk, view! { <BankPage /> });
lazy_route!(DUNNING_ROUTE, chunk = kontor_dunning, fn = dunning_chunk, view! { <DunningPage /> });
lazy_route!(EXPORTS_ROUTE, chunk = kontor_exports, fn = exports_chunk, view! { <ExportsPage /> });
lazy_route!(MAIL_ROUTE, chunk = kontor_exports, fn = mail_chunk, view! { <MailPage /> });
lazy_route!(CATALOGUE_ROUTE, chunk = kontor_admin, fn = catalogue_chunk, view! { <CataloguePage /> });
lazy_route!(SETTINGS_ROUTE, chunk = kontor_settings, fn = settings_chunk, view! { <SettingsPage /> });
lazy_route!(USERS_ROUTE, chunk = kontor_admin, fn = users_chunk, view! { <UsersPage /> });
lazy_route!(API_KEYS_ROUTE, chunk = kontor_admin, fn = api_keys_chunk, view! { <ApiKeysPage /> });
lazy_route!(INBOX_SETTINGS_ROUTE, chunk = kontor_admin, fn = inbox_settings_chunk, view! { <InboxSettingsPage /> });
lazy_route!(INBOX_ROUTE, chunk = kontor_purchases, fn = inbox_chunk, view! { <InboxPage /> });
lazy_route!(OUTBOX_ROUTE, chunk = kontor_frame, fn = outbox_chunk, view! { <OutboxPage /> });

/// The whole app.
#[component]
pub fn App() -> impl IntoView {
    Toasts::provide();
    // Chunks fetched ahead of need (issue 13): the frame as soon as a signed-in user opens
    // the app, the frame and the dashboard while the sign-in is under way, the invoice
    // list and the dashboard once the frame shows.
    if has_key() {
        leptos::task::spawn_local(async {
            let _ = frame_preload().await;
        });
    }
    provide_context(Preloads {
        signing_in: Callback::new(|_| {
            leptos::task::spawn_local(async {
                let _ = frame_preload().await;
                let _ = dashboard_preload().await;
            })
        }),
        frame_shown: Callback::new(|_| {
            leptos::task::spawn_local(async {
                let _ = invoice_list_preload().await;
                let _ = dashboard_preload().await;
            })
        }),
    });
    view! {
        <Router base=router_base()>
            <UnauthorizedRedirect />
            <Routes fallback=NotFound>
                <Route path=path!("/sign-in") view=SignIn />
                <Route path=path!("/setup") view=SETUP_ROUTE />
                <Route path=path!("/set-password") view=SET_PASSWORD_ROUTE />
                <Route path=path!("/forgot-password") view=FORGOT_PASSWORD_ROUTE />
                // The customer's approval page (issue 31): public, without the frame.
                <Route path=path!("/approval/:token") view=APPROVAL_ROUTE />
                <ParentRoute path=path!("") view=signed_in_frame>
                    <Route path=path!("/") view=|| view! { <Redirect path="/dashboard" /> } />
                    <Route path=path!("/dashboard") view=DASHBOARD_ROUTE />
                    <Route path=path!("/invoices") view=INVOICE_LIST_ROUTE />
                    <Route path=path!("/invoices/new") view=INVOICE_CREATE_ROUTE />
                    <Route path=path!("/invoices/:id/edit") view=INVOICE_EDIT_ROUTE />
                    // The detail's tabs are in the URL (`/invoices/12/payments`); `edit` above
                    // wins because routes match in this order.
                    <Route path=path!("/invoices/:id/:tab?") view=INVOICE_DETAIL_ROUTE />
                    <Route path=path!("/recurring_invoices") view=RECURRING_LIST_ROUTE />
                    <Route path=path!("/recurring_invoices/new") view=RECURRING_CREATE_ROUTE />
                    <Route path=path!("/recurring_invoices/:id") view=RECURRING_DETAIL_ROUTE />
                    <Route path=path!("/recurring_invoices/:id/edit") view=RECURRING_EDIT_ROUTE />
                    <Route path=path!("/offers") view=OFFER_LIST_ROUTE />
                    <Route path=path!("/offers/new") view=OFFER_CREATE_ROUTE />
                    <Route path=path!("/offers/:id") view=OFFER_DETAIL_ROUTE />
                    <Route path=path!("/offers/:id/edit") view=OFFER_EDIT_ROUTE />
                    <Route path=path!("/purchases") view=PURCHASE_LIST_ROUTE />
                    <Route path=path!("/purchases/new") view=PURCHASE_CREATE_ROUTE />
                    <Route path=path!("/purchases/:id") view=PURCHASE_DETAIL_ROUTE />
                    <Route path=path!("/purchases/:id/edit") view=PURCHASE_EDIT_ROUTE />
                    <Route path=path!("/inbox") view=INBOX_ROUTE />
                    <Route path=path!("/customers") view=CUSTOMER_LIST_ROUTE />
                    <Route path=path!("/customers/new") view=CUSTOMER_CREATE_ROUTE />
                    <Route path=path!("/customers/:id") view=CUSTOMER_DETAIL_ROUTE />
                    <Route path=path!("/customers/:id/edit") view=CUSTOMER_EDIT_ROUTE />
                    <Route path=path!("/suppliers") view=SUPPLIER_LIST_ROUTE />
                    <Route path=path!("/suppliers/new") view=SUPPLIER_CREATE_ROUTE />
                    <Route path=path!("/suppliers/:id") view=SUPPLIER_DETAIL_ROUTE />
                    <Route path=path!("/suppliers/:id/edit") view=SUPPLIER_EDIT_ROUTE />
                    <Route path=path!("/bank") view=BANK_ROUTE />
                    <Route path=path!("/dunning") view=DUNNING_ROUTE />
                    <Route path=path!("/exports") view=EXPORTS_ROUTE />
                    <Route path=path!("/mail") view=MAIL_ROUTE />
                    <Route path=path!("/articles") view=CATALOGUE_ROUTE />
                    <Route path=path!("/settings") view=SETTINGS_ROUTE />
                    <Route path=path!("/settings/users") view=USERS_ROUTE />
                    <Route path=path!("/settings/api_keys") view=API_KEYS_ROUTE />
                    <Route path=path!("/settings/inbox") view=INBOX_SETTINGS_ROUTE />
                    <Route path=path!("/outbox") view=OUTBOX_ROUTE />
                </ParentRoute>
            </Routes>
            <ToastHost />
        </Router>
    }
}

/// The frame for a signed-in user; without a stored key straight to the sign-in page, so a
/// first visit fetches no frame chunk.
fn signed_in_frame() -> AnyView {
    if has_key() {
        FRAME_ROUTE()
    } else {
        view! { <Redirect path="/sign-in" /> }.into_any()
    }
}

/// Sends the user to the sign-in page when the server answers 401 (the client has already
/// forgotten the key).
#[component]
fn UnauthorizedRedirect() -> impl IntoView {
    let navigate = use_navigate();
    let toasts = Toasts::use_context();
    set_unauthorized_handler(move || {
        toasts.error(crate::i18n::t().common().session_ended);
        navigate("/sign-in", Default::default());
    });
}
