//! The public approval page `/approval/:token` (issue 31 § App): the customer reads the
//! offer, chooses its optional positions, signs or declines — without the app's frame,
//! without a session; the token in the address is the only key.
//!
//! - [`page`]: loading, the sender's head with the language switch, the offer as a page
//!   with live totals, and the state once signed or declined;
//! - [`sign_form`]: name, e-mail, signature pad, consent, Accept; the Decline form.

mod page;
mod sign_form;

pub use page::ApprovalPage;
