//! The signature pad of the public approval page (issue 31 § App): draw with a mouse, a
//! pen or a finger (pointer events; the canvas takes touch so the page does not scroll
//! while signing), or — the keyboard alternative — type the name, which is written on
//! the same canvas in a handwriting-like face. Either way the signature is the canvas as a
//! PNG data URL (`data:image/png;base64,…`, 600 × 180 px, a few kB; the server accepts up
//! to 200 kB).

use crate::i18n::t;
use leptos::html::Canvas;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, PointerEvent};

/// The canvas's drawing size in pixels (it is scaled to the page's width by CSS).
const WIDTH: u32 = 600;
const HEIGHT: u32 = 180;

/// How the signature is given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SignatureMode {
    /// Drawn on the canvas.
    Draw,
    /// Typed: the name is written on the canvas.
    Type,
}

fn context(canvas: &HtmlCanvasElement) -> Option<CanvasRenderingContext2d> {
    canvas.get_context("2d").ok().flatten()?.dyn_into().ok()
}

/// The point of `ev` in canvas pixels (the canvas may be shown smaller or larger).
fn point(canvas: &HtmlCanvasElement, ev: &PointerEvent) -> (f64, f64) {
    let rect = canvas.get_bounding_client_rect();
    let sx = f64::from(WIDTH) / rect.width().max(1.0);
    let sy = f64::from(HEIGHT) / rect.height().max(1.0);
    (
        (f64::from(ev.client_x()) - rect.left()) * sx,
        (f64::from(ev.client_y()) - rect.top()) * sy,
    )
}

fn clear(canvas: &HtmlCanvasElement) {
    if let Some(cx) = context(canvas) {
        cx.clear_rect(0.0, 0.0, f64::from(WIDTH), f64::from(HEIGHT));
    }
}

fn data_url(canvas: &HtmlCanvasElement) -> Option<String> {
    canvas.to_data_url_with_type("image/png").ok()
}

/// Writes `name` on the canvas (centred, shrunk to fit); clears it for an empty name.
fn write_name(canvas: &HtmlCanvasElement, name: &str) {
    clear(canvas);
    let Some(cx) = context(canvas) else { return };
    let name = name.trim();
    if name.is_empty() {
        return;
    }
    let mut size = 56.0_f64;
    loop {
        cx.set_font(&format!(
            "italic {size}px 'Segoe Script', 'Brush Script MT', cursive"
        ));
        let wide = cx.measure_text(name).map(|m| m.width()).unwrap_or(0.0);
        if wide <= f64::from(WIDTH) - 40.0 || size <= 14.0 {
            break;
        }
        size -= 4.0;
    }
    cx.set_fill_style_str("#1a2b4c");
    cx.set_text_align("center");
    cx.set_text_baseline("middle");
    let _ = cx.fill_text(name, f64::from(WIDTH) / 2.0, f64::from(HEIGHT) / 2.0);
}

/// The pad: "Draw" / "Type" choice, the canvas, "Clear", and in the typed mode a text
/// field. `signature` holds the PNG data URL of what is on the canvas (`None` while it is
/// empty). Ids: `signature-pad` (canvas), `signature-typed`, `signature-clear`,
/// `signature-mode-draw`, `signature-mode-type`.
#[component]
pub fn SignaturePad(
    /// The signature as a PNG data URL; `None` while nothing is drawn or typed.
    signature: RwSignal<Option<String>>,
) -> impl IntoView {
    let canvas_ref = NodeRef::<Canvas>::new();
    let mode = RwSignal::new(SignatureMode::Draw);
    let typed = RwSignal::new(String::new());
    let drawing = RwSignal::new(None::<i32>);
    let with_canvas = move |f: &dyn Fn(&HtmlCanvasElement)| {
        if let Some(canvas) = canvas_ref.get_untracked() {
            f(&canvas);
        }
    };
    let down = move |ev: PointerEvent| {
        if mode.get_untracked() != SignatureMode::Draw {
            return;
        }
        ev.prevent_default();
        with_canvas(&|canvas| {
            let _ = canvas.set_pointer_capture(ev.pointer_id());
            let Some(cx) = context(canvas) else { return };
            let (x, y) = point(canvas, &ev);
            cx.set_line_width(3.0);
            cx.set_line_cap("round");
            cx.set_line_join("round");
            cx.set_stroke_style_str("#1a2b4c");
            cx.begin_path();
            cx.move_to(x, y);
            // A dot for a tap without movement.
            cx.line_to(x + 0.1, y + 0.1);
            cx.stroke();
        });
        drawing.set(Some(ev.pointer_id()));
    };
    let moved = move |ev: PointerEvent| {
        if drawing.get_untracked() != Some(ev.pointer_id()) {
            return;
        }
        ev.prevent_default();
        with_canvas(&|canvas| {
            let Some(cx) = context(canvas) else { return };
            let (x, y) = point(canvas, &ev);
            cx.line_to(x, y);
            cx.stroke();
        });
    };
    let up = move |ev: PointerEvent| {
        if drawing.get_untracked() != Some(ev.pointer_id()) {
            return;
        }
        drawing.set(None);
        with_canvas(&|canvas| signature.set(data_url(canvas)));
    };
    let reset = move |_| {
        typed.set(String::new());
        with_canvas(&|canvas| clear(canvas));
        signature.set(None);
    };
    let choose = move |next: SignatureMode| {
        mode.set(next);
        typed.set(String::new());
        with_canvas(&|canvas| clear(canvas));
        signature.set(None);
    };
    let type_name = move |ev: leptos::ev::Event| {
        let name = event_target_value(&ev);
        typed.set(name.clone());
        with_canvas(&|canvas| {
            write_name(canvas, &name);
            signature.set(
                (!name.trim().is_empty())
                    .then(|| data_url(canvas))
                    .flatten(),
            );
        });
    };
    let texts = t().approval_page();
    view! {
        <fieldset class="signature-pad">
            <legend>{texts.signature}</legend>
            <div class="segmented" role="radiogroup" aria-label=texts.signature_mode>
                <label class="segmented-option">
                    <input type="radio" name="signature-mode" id="signature-mode-draw" checked=move || mode.get() == SignatureMode::Draw
                        on:change=move |_| choose(SignatureMode::Draw) />
                    {texts.signature_draw}
                </label>
                <label class="segmented-option">
                    <input type="radio" name="signature-mode" id="signature-mode-type" checked=move || mode.get() == SignatureMode::Type
                        on:change=move |_| choose(SignatureMode::Type) />
                    {texts.signature_type}
                </label>
            </div>
            <Show when=move || mode.get() == SignatureMode::Type>
                <div class="field">
                    <label for="signature-typed">{texts.signature_typed}</label>
                    <input id="signature-typed" type="text" autocomplete="name" prop:value=move || typed.get() on:input=type_name />
                </div>
            </Show>
            <canvas id="signature-pad" node_ref=canvas_ref width=WIDTH height=HEIGHT
                class:is-typed=move || mode.get() == SignatureMode::Type
                role="img" aria-label=texts.signature_canvas
                on:pointerdown=down on:pointermove=moved on:pointerup=up on:pointercancel=up></canvas>
            <div class="signature-foot">
                <span class="muted">{move || if mode.get() == SignatureMode::Draw { texts.signature_draw_hint } else { texts.signature_type_hint }}</span>
                <button type="button" class="btn btn-small" id="signature-clear" on:click=reset
                    disabled=move || signature.get().is_none()>{texts.signature_clear}</button>
            </div>
        </fieldset>
    }
}
