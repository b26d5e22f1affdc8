//! Debouncing: run something once input has been quiet for a while (the live PDF preview
//! renders 300 ms after typing stops).

use leptos::prelude::*;
use std::time::Duration;

/// Runs the last scheduled action `delay` after the last call to [`Debounce::call`];
/// earlier ones are dropped. Pending actions are dropped when the creating owner is
/// cleaned up. Copy: handles.
#[derive(Clone, Copy)]
pub struct Debounce {
    delay: Duration,
    pending: StoredValue<Option<TimeoutHandle>>,
}

impl Debounce {
    /// A debouncer with `delay`, tied to the current owner.
    pub fn new(delay: Duration) -> Self {
        let this = Debounce {
            delay,
            pending: StoredValue::new(None),
        };
        on_cleanup(move || this.cancel());
        this
    }

    /// Schedules `action` after the delay, replacing an action still waiting.
    pub fn call(&self, action: impl FnOnce() + 'static) {
        self.cancel();
        let this = *self;
        let handle = set_timeout_with_handle(
            move || {
                let _ = this.pending.try_set_value(None);
                action();
            },
            self.delay,
        )
        .ok();
        self.pending.set_value(handle);
    }

    /// Drops the waiting action, if any.
    pub fn cancel(&self) {
        if let Some(handle) = self.pending.try_update_value(Option::take).flatten() {
            handle.clear();
        }
    }

    /// True while an action is waiting.
    pub fn is_pending(&self) -> bool {
        self.pending.with_value(Option::is_some)
    }
}
