//! Online offer approval (issue 31 "The customer says yes online"; MOCO's
//! `offer_customer_approval`; `docs/decisions.md` § Online approval).
//!
//! - [`staff`]: `GET /offers/{id}/customer_approval`, `POST …/activate`,
//!   `POST|PUT …/deactivate` — the link staff send; the offer's `customer_approval`.
//! - [`public`]: `/customer_approvals/{token}` (no credentials; the token is the only key,
//!   rate-limited per client address): what the customer may see, the PDF, the logo, and
//!   signing or declining.
//! - [`token`]: the token, derived from the audit key file's key and a random nonce, so
//!   the database holds only its SHA-256 (and the nonce, useless without the key file).
//! - [`repo`]: the `offer_customer_approvals` rows.
//! - [`signed`]: the signed PDF and the e-mails after a signing.

pub mod public;
pub mod repo;
pub mod signed;
pub mod staff;
pub mod token;

use crate::state::AppState;
use utoipa_axum::router::OpenApiRouter;

/// The staff and the public routes of online approval.
pub fn router() -> OpenApiRouter<AppState> {
    staff::router().merge(public::router())
}
