//! Entry point of the browser bundle: installs the panic hook, sets `<html lang>` to the
//! language the app speaks (the user's choice or the browser's) and mounts the app.

#[cfg(target_arch = "wasm32")]
fn main() {
    console_error_panic_hook::set_once();
    kontor_app::i18n::apply_html_lang(kontor_app::i18n::language());
    leptos::mount::mount_to_body(kontor_app::app::App);
}

/// The app runs in the browser only; built natively there is nothing to run.
#[cfg(not(target_arch = "wasm32"))]
fn main() {}
