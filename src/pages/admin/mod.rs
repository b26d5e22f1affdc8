//! Admin pages (issue 12): Users (invite, role, deactivate, new link), API keys (create
//! with the secret shown once, revoke) and the inbox's mailbox (issue 36). Shown in the
//! navigation to admins only; anyone else who opens the address sees "Only
//! administrators…" (German "Nur Administratoren…").

pub mod api_keys;
pub mod inbox;
pub mod users;

pub use api_keys::ApiKeysPage;
pub use inbox::InboxSettingsPage;
pub use users::{UsersPage, UsersTable};

pub use crate::components::frame::admin_state;
use crate::i18n::t;
use leptos::prelude::*;

/// The notice on an admin page for everybody else.
#[component]
pub fn AdminOnly() -> impl IntoView {
    view! {
        <div class="error-panel" role="alert">
            <p class="error-panel-title">{t().error().not_allowed}</p>
            <p class="error-panel-message">{t().people_common().not_allowed_text}</p>
        </div>
    }
}
