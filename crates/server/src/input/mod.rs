//! Outside input made safe before it is stored: HTML cleaning (`sanitize`), SVG logos
//! (`svg`) and uploaded files (`uploads`).

pub mod sanitize;
pub mod svg;
pub mod uploads;
