//! Kontor's browser app: a Leptos single-page app for invoices, offers and purchases,
//! built by trunk and talking to the Kontor server's `/api/v1`.
//!
//! - [`api`]: the typed HTTP client (one function per endpoint).
//! - [`app`]: the router and its one table of routes.
//! - [`pages`]: one module per resource with `list`, `detail` and `form` pages.
//! - [`components`]: reusable pieces (position editor, dialogs, toasts, badges, ...).
//! - [`i18n`]: German and English: the compile-time text catalogue and the language.
//! - [`paths`]: where the app is hosted (router base) and how to build in-app links.
//!
//! The modules are public so that the wasm-bindgen component tests in `tests/` can mount
//! single components.
//!
//! The crate is browser-only: for any other target it is empty (so a native
//! `cargo build` of the whole workspace does not compile the browser stack).
#![cfg(target_arch = "wasm32")]
#![warn(missing_docs)]

pub mod api;
pub mod app;
pub mod components;
pub mod i18n;
pub mod lazy;
pub mod pages;
pub mod paths;
