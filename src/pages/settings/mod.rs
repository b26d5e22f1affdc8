//! The Settings page (`/settings`, issue 9 § The account's own data): the account's
//! company data, bank, documents (logo, letter papers, default texts, number formats),
//! taxes and defaults, and e-mail (SMTP, test e-mail).
//!
//! - [`page`]: loading, the sections in order; [`env`]: what the sections share, saving
//!   a section (`PUT /account`).
//! - [`field_spec`]: one field, addressed by wire path; [`section`]: a section's state.
//! - [`specs`]: what each section contains; [`rules`]: the model's checks and examples.
//! - [`fields`]: inputs and the section card with its Save.
//! - [`documents`], [`email`]: the two sections with more than fields.
//! - [`dunning`]: the dunning levels (`GET`/`PUT /dunning_levels`, issue 33).

pub mod documents;
pub mod dunning;
pub mod email;
pub mod env;
pub mod field_spec;
pub mod fields;
pub mod page;
pub mod rules;
pub mod section;
pub mod specs;

pub use page::SettingsPage;
