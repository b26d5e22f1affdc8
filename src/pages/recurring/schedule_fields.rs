//! The schedule section of the recurring invoice form: interval, next invoice date, end
//! date, and the mode with what each one does.

use super::form_state::RecurringFormState;
use crate::api::recurring::{Interval, RecurringMode};
use crate::components::field::{error_of, Field};
use kontor_model::error::FieldErrors;
use leptos::prelude::*;

/// The intervals offered, with their labels.
pub const INTERVALS: [(Interval, &str, &str); 3] = [
    (Interval::Monthly, "monthly", "Monthly"),
    (Interval::Quarterly, "quarterly", "Quarterly"),
    (Interval::Yearly, "yearly", "Yearly"),
];

/// The modes offered: wire value, label, and what the job then does.
pub const MODES: [(RecurringMode, &str, &str, &str); 3] = [
    (
        RecurringMode::Draft,
        "draft",
        "Create drafts",
        "Each invoice is saved as a draft; you check it, finalize and send it yourself.",
    ),
    (
        RecurringMode::Finalize,
        "finalize",
        "Create finalized invoices",
        "Each invoice gets its number at once; you send it yourself.",
    ),
    (
        RecurringMode::Send,
        "send",
        "Create and send",
        "Each invoice gets its number and is e-mailed to the customer's default recipients.",
    ),
];

/// The label of `interval` ("Monthly").
pub fn interval_label(interval: Interval) -> &'static str {
    INTERVALS
        .iter()
        .find(|(i, _, _)| *i == interval)
        .map(|(_, _, label)| *label)
        .unwrap_or("")
}

/// The short name of `mode` in lists ("Drafts", "Finalized", "Sent by e-mail").
pub fn mode_short(mode: RecurringMode) -> &'static str {
    match mode {
        RecurringMode::Draft => "Drafts",
        RecurringMode::Finalize => "Finalized",
        RecurringMode::Send => "Sent by e-mail",
    }
}

/// The label of `mode` ("Create drafts").
pub fn mode_label(mode: RecurringMode) -> &'static str {
    MODES
        .iter()
        .find(|(m, _, _, _)| *m == mode)
        .map(|(_, _, label, _)| *label)
        .unwrap_or("")
}

/// What the placeholders in titles and positions become (shown under the schedule).
pub const PLACEHOLDER_HINT: &str = "In the title, the positions and their descriptions, \
    {month}, {year}, {quarter} and {period} become the invoiced period: \
    \u{201c}Hosting {month} {year}\u{201d} is billed as \u{201c}Hosting November 2026\u{201d}.";

/// How each invoice's dates are set (shown under the schedule).
pub const DATES_HINT: &str = "Each invoice is dated on its day, due after the customer's \
    payment term, and its service period is the month, quarter or year it is dated in.";

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
        if let Some((i, _, _)) = INTERVALS.iter().find(|(_, v, _)| *v == value) {
            state.interval.set(*i);
        }
    };
    let mode_error = error_of(errors, "mode");
    view! {
        <section class="form-section" aria-labelledby="sec-schedule">
            <h2 class="section-title" id="sec-schedule">"Schedule"</h2>
            <div class="form-grid form-grid-3">
                <Field id="f-interval" label="Repeats" required=true error=error_of(errors, "interval")>
                    <select id="f-interval" on:change=on_interval aria-invalid=invalid("interval")>
                        {INTERVALS.iter().map(|(i, value, label)| {
                            let i = *i;
                            view! { <option value=*value selected=move || state.interval.get() == i>{*label}</option> }
                        }).collect_view()}
                    </select>
                </Field>
                <Field id="f-next_date" label="Next invoice date" required=true
                    hint="The first invoice is dated this day; later ones keep its day of the month."
                    error=error_of(errors, "next_date")>
                    <input id="f-next_date" type="date" bind:value=state.next_date aria-invalid=invalid("next_date") />
                </Field>
                <Field id="f-end_date" label="Ends on" hint="Empty: no end. No invoice is dated after it."
                    error=error_of(errors, "end_date")>
                    <input id="f-end_date" type="date" bind:value=state.end_date aria-invalid=invalid("end_date") />
                </Field>
            </div>
            <fieldset class="field choice-group" id="f-mode" tabindex="-1" class:field-invalid=move || mode_error.with(Option::is_some)>
                <legend>"What happens" <span class="required" title="required">" *"</span></legend>
                {MODES.iter().map(|(m, value, label, explanation)| {
                    let m = *m;
                    view! {
                        <label class="choice">
                            <input type="radio" name="mode" value=*value
                                checked=move || state.mode.get() == m
                                on:change=move |_| state.mode.set(m) />
                            <span class="choice-text">
                                <strong>{*label}</strong>
                                <span class="field-hint">{*explanation}</span>
                            </span>
                        </label>
                    }
                }).collect_view()}
                <p class="field-error" id="f-mode-error" aria-live="polite">{move || mode_error.get()}</p>
            </fieldset>
            <p class="field-hint placeholder-hint">{PLACEHOLDER_HINT}</p>
            <p class="field-hint">{DATES_HINT}</p>
        </section>
    }
}
