//! "Create down-payment invoice" on an offer (issue 33): a dialog asks for a percentage
//! of the offer's net total or a net amount, checks it with the model's rule
//! (`kontor_model::down_payment_share::down_payment_positions`) and opens the invoice form with
//! the down payment filled in (`/invoices/new?from_offer=…&down_payment_percent=…`), where
//! it is reviewed and finalized like any invoice.

use crate::components::dialog::Dialog;
use crate::components::locale::parse_typed;
use crate::i18n::t;
use kontor_model::down_payment_share::{down_payment_positions, Share};
use kontor_model::offer::Offer;
use kontor_model::party::Language;
use leptos::prelude::*;
use leptos_router::hooks::use_navigate;

/// The button and its dialog for `offer`.
#[component]
pub fn CreateDownPaymentAction(
    /// The offer billed.
    offer: Offer,
) -> impl IntoView {
    let texts = t().offer_detail();
    let open = RwSignal::new(false);
    let by_percent = RwSignal::new(true);
    let value = RwSignal::new(String::from("30"));
    let problem = RwSignal::new(None::<String>);
    let navigate = use_navigate();
    let offer = StoredValue::new(offer);
    let submit = move |_| {
        let share = match parse_typed(&value.get_untracked()) {
            Ok(Some(v)) if by_percent.get_untracked() => Share::Percent(v),
            Ok(Some(v)) => Share::Net(v),
            _ => {
                problem.set(Some(texts.down_payment_invalid.to_string()));
                return;
            }
        };
        let fits = offer.with_value(|o| {
            down_payment_positions(
                &o.tax_breakdown,
                share,
                &o.currency,
                Language::De,
                1,
                &o.identifier,
            )
            .is_ok()
        });
        if !fits {
            problem.set(Some(texts.down_payment_invalid.to_string()));
            return;
        }
        let (name, amount) = match share {
            Share::Percent(p) => ("down_payment_percent", p),
            Share::Net(n) => ("down_payment_net", n),
        };
        let id = offer.with_value(|o| o.id);
        open.set(false);
        navigate(
            &format!(
                "/invoices/new?from_offer={id}&{name}={}",
                amount.normalize()
            ),
            Default::default(),
        );
    };
    let open_dialog = move |_| {
        problem.set(None);
        open.set(true);
    };
    view! {
        <button type="button" class="btn" id="create-down-payment" on:click=open_dialog>
            {texts.create_down_payment}
        </button>
        <Dialog open=open title=texts.down_payment_title.to_string()>
            <p>{texts.down_payment_text}</p>
            <fieldset class="field choice-group">
                <legend>{texts.down_payment_by}</legend>
                <label class="choice">
                    <input type="radio" name="down-payment-by" id="down-payment-by-percent"
                        prop:checked=move || by_percent.get() on:change=move |_| by_percent.set(true) />
                    <span class="choice-text">{texts.down_payment_percent}</span>
                </label>
                <label class="choice">
                    <input type="radio" name="down-payment-by" id="down-payment-by-amount"
                        prop:checked=move || !by_percent.get() on:change=move |_| by_percent.set(false) />
                    <span class="choice-text">{texts.down_payment_amount}</span>
                </label>
            </fieldset>
            <div class="field">
                <label for="down-payment-value">
                    {move || if by_percent.get() { texts.down_payment_percent } else { texts.down_payment_amount }}
                </label>
                <input type="text" inputmode="decimal" class="num input-narrow" id="down-payment-value" bind:value=value />
            </div>
            <p class="field-error" role="alert" id="down-payment-error">{move || problem.get()}</p>
            <div class="dialog-actions">
                <button type="button" class="btn" on:click=move |_| open.set(false)>{t().common().cancel}</button>
                {
                    let submit = submit.clone();
                    view! {
                        <button type="button" class="btn btn-primary" id="down-payment-continue" on:click=submit>
                            {texts.down_payment_continue}
                        </button>
                    }
                }
            </div>
        </Dialog>
    }
}
