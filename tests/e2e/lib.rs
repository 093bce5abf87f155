//! waitlab-e2e: support for the end-to-end tests (`e2e.rs` and its
//! modules in `e2e/`): checks of what a page told ([`judged`]), a static
//! file server for the built dist (with or without cross-origin isolation, and
//! broken on purpose), a minimal WebDriver client and the browsers to
//! drive, and a real WordPress to paste addresses into. It depends on the
//! core, never on the app: the tests read the page as a browser shows it.

pub mod judged;
pub mod server;
pub mod webdriver;
pub mod wordpress;
