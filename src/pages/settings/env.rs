//! What every section of the Settings page shares ([`SettingsEnv`]): the account as last
//! saved, the shared validation, whether the key may only read, and saving a section.
//! Kept apart from the page so that the sections use it without importing the page
//! (issue 30: no import circles).

use super::fields::Validate;
use super::rules::validate_body;
use super::section::Section;
use crate::api::account::update_account;
use crate::components::frame::AccountContext;
use crate::components::task::Task;
use crate::components::toast::Toasts;
use crate::i18n::{fill, t};
use kontor_model::account::{Account, AccountUpdate};
use leptos::prelude::*;
use serde_json::Value;

/// The account as JSON (fields are read by their wire paths).
pub fn account_json(account: &Account) -> Value {
    serde_json::to_value(account).unwrap_or(Value::Null)
}

/// What every section of the page shares: the account as last saved (the cross-field
/// rules check against it), the shared validation and whether the key may only read.
/// Copy: handles.
#[derive(Clone, Copy)]
pub struct SettingsEnv {
    /// The account as last loaded or saved.
    pub account: StoredValue<Account>,
    /// The model's check of a section's body.
    pub validate: Validate,
    /// True for a read-only key.
    pub read_only: Signal<bool>,
}

impl SettingsEnv {
    /// The environment of `account` for a key that may (`read_only == false`) write.
    pub fn new(account: Account, read_only: bool) -> Self {
        let account = StoredValue::new(account);
        SettingsEnv {
            account,
            validate: Callback::new(move |body: Value| {
                account.with_value(|a| validate_body(&body, a))
            }),
            read_only: Signal::stored(read_only),
        }
    }

    /// Sends a section's body with `PUT /account`: on success the section takes the
    /// stored values (and `after` runs with the account), a toast says so and the frame
    /// shows the new account name; a 422 puts the errors at the fields; anything else is
    /// a toast that stays.
    pub fn saver(
        self,
        section: Section,
        what: &'static str,
        after: Option<Callback<Value>>,
    ) -> (Callback<Value>, Signal<bool>) {
        let task = Task::new();
        let toasts = Toasts::use_context();
        let frame = AccountContext::use_context();
        let save = Callback::new(move |body: Value| {
            // The section's fields by wire name, as the model's typed update: the section's
            // validation has already read the same body as an `AccountUpdate`.
            let update = match kontor_model::wire::from_value::<AccountUpdate>(&body) {
                Ok(update) => update,
                Err(e) => {
                    toasts.error(fill(
                        t().settings_page().not_saved,
                        &[("what", what), ("message", &e.to_string())],
                    ));
                    return;
                }
            };
            // The page may re-render around the saved section: its Save button stays put.
            let anchor = crate::components::scroll_anchor::take_anchor();
            task.run(
                async move { update_account(&update).await },
                move |answer| match answer {
                    Ok(account) => {
                        crate::components::scroll_anchor::hold_anchor(anchor, 60);
                        let json = account_json(&account);
                        self.account.set_value(account);
                        section.saved_as(&json);
                        if let Some(after) = after {
                            after.run(json);
                        }
                        toasts.success(fill(t().settings_page().saved, &[("what", what)]));
                        if let Some(frame) = frame {
                            frame.refetch();
                        }
                    }
                    Err(e) if !e.errors.is_empty() => section.errors.set(e.errors),
                    Err(e) => toasts.error(fill(
                        t().settings_page().not_saved,
                        &[("what", what), ("message", &e.message)],
                    )),
                },
            );
        });
        (save, task.pending.into())
    }
}
