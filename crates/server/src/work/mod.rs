//! Expensive or slow work kept off the request path's budget: bounded CPU work
//! (`cpu_work`), PDF rendering (`pdf_render`), e-mail (`mail`), job leases (`leases`) and the heartbeats that
//! tell live server processes from gone ones (`processes`).

pub mod cpu_work;
pub mod leases;
pub mod mail;
pub mod pdf_render;
pub mod processes;
