//! Settings → Dunning (issue 33 § Dunning levels in the app): the account's levels
//! (`GET`/`PUT /dunning_levels`) — for each the days after the due date (level 1) or after
//! the previous reminder, the fee, whether it is a flat fee, and its name and letter text
//! in German and English — with a live preview of the letter text in the user's language
//! filled with an example invoice. A level can be added (up to the model's `MAX_LEVELS`)
//! and the last one removed. The levels are checked with the model's `validate_levels`
//! before they are sent; the server's 422 marks the same fields. Admins only: everyone
//! else sees the section read-only.

use crate::api::dunning::{get_dunning_levels, put_dunning_levels};
use crate::components::field::field_message;
use crate::components::locale::{format_input, parse_typed};
use crate::components::money::format_money;
use crate::components::toast::Toasts;
use crate::i18n::{language, t, Lang};
use kontor_model::dunning::{
    fill_text, validate_levels, DunningLevel, DunningLevels, LevelTexts, MAX_LEVELS, PLACEHOLDERS,
};
use kontor_model::error::FieldErrors;
use kontor_model::Decimal;
use leptos::prelude::*;
use std::str::FromStr;

/// The example a level's text is previewed with: `(placeholder, value)` in `lang`.
fn example(lang: Lang, fee: Decimal) -> Vec<(&'static str, String)> {
    let (number, date, due, new_due) = match lang {
        Lang::De => ("R2611-004", "02.11.2026", "16.11.2026", "07.12.2026"),
        Lang::En => ("R2611-004", "11/02/2026", "11/16/2026", "12/07/2026"),
    };
    vec![
        ("invoice_number", number.into()),
        ("invoice_date", date.into()),
        ("open_amount", format_money(Decimal::new(119_000, 2), "EUR")),
        ("due_date", due.into()),
        ("fees", format_money(fee, "EUR")),
        ("interest", format_money(Decimal::new(742, 2), "EUR")),
        ("new_due_date", new_due.into()),
    ]
}

/// A level as edited: the fee as typed.
#[derive(Clone, Debug, PartialEq)]
struct Draft {
    level: DunningLevel,
    fee: String,
}

impl Draft {
    fn of(level: DunningLevel) -> Self {
        Draft {
            fee: format_input(level.fee),
            level,
        }
    }
}

/// The levels as edited → the levels to send (the fee read as typed; a fee that does not
/// read is an error on `levels[i].fee`).
fn checked(drafts: &[Draft]) -> Result<Vec<DunningLevel>, FieldErrors> {
    let mut errors = FieldErrors::new();
    let mut levels = Vec::new();
    for (i, d) in drafts.iter().enumerate() {
        let mut level = d.level.clone();
        level.level = u8::try_from(i + 1).unwrap_or(u8::MAX);
        match parse_typed(&d.fee) {
            Ok(fee) => level.fee = fee.unwrap_or(Decimal::ZERO),
            Err(message) => {
                errors.insert(format!("levels[{i}].fee"), vec![message]);
            }
        }
        levels.push(level);
    }
    if let Err(more) = validate_levels(&levels) {
        for (k, v) in more {
            errors.entry(k).or_default().extend(v);
        }
    }
    if errors.is_empty() {
        Ok(levels)
    } else {
        Err(errors)
    }
}

/// The section.
#[component]
pub fn DunningSection(
    /// True when the caller may not change settings (read-only key, staff).
    #[prop(into)]
    read_only: Signal<bool>,
) -> impl IntoView {
    let toasts = Toasts::use_context();
    let drafts = RwSignal::new(Vec::<Draft>::new());
    let saved = RwSignal::new(Vec::<Draft>::new());
    let errors = RwSignal::new(FieldErrors::new());
    let loaded = RwSignal::new(false);
    let pending = RwSignal::new(false);
    leptos::task::spawn_local(async move {
        if let Ok(DunningLevels { levels }) = get_dunning_levels().await {
            let list: Vec<Draft> = levels.into_iter().map(Draft::of).collect();
            saved.set(list.clone());
            drafts.set(list);
            loaded.set(true);
        }
    });
    let dirty = Signal::derive(move || drafts.get() != saved.get());
    let count = Memo::new(move |_| drafts.with(Vec::len));
    let texts = t().dunning_settings();
    let error_of = move |i: usize, field: &'static str| {
        Signal::derive(move || errors.with(|e| field_message(e, &format!("levels[{i}].{field}"))))
    };
    let save = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        match checked(&drafts.get_untracked()) {
            Err(e) => errors.set(e),
            Ok(levels) => {
                errors.set(FieldErrors::new());
                pending.set(true);
                leptos::task::spawn_local(async move {
                    match put_dunning_levels(&DunningLevels { levels }).await {
                        Ok(DunningLevels { levels }) => {
                            let list: Vec<Draft> = levels.into_iter().map(Draft::of).collect();
                            saved.set(list.clone());
                            drafts.set(list);
                            toasts.success(t().dunning_settings().saved.to_string());
                        }
                        Err(e) if !e.errors.is_empty() => errors.set(e.errors),
                        Err(e) => toasts.error(e.message),
                    }
                    pending.set(false);
                });
            }
        }
    };
    let add = move |_| {
        drafts.update(|d| {
            if d.len() < MAX_LEVELS {
                let n = d.len() + 1;
                let template = d.last().map(|l| l.level.clone()).unwrap_or(DunningLevel {
                    level: 1,
                    name: LevelTexts {
                        en: String::new(),
                        de: String::new(),
                    },
                    days: 14,
                    fee: Decimal::ZERO,
                    flat_fee: false,
                    text: LevelTexts {
                        en: String::new(),
                        de: String::new(),
                    },
                });
                let mut level = template;
                level.level = u8::try_from(n).unwrap_or(u8::MAX);
                level.name = LevelTexts {
                    en: format!("Reminder {n}"),
                    de: format!("Mahnung {n}"),
                };
                d.push(Draft::of(level));
            }
        })
    };
    let remove = move |_| {
        drafts.update(|d| {
            if d.len() > 1 {
                d.pop();
            }
        })
    };
    view! {
        <form class="form-section settings-section" id="settings-dunning" aria-labelledby="settings-dunning-title" novalidate on:submit=save>
            <fieldset class="settings-fieldset" disabled=move || read_only.get()>
                <div class="settings-head">
                    <h2 class="section-title" id="settings-dunning-title">{texts.title}</h2>
                    <span class="settings-dirty" class:is-shown=move || dirty.get()>
                        {move || dirty.get().then_some(t().settings_form().unsaved)}
                    </span>
                    <button type="submit" class="btn btn-primary" id="settings-dunning-save"
                        disabled=move || pending.get() || read_only.get() || !loaded.get()>
                        {move || if pending.get() { t().settings_form().saving } else { t().common().save }}
                    </button>
                </div>
                <p class="muted settings-intro">{texts.intro}</p>
                <p class="field-error settings-problem" role="alert">
                    {move || errors.with(|e| field_message(e, "levels"))}
                </p>
                // Only a change of the number of levels renders the cards again (typing
                // into one keeps its focus).
                {move || (0..count.get()).map(|i| view! {
                    <DunningLevelCard i=i drafts=drafts error_of=error_of />
                }).collect_view()}
                <div class="dunning-actions">
                    <button type="button" class="btn" id="dunning-add" on:click=add
                        disabled=move || drafts.with(|d| d.len() >= MAX_LEVELS)>{texts.add}</button>
                    <button type="button" class="btn btn-quiet" id="dunning-remove" on:click=remove
                        disabled=move || drafts.with(|d| d.len() <= 1)>{texts.remove}</button>
                </div>
            </fieldset>
        </form>
    }
}

/// One level's fields and its letter preview.
#[component]
fn DunningLevelCard(
    i: usize,
    drafts: RwSignal<Vec<Draft>>,
    error_of: impl Fn(usize, &'static str) -> Signal<Option<String>> + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let texts = t().dunning_settings();
    let get =
        move |f: fn(&Draft) -> String| move || drafts.with(|d| d.get(i).map(f).unwrap_or_default());
    let set = move |f: fn(&mut Draft, String)| {
        move |ev: leptos::ev::Event| {
            let value = event_target_value(&ev);
            drafts.update(|d| {
                if let Some(x) = d.get_mut(i) {
                    f(x, value)
                }
            })
        }
    };
    let id = move |field: &str| format!("dunning-{}-{field}", i + 1);
    let field = move |name: &'static str, label: &'static str, input: AnyView| {
        let error = error_of(i, name);
        view! {
            <div class="field" class:has-error=move || error.get().is_some()>
                <label for=id(&name.replace('.', "-"))>{label}</label>
                {input}
                {move || error.get().map(|e| view! { <p class="field-error">{e}</p> })}
            </div>
        }
    };
    let preview = move || {
        drafts.with(|d| {
            d.get(i)
                .map(|x| {
                    let lang = language();
                    let text = match lang {
                        Lang::De => &x.level.text.de,
                        Lang::En => &x.level.text.en,
                    };
                    let fee = parse_typed(&x.fee).ok().flatten().unwrap_or(Decimal::ZERO);
                    let values = example(lang, fee);
                    let pairs: Vec<(&str, &str)> =
                        values.iter().map(|(k, v)| (*k, v.as_str())).collect();
                    fill_text(text, &pairs)
                })
                .unwrap_or_default()
        })
    };
    view! {
        <fieldset class="dunning-level" id=format!("dunning-level-{}", i + 1)>
            <legend>{move || crate::i18n::fill(t().dunning_settings().level, &[("n", &(i + 1).to_string())])}</legend>
            <div class="form-grid">
                {field("name.de", texts.name_de, view! {
                    <input id=id("name-de") type="text" prop:value=get(|d| d.level.name.de.clone()) on:input=set(|d, v| d.level.name.de = v) />
                }.into_any())}
                {field("name.en", texts.name_en, view! {
                    <input id=id("name-en") type="text" prop:value=get(|d| d.level.name.en.clone()) on:input=set(|d, v| d.level.name.en = v) />
                }.into_any())}
                {field("days", texts.days, view! {
                    <input id=id("days") type="text" inputmode="numeric" class="input-number"
                        prop:value=get(|d| d.level.days.to_string())
                        on:input=set(|d, v| d.level.days = i64::from_str(v.trim()).unwrap_or(-1)) />
                }.into_any())}
                {field("fee", texts.fee, view! {
                    <input id=id("fee") type="text" inputmode="decimal" class="input-number" prop:value=get(|d| d.fee.clone()) on:input=set(|d, v| d.fee = v) />
                }.into_any())}
                <label class="check">
                    <input type="checkbox" id=id("flat-fee")
                        prop:checked=move || drafts.with(|d| d.get(i).is_some_and(|x| x.level.flat_fee))
                        on:change=move |ev| {
                            let on = event_target_checked(&ev);
                            drafts.update(|d| if let Some(x) = d.get_mut(i) { x.level.flat_fee = on });
                        } />
                    {texts.flat_fee}
                </label>
            </div>
            {field("text.de", texts.text_de, view! {
                <textarea id=id("text-de") rows="4" prop:value=get(|d| d.level.text.de.clone()) on:input=set(|d, v| d.level.text.de = v)></textarea>
            }.into_any())}
            {field("text.en", texts.text_en, view! {
                <textarea id=id("text-en") rows="4" prop:value=get(|d| d.level.text.en.clone()) on:input=set(|d, v| d.level.text.en = v)></textarea>
            }.into_any())}
            // The placeholders are typed verbatim: names, not words of the interface.
            <p class="muted dunning-placeholders">
                {texts.placeholders} " "
                <span data-record-text="">
                    {PLACEHOLDERS.iter().map(|p| format!("{{{p}}}")).collect::<Vec<_>>().join(", ")}
                </span>
            </p>
            <div class="dunning-preview" id=format!("dunning-preview-{}", i + 1) aria-live="polite">
                <p class="dunning-preview-title">{texts.preview}</p>
                <p class="dunning-preview-text">{preview}</p>
            </div>
        </fieldset>
    }
}
