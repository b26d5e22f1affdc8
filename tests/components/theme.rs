//! Light and dark (issue 12): with the app's own style sheets, every status badge keeps
//! WCAG AA contrast (≥ 4.5:1 for its 12–13 px text) in the light and in the dark theme, and
//! the dark theme really is another set of colours (page and badges).
//! `CHROMEDRIVER=/usr/bin/chromedriver cargo test -p kontor-app --target wasm32-unknown-unknown --test components -- theme::`.
#![cfg(target_arch = "wasm32")]

use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::HtmlElement;

/// The style sheets that define the colour tokens, the dark theme and the badges.
const CSS: [&str; 4] = [
    include_str!("../../style/tokens.css"),
    include_str!("../../style/base.css"),
    include_str!("../../style/components.css"),
    include_str!("../../style/polish.css"),
];

/// Every tone a status badge has (`badge-<tone>`, `components/status_badge.rs`).
const TONES: [&str; 12] = [
    "draft",
    "created",
    "sent",
    "partially_paid",
    "paid",
    "overdue",
    "ignored",
    "accepted",
    "billed",
    "archived",
    "pending",
    "approved",
];

fn document() -> web_sys::Document {
    web_sys::window().unwrap().document().unwrap()
}

/// `rgb(r, g, b)` / `rgba(r, g, b, a)` → (r, g, b, a).
fn rgba(css: &str) -> (f64, f64, f64, f64) {
    let inner = css
        .trim()
        .trim_start_matches("rgba(")
        .trim_start_matches("rgb(")
        .trim_end_matches(')');
    let parts: Vec<f64> = inner
        .split(',')
        .map(|p| p.trim().parse::<f64>().unwrap_or(f64::NAN))
        .collect();
    (
        parts[0],
        parts[1],
        parts[2],
        parts.get(3).copied().unwrap_or(1.0),
    )
}

/// WCAG 2 relative luminance of an sRGB colour (0–255 channels).
fn luminance((r, g, b, _): (f64, f64, f64, f64)) -> f64 {
    let lin = |c: f64| {
        let c = c / 255.0;
        if c <= 0.03928 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)
}

/// WCAG contrast ratio of two colours (≥ 1).
fn contrast(a: (f64, f64, f64, f64), b: (f64, f64, f64, f64)) -> f64 {
    let (la, lb) = (luminance(a), luminance(b));
    let (hi, lo) = if la > lb { (la, lb) } else { (lb, la) };
    (hi + 0.05) / (lo + 0.05)
}

/// (text colour, background colour) of each badge and of the page, as computed now.
fn colours(root: &HtmlElement) -> (Vec<(String, String, String)>, String) {
    let window = web_sys::window().unwrap();
    let mut out = Vec::new();
    for tone in TONES {
        let el = root
            .query_selector(&format!(".badge-{tone}"))
            .unwrap()
            .unwrap();
        let style = window.get_computed_style(&el).unwrap().unwrap();
        out.push((
            tone.to_string(),
            style.get_property_value("color").unwrap(),
            style.get_property_value("background-color").unwrap(),
        ));
    }
    let body = window
        .get_computed_style(&document().body().unwrap())
        .unwrap()
        .unwrap()
        .get_property_value("background-color")
        .unwrap();
    (out, body)
}

#[wasm_bindgen_test]
fn status_badges_keep_aa_contrast_in_light_and_dark() {
    let doc = document();
    let style = doc.create_element("style").unwrap();
    style.set_text_content(Some(&CSS.join("\n")));
    doc.head().unwrap().append_child(&style).unwrap();
    let root: HtmlElement = doc.create_element("div").unwrap().unchecked_into();
    root.set_inner_html(
        &TONES
            .iter()
            .map(|t| format!("<span class=\"badge badge-{t}\">{t}</span>"))
            .collect::<String>(),
    );
    doc.body().unwrap().append_child(&root).unwrap();
    let html = doc.document_element().unwrap();

    let mut seen = Vec::new();
    for theme in ["light", "dark"] {
        html.set_attribute("data-theme", theme).unwrap();
        let (badges, page) = colours(&root);
        for (tone, fg, bg) in &badges {
            let (fg, bg) = (rgba(fg), rgba(bg));
            assert_eq!(bg.3, 1.0, "{theme} {tone}: an opaque badge background");
            let ratio = contrast(fg, bg);
            assert!(
                ratio >= 4.5,
                "{theme} {tone}: contrast {ratio:.2}:1 is below WCAG AA (4.5:1)"
            );
        }
        seen.push((badges, page));
    }
    html.remove_attribute("data-theme").unwrap();
    root.remove();
    style.remove();

    let ((light, light_page), (dark, dark_page)) = (&seen[0], &seen[1]);
    assert_ne!(light_page, dark_page, "the dark theme darkens the page");
    assert!(
        luminance(rgba(dark_page)) < luminance(rgba(light_page)),
        "{dark_page} is darker than {light_page}"
    );
    for (l, d) in light.iter().zip(dark) {
        assert_ne!(
            (&l.1, &l.2),
            (&d.1, &d.2),
            "badge {} has its own dark colours",
            l.0
        );
    }
}
