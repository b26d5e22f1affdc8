//! The schedule section of the recurring invoice form: interval, next invoice date, end
//! date, and the mode with what each one does.

use super::form_state::RecurringFormState;
use crate::api::recurring::{Interval, RecurringMode};
use crate::components::field::{error_of, Field};
use crate::i18n::t;
use kontor_model::error::FieldErrors;
use leptos::prelude::*;

/// The intervals offered with their wire values; [`interval_label`] names them.
pub const INTERVALS: [(Interval, &str); 3] = [
    (Interval::Monthly, "monthly"),
    (Interval::Quarterly, "quarterly"),
    (Interval::Yearly, "yearly"),
];

/// The modes offered with their wire values; [`mode_label`] and [`mode_help`] name them.
pub const MODES: [(RecurringMode, &str); 3] = [
    (RecurringMode::Draft, "draft"),
    (RecurringMode::Finalize, "finalize"),
    (RecurringMode::Send, "send"),
];

/// The label of `interval` in the user's language ("Monthly", "Monatlich").
pub fn interval_label(interval: Interval) -> &'static str {
    let s = t().recurring_schedule();
    match interval {
        Interval::Monthly => s.monthly,
        Interval::Quarterly => s.quarterly,
        Interval::Yearly => s.yearly,
    }
}

/// The short name of `mode` in lists ("Drafts", "Finalized", "Sent by e-mail").
pub fn mode_short(mode: RecurringMode) -> &'static str {
    let s = t().recurring_schedule();
    match mode {
        RecurringMode::Draft => s.short_draft,
        RecurringMode::Finalize => s.short_finalize,
        RecurringMode::Send => s.short_send,
    }
}

/// The label of `mode` ("Create drafts").
pub fn mode_label(mode: RecurringMode) -> &'static str {
    let s = t().recurring_schedule();
    match mode {
        RecurringMode::Draft => s.mode_draft,
        RecurringMode::Finalize => s.mode_finalize,
        RecurringMode::Send => s.mode_send,
    }
}

/// What the job does in `mode` (shown under the mode's label).
pub fn mode_help(mode: RecurringMode) -> &'static str {
    let s = t().recurring_schedule();
    match mode {
        RecurringMode::Draft => s.mode_draft_help,
        RecurringMode::Finalize => s.mode_finalize_help,
        RecurringMode::Send => s.mode_send_help,
    }
}

/// The schedule fields.
#[component]
pub fn ScheduleFields(
    /// The form state.
    state: RecurringFormState,
    /// Field errors by path (`interval`, `next_date`, `end_date`, `mode`).
    errors: RwSignal<FieldErrors>,
) -> impl IntoView {
    let invalid =
        move |path: &'static str| move || errors.with(|e| e.contains_key(path)).then_some("true");
    let on_interval = move |ev: leptos::ev::Event| {
        let value = event_target_value(&ev);
        if let Some((i, _)) = INTERVALS.iter().find(|(_, v)| *v == value) {
            state.interval.set(*i);
        }
    };
    let mode_error = error_of(errors, "mode");
    let s = t().recurring_schedule();
    view! {
        <section class="form-section" aria-labelledby="sec-schedule">
            <h2 class="section-title" id="sec-schedule">{s.schedule}</h2>
            <div class="form-grid form-grid-3">
                <Field id="f-interval" label=s.repeats required=true error=error_of(errors, "interval")>
                    <select id="f-interval" on:change=on_interval aria-invalid=invalid("interval")>
                        {INTERVALS.iter().map(|(i, value)| {
                            let i = *i;
                            view! { <option value=*value selected=move || state.interval.get() == i>{interval_label(i)}</option> }
                        }).collect_view()}
                    </select>
                </Field>
                <Field id="f-next_date" label=s.next_date required=true
                    hint=s.next_date_hint
                    error=error_of(errors, "next_date")>
                    <input id="f-next_date" type="date" bind:value=state.next_date aria-invalid=invalid("next_date") />
                </Field>
                <Field id="f-end_date" label=s.ends_on hint=s.ends_on_hint
                    error=error_of(errors, "end_date")>
                    <input id="f-end_date" type="date" bind:value=state.end_date aria-invalid=invalid("end_date") />
                </Field>
            </div>
            <fieldset class="field choice-group" id="f-mode" tabindex="-1" class:field-invalid=move || mode_error.with(Option::is_some)>
                <legend>{s.what_happens} <span class="required" title=s.required>" *"</span></legend>
                {MODES.iter().map(|(m, value)| {
                    let m = *m;
                    view! {
                        <label class="choice">
                            <input type="radio" name="mode" value=*value
                                checked=move || state.mode.get() == m
                                on:change=move |_| state.mode.set(m) />
                            <span class="choice-text">
                                <strong>{mode_label(m)}</strong>
                                <span class="field-hint">{mode_help(m)}</span>
                            </span>
                        </label>
                    }
                }).collect_view()}
                <p class="field-error" id="f-mode-error" aria-live="polite">{move || mode_error.get()}</p>
            </fieldset>
            <p class="field-hint placeholder-hint">{s.placeholder_hint}</p>
            <p class="field-hint">{s.dates_hint}</p>
        </section>
    }
}
