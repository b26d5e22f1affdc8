//! A failed load: the server's message and a Retry button.

use crate::api::ApiError;
use leptos::prelude::*;

/// Shows `error`'s message and, when `on_retry` is given, a Retry button.
#[component]
pub fn ErrorPanel(
    /// The failure to show.
    error: ApiError,
    /// Called when Retry is pressed; no button without it.
    #[prop(optional)]
    on_retry: Option<Callback<()>>,
) -> impl IntoView {
    let title = match error.status {
        0 => "Could not load",
        404 => "Not found",
        403 => "Not allowed",
        _ => "Something went wrong",
    };
    view! {
        <div class="error-panel" role="alert">
            <p class="error-panel-title">{title}</p>
            <p class="error-panel-message">{error.message.clone()}</p>
            {on_retry.map(|retry| {
                view! {
                    <button type="button" class="btn" on:click=move |_| retry.run(())>
                        "Retry"
                    </button>
                }
            })}
        </div>
    }
}
