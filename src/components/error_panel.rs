//! A failed load: the server's message and, when trying again can help, a Retry button.

use crate::api::ApiError;
use crate::components::skeleton::SkeletonBlock;
use crate::i18n::t;
use leptos::prelude::*;

/// Whether trying the same request again can help (`docs/decisions.md` § Polish (issue
/// 11)): a network failure (status 0), a timeout (408), the rate limit (429) or a server
/// failure (5xx). A 404, 403 or 422 answers the same again, so it gets no Retry.
pub fn can_retry(status: u16) -> bool {
    matches!(status, 0 | 408 | 429) || status >= 500
}

/// Shows `error`'s message and, when `on_retry` is given and [`can_retry`] says so, a
/// Retry button.
#[component]
pub fn ErrorPanel(
    /// The failure to show.
    error: ApiError,
    /// Called when Retry is pressed; no button without it, nor for a 404/403/4xx.
    #[prop(optional)]
    on_retry: Option<Callback<()>>,
) -> impl IntoView {
    let title = match error.status {
        0 => t().error().could_not_load,
        404 => t().error().not_found,
        403 => t().error().not_allowed,
        _ => t().error().something_wrong,
    };
    let retry = on_retry.filter(|_| can_retry(error.status));
    view! {
        <div class="error-panel" role="alert">
            <p class="error-panel-title">{title}</p>
            <p class="error-panel-message">{error.message.clone()}</p>
            {retry.map(|retry| {
                view! {
                    <button type="button" class="btn" on:click=move |_| retry.run(())>
                        {t().error().retry}
                    </button>
                }
            })}
        </div>
    }
}

/// A page's content loaded by `data`: a skeleton of `lines` lines while it loads, a failed
/// load as an [`ErrorPanel`] whose Retry loads again, else `loaded(value)`.
pub fn loaded_view<T, V>(
    data: LocalResource<Result<T, ApiError>>,
    lines: usize,
    loaded: impl Fn(T) -> V + Clone + Send + Sync + 'static,
) -> impl IntoView
where
    T: Clone + 'static,
    V: IntoView + 'static,
{
    view! {
        <Transition fallback=move || view! { <SkeletonBlock lines=lines /> }>
            {move || {
                let loaded = loaded.clone();
                Suspend::new(async move {
                    match data.await {
                        Err(error) => view! { <ErrorPanel error=error on_retry=Callback::new(move |_| data.refetch()) /> }.into_any(),
                        Ok(value) => loaded(value).into_any(),
                    }
                })
            }}
        </Transition>
    }
}
