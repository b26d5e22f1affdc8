//! What the component tests share: the DOM helpers ([`dom`]) and the records as the server
//! sends them ([`fixtures`]). The test binary (`tests/components/main.rs`) declares this module;
//! its parts take both with `use crate::support::{dom, fixtures};`.
#![allow(dead_code)]

pub mod dom;
#[path = "../components/fixtures.rs"]
pub mod fixtures;
