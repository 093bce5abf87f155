//! Support for the end-to-end tests: a static file server for the built
//! dist (with or without cross-origin isolation), a minimal WebDriver
//! client, and the browsers to drive.

pub mod server;
pub mod webdriver;
