//! The app root: toasts, the router (with the base path read at runtime, see
//! [`crate::paths`]) and the one table of routes.

use crate::api::client::set_unauthorized_handler;
use crate::components::frame::Frame;
use crate::components::toast::{ToastHost, Toasts};
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

const CUSTOMER: CompanyType = CompanyType::Customer;
const SUPPLIER: CompanyType = CompanyType::Supplier;

/// The whole app.
#[component]
pub fn App() -> impl IntoView {
    Toasts::provide();
    view! {
        <Router base=router_base()>
            <UnauthorizedRedirect />
            <Routes fallback=NotFound>
                <Route path=path!("/sign-in") view=SignIn />
                <Route path=path!("/setup") view=SetupPage />
                <Route path=path!("/set-password") view=SetPasswordPage />
                <ParentRoute path=path!("") view=Frame>
                    <Route path=path!("/") view=|| view! { <Redirect path="/dashboard" /> } />
                    <Route path=path!("/dashboard") view=DashboardPage />
                    <Route path=path!("/invoices") view=InvoiceList />
                    <Route path=path!("/invoices/new") view=InvoiceCreate />
                    <Route path=path!("/invoices/:id/edit") view=InvoiceEdit />
                    // The detail's tabs are in the URL (`/invoices/12/payments`); `edit` above
                    // wins because routes match in this order.
                    <Route path=path!("/invoices/:id/:tab?") view=InvoiceDetail />
                    <Route path=path!("/recurring_invoices") view=RecurringList />
                    <Route path=path!("/recurring_invoices/new") view=RecurringCreate />
                    <Route path=path!("/recurring_invoices/:id") view=RecurringDetail />
                    <Route path=path!("/recurring_invoices/:id/edit") view=RecurringEdit />
                    <Route path=path!("/offers") view=OfferList />
                    <Route path=path!("/offers/new") view=OfferCreate />
                    <Route path=path!("/offers/:id") view=OfferDetail />
                    <Route path=path!("/offers/:id/edit") view=OfferEdit />
                    <Route path=path!("/purchases") view=PurchaseList />
                    <Route path=path!("/purchases/new") view=PurchaseCreate />
                    <Route path=path!("/purchases/:id") view=PurchaseDetail />
                    <Route path=path!("/purchases/:id/edit") view=PurchaseEdit />
                    <Route path=path!("/customers") view=|| view! { <CompanyList kind=CUSTOMER /> } />
                    <Route path=path!("/customers/new") view=|| view! { <CompanyCreate kind=CUSTOMER /> } />
                    <Route path=path!("/customers/:id") view=|| view! { <CompanyDetail kind=CUSTOMER /> } />
                    <Route path=path!("/customers/:id/edit") view=|| view! { <CompanyEdit kind=CUSTOMER /> } />
                    <Route path=path!("/suppliers") view=|| view! { <CompanyList kind=SUPPLIER /> } />
                    <Route path=path!("/suppliers/new") view=|| view! { <CompanyCreate kind=SUPPLIER /> } />
                    <Route path=path!("/suppliers/:id") view=|| view! { <CompanyDetail kind=SUPPLIER /> } />
                    <Route path=path!("/suppliers/:id/edit") view=|| view! { <CompanyEdit kind=SUPPLIER /> } />
                    <Route path=path!("/exports") view=ExportsPage />
                    <Route path=path!("/settings") view=SettingsPage />
                    <Route path=path!("/settings/users") view=UsersPage />
                    <Route path=path!("/settings/api_keys") view=ApiKeysPage />
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
