//! Toasts: a short success message that goes away by itself, or a failure that stays
//! until dismissed. Reached through [`Toasts::use_context`].

use leptos::prelude::*;
use std::time::Duration;

/// How long a success toast stays.
const SUCCESS_TIME: Duration = Duration::from_millis(4000);

/// Success or failure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ToastKind {
    /// Went well; disappears after a few seconds.
    Success,
    /// Went wrong; stays until dismissed.
    Error,
}

/// One message on screen.
#[derive(Clone, Debug, PartialEq)]
pub struct Toast {
    /// Identifies the toast for dismissal.
    pub id: u64,
    /// Success or failure.
    pub kind: ToastKind,
    /// The text.
    pub message: String,
}

/// The toasts of the app (a typed context: [`Toasts::provide`] once, then
/// [`Toasts::use_context`] anywhere below).
#[derive(Clone, Copy, Debug)]
pub struct Toasts {
    items: RwSignal<Vec<Toast>>,
    next_id: StoredValue<u64>,
}

impl Toasts {
    /// Creates the toasts and provides them as context.
    pub fn provide() -> Self {
        let toasts = Toasts {
            items: RwSignal::new(Vec::new()),
            next_id: StoredValue::new(1),
        };
        provide_context(toasts);
        toasts
    }

    /// The toasts provided above; panics when [`Toasts::provide`] was not called.
    pub fn use_context() -> Self {
        use_context::<Toasts>().expect("Toasts::provide() must be called above this component")
    }

    /// The toasts on screen.
    pub fn items(&self) -> Signal<Vec<Toast>> {
        self.items.into()
    }

    fn push(&self, kind: ToastKind, message: String) -> u64 {
        let id = self.next_id.get_value();
        self.next_id.set_value(id + 1);
        self.items.update(|v| v.push(Toast { id, kind, message }));
        id
    }

    /// Shows a short success message.
    pub fn success(&self, message: impl Into<String>) {
        let id = self.push(ToastKind::Success, message.into());
        let this = *self;
        set_timeout(move || this.dismiss(id), SUCCESS_TIME);
    }

    /// Shows a failure that stays until dismissed.
    pub fn error(&self, message: impl Into<String>) {
        self.push(ToastKind::Error, message.into());
    }

    /// Removes the toast `id`.
    pub fn dismiss(&self, id: u64) {
        let _ = self.items.try_update(|v| v.retain(|t| t.id != id));
    }
}

/// The place where toasts appear (bottom right, announced to screen readers).
#[component]
pub fn ToastHost() -> impl IntoView {
    let toasts = Toasts::use_context();
    view! {
        <div class="toasts" role="region" aria-label=crate::i18n::t().toast().region aria-live="polite">
            <For each=move || toasts.items().get() key=|t| t.id let:toast>
                <div
                    class=match toast.kind {
                        ToastKind::Success => "toast toast-success",
                        ToastKind::Error => "toast toast-error",
                    }
                    role=match toast.kind {
                        ToastKind::Success => "status",
                        ToastKind::Error => "alert",
                    }
                >
                    <span class="toast-text">{toast.message.clone()}</span>
                    <button
                        type="button"
                        class="toast-close"
                        aria-label=crate::i18n::t().toast().dismiss
                        on:click=move |_| toasts.dismiss(toast.id)
                    >
                        "×"
                    </button>
                </div>
            </For>
        </div>
    }
}
