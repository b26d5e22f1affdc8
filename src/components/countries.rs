//! Country names in the user's language (settings' Company section, the company form,
//! the company list and detail): every ISO 3166-1 code of the shared model's
//! [`COUNTRIES`], named in the user's language. English keeps the model's names
//! in code order (as before); German names come from the browser's `Intl.DisplayNames`
//! (`DE` → „Deutschland“, the model's name when the browser has none), sorted by name.

use super::locale::display_lang;
use crate::i18n::Lang;
use kontor_model::country::COUNTRIES;
use wasm_bindgen::JsValue;

/// The browser's region names in `lang` (`Intl.DisplayNames`, no fallback to the code).
fn region_names(lang: Lang) -> js_sys::Intl::DisplayNames {
    let options = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&options, &"type".into(), &"region".into());
    let _ = js_sys::Reflect::set(&options, &"fallback".into(), &"none".into());
    let locales = js_sys::Array::of1(&JsValue::from_str(lang.intl_locale()));
    js_sys::Intl::DisplayNames::new(&locales, &options)
}

/// `(code, name)` of every country in the current language.
pub fn options() -> Vec<(&'static str, String)> {
    let lang = display_lang();
    if lang == Lang::En {
        return COUNTRIES.iter().map(|(c, n)| (*c, n.to_string())).collect();
    }
    let names = region_names(lang);
    let mut list: Vec<(&'static str, String)> = COUNTRIES
        .iter()
        .map(|(code, name)| {
            let shown = names
                .of(code)
                .map(String::from)
                .filter(|n| !n.is_empty())
                .unwrap_or_else(|| name.to_string());
            (*code, shown)
        })
        .collect();
    let locales = js_sys::Array::of1(&JsValue::from_str(lang.intl_locale()));
    list.sort_by(|a, b| {
        js_sys::JsString::from(a.1.as_str())
            .locale_compare(&b.1, &locales, &js_sys::Object::new())
            .cmp(&0)
    });
    list
}

/// The name of the country `code` (ISO 3166-1 alpha-2) in the user's language: the
/// model's English name in English, the browser's `Intl.DisplayNames` in German
/// (`DE` → „Deutschland“); the code itself when neither knows it.
pub fn country_label(code: &str) -> String {
    let english = kontor_model::country::country_name(code);
    // Only a known code reaches `Intl` (a malformed one would throw).
    if display_lang() == Lang::De && english.is_some() {
        if let Some(name) = region_names(Lang::De)
            .of(code)
            .map(String::from)
            .filter(|n| !n.is_empty())
        {
            return name;
        }
    }
    english
        .map(str::to_string)
        .unwrap_or_else(|| code.to_string())
}
