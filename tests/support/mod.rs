//! What the component test binaries share: the DOM helpers ([`dom`]) and the records as the
//! server sends them ([`fixtures`]). A test binary takes both with
//! `#[path = "support/mod.rs"] mod support;` and `use support::{dom, fixtures};`.
#![allow(dead_code)]

pub mod dom;
#[path = "../components/fixtures.rs"]
pub mod fixtures;
