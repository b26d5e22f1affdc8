//! The app root: toasts, the router (with the base path read at runtime, see
//! [`crate::paths`]) and the one table of routes.
//!
//! The first screens a user meets — sign-in, the frame and the invoice list — are in the
//! main module; every other page is a lazy route ([`crate::lazy`]) whose code is a chunk
//! of its own in the release build, loaded on first use (issue 13).

use crate::api::client::set_unauthorized_handler;
use crate::components::frame::Frame;
use crate::components::toast::{ToastHost, Toasts};
use crate::lazy::lazy_route;
use crate::pages::companies::{CompanyCreate, CompanyDetail, CompanyEdit, CompanyList};
use crate::pages::dashboard::DashboardPage;
use crate::pages::exports::ExportsPage;
use crate::pages::invoices::{InvoiceCreate, InvoiceDetail, InvoiceEdit, InvoiceList};
use crate::pages::offers::{OfferCreate, OfferDetail, OfferEdit, OfferList};
use crate::pages::people::{ApiKeysPage, UsersPage};
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
use leptos_router::Lazy;

const CUSTOMER: CompanyType = CompanyType::Customer;
const SUPPLIER: CompanyType = CompanyType::Supplier;

// The lazy routes and their chunks (one chunk per area of the app).
lazy_route!(SetupRoute, chunk = kontor_setup, fn = setup_chunk, view! { <SetupPage /> });
lazy_route!(SetPasswordRoute, chunk = kontor_setup, fn = set_password_chunk, view! { <SetPasswordPage /> });
lazy_route!(DashboardRoute, chunk = kontor_dashboard, fn = dashboard_chunk, view! { <DashboardPage /> });
lazy_route!(InvoiceCreateRoute, chunk = kontor_invoice_form, fn = invoice_create_chunk, view! { <InvoiceCreate /> });
lazy_route!(InvoiceEditRoute, chunk = kontor_invoice_form, fn = invoice_edit_chunk, view! { <InvoiceEdit /> });
lazy_route!(InvoiceDetailRoute, chunk = kontor_invoice_detail, fn = invoice_detail_chunk, view! { <InvoiceDetail /> });
lazy_route!(RecurringListRoute, chunk = kontor_recurring, fn = recurring_list_chunk, view! { <RecurringList /> });
lazy_route!(RecurringCreateRoute, chunk = kontor_recurring, fn = recurring_create_chunk, view! { <RecurringCreate /> });
lazy_route!(RecurringDetailRoute, chunk = kontor_recurring, fn = recurring_detail_chunk, view! { <RecurringDetail /> });
lazy_route!(RecurringEditRoute, chunk = kontor_recurring, fn = recurring_edit_chunk, view! { <RecurringEdit /> });
lazy_route!(OfferListRoute, chunk = kontor_offers, fn = offer_list_chunk, view! { <OfferList /> });
lazy_route!(OfferCreateRoute, chunk = kontor_offers, fn = offer_create_chunk, view! { <OfferCreate /> });
lazy_route!(OfferDetailRoute, chunk = kontor_offers, fn = offer_detail_chunk, view! { <OfferDetail /> });
lazy_route!(OfferEditRoute, chunk = kontor_offers, fn = offer_edit_chunk, view! { <OfferEdit /> });
lazy_route!(PurchaseListRoute, chunk = kontor_purchases, fn = purchase_list_chunk, view! { <PurchaseList /> });
lazy_route!(PurchaseCreateRoute, chunk = kontor_purchases, fn = purchase_create_chunk, view! { <PurchaseCreate /> });
lazy_route!(PurchaseDetailRoute, chunk = kontor_purchases, fn = purchase_detail_chunk, view! { <PurchaseDetail /> });
lazy_route!(PurchaseEditRoute, chunk = kontor_purchases, fn = purchase_edit_chunk, view! { <PurchaseEdit /> });
lazy_route!(CustomerListRoute, chunk = kontor_companies, fn = customer_list_chunk, view! { <CompanyList kind=CUSTOMER /> });
lazy_route!(CustomerCreateRoute, chunk = kontor_companies, fn = customer_create_chunk, view! { <CompanyCreate kind=CUSTOMER /> });
lazy_route!(CustomerDetailRoute, chunk = kontor_companies, fn = customer_detail_chunk, view! { <CompanyDetail kind=CUSTOMER /> });
lazy_route!(CustomerEditRoute, chunk = kontor_companies, fn = customer_edit_chunk, view! { <CompanyEdit kind=CUSTOMER /> });
lazy_route!(SupplierListRoute, chunk = kontor_companies, fn = supplier_list_chunk, view! { <CompanyList kind=SUPPLIER /> });
lazy_route!(SupplierCreateRoute, chunk = kontor_companies, fn = supplier_create_chunk, view! { <CompanyCreate kind=SUPPLIER /> });
lazy_route!(SupplierDetailRoute, chunk = kontor_companies, fn = supplier_detail_chunk, view! { <CompanyDetail kind=SUPPLIER /> });
lazy_route!(SupplierEditRoute, chunk = kontor_companies, fn = supplier_edit_chunk, view! { <CompanyEdit kind=SUPPLIER /> });
lazy_route!(ExportsRoute, chunk = kontor_exports, fn = exports_chunk, view! { <ExportsPage /> });
lazy_route!(SettingsRoute, chunk = kontor_settings, fn = settings_chunk, view! { <SettingsPage /> });
lazy_route!(UsersRoute, chunk = kontor_settings, fn = users_chunk, view! { <UsersPage /> });
lazy_route!(ApiKeysRoute, chunk = kontor_settings, fn = api_keys_chunk, view! { <ApiKeysPage /> });

/// The whole app.
#[component]
pub fn App() -> impl IntoView {
    Toasts::provide();
    view! {
        <Router base=router_base()>
            <UnauthorizedRedirect />
            <Routes fallback=NotFound>
                <Route path=path!("/sign-in") view=SignIn />
                <Route path=path!("/setup") view={Lazy::<SetupRoute>::new()} />
                <Route path=path!("/set-password") view={Lazy::<SetPasswordRoute>::new()} />
                <ParentRoute path=path!("") view=Frame>
                    <Route path=path!("/") view=|| view! { <Redirect path="/dashboard" /> } />
                    <Route path=path!("/dashboard") view={Lazy::<DashboardRoute>::new()} />
                    <Route path=path!("/invoices") view=InvoiceList />
                    <Route path=path!("/invoices/new") view={Lazy::<InvoiceCreateRoute>::new()} />
                    <Route path=path!("/invoices/:id/edit") view={Lazy::<InvoiceEditRoute>::new()} />
                    // The detail's tabs are in the URL (`/invoices/12/payments`); `edit` above
                    // wins because routes match in this order.
                    <Route path=path!("/invoices/:id/:tab?") view={Lazy::<InvoiceDetailRoute>::new()} />
                    <Route path=path!("/recurring_invoices") view={Lazy::<RecurringListRoute>::new()} />
                    <Route path=path!("/recurring_invoices/new") view={Lazy::<RecurringCreateRoute>::new()} />
                    <Route path=path!("/recurring_invoices/:id") view={Lazy::<RecurringDetailRoute>::new()} />
                    <Route path=path!("/recurring_invoices/:id/edit") view={Lazy::<RecurringEditRoute>::new()} />
                    <Route path=path!("/offers") view={Lazy::<OfferListRoute>::new()} />
                    <Route path=path!("/offers/new") view={Lazy::<OfferCreateRoute>::new()} />
                    <Route path=path!("/offers/:id") view={Lazy::<OfferDetailRoute>::new()} />
                    <Route path=path!("/offers/:id/edit") view={Lazy::<OfferEditRoute>::new()} />
                    <Route path=path!("/purchases") view={Lazy::<PurchaseListRoute>::new()} />
                    <Route path=path!("/purchases/new") view={Lazy::<PurchaseCreateRoute>::new()} />
                    <Route path=path!("/purchases/:id") view={Lazy::<PurchaseDetailRoute>::new()} />
                    <Route path=path!("/purchases/:id/edit") view={Lazy::<PurchaseEditRoute>::new()} />
                    <Route path=path!("/customers") view={Lazy::<CustomerListRoute>::new()} />
                    <Route path=path!("/customers/new") view={Lazy::<CustomerCreateRoute>::new()} />
                    <Route path=path!("/customers/:id") view={Lazy::<CustomerDetailRoute>::new()} />
                    <Route path=path!("/customers/:id/edit") view={Lazy::<CustomerEditRoute>::new()} />
                    <Route path=path!("/suppliers") view={Lazy::<SupplierListRoute>::new()} />
                    <Route path=path!("/suppliers/new") view={Lazy::<SupplierCreateRoute>::new()} />
                    <Route path=path!("/suppliers/:id") view={Lazy::<SupplierDetailRoute>::new()} />
                    <Route path=path!("/suppliers/:id/edit") view={Lazy::<SupplierEditRoute>::new()} />
                    <Route path=path!("/exports") view={Lazy::<ExportsRoute>::new()} />
                    <Route path=path!("/settings") view={Lazy::<SettingsRoute>::new()} />
                    <Route path=path!("/settings/users") view={Lazy::<UsersRoute>::new()} />
                    <Route path=path!("/settings/api_keys") view={Lazy::<ApiKeysRoute>::new()} />
                </ParentRoute>
            </Routes>
            <ToastHost />
        </Router>
    }
}

/// Sends the user to the sign-in page when the server answers 401 (the client has already
/// forgotten the key).
#[component]
fn UnauthorizedRedirect() -> impl IntoView {
    let navigate = use_navigate();
    let toasts = Toasts::use_context();
    set_unauthorized_handler(move || {
        toasts.error(crate::i18n::t().common.session_ended);
        navigate("/sign-in", Default::default());
    });
}
