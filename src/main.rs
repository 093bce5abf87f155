//! The page's entry point: loads the page's part of the reader's catalog
//! (the texts of runs come with the first run), then mounts
//! [`waitlab::App`].

use waitlab::i18n;
use wasm_bindgen_futures::spawn_local;

fn main() {
    console_error_panic_hook::set_once();
    spawn_local(async {
        if let Err(e) = i18n::load(i18n::requested_lang()).await {
            // Without any catalog there are no words to say it in.
            waitlab_browser::page::show_fatal(&format!("waitlab could not load its texts: {e}"));
            return;
        }
        leptos::mount::mount_to_body(waitlab::App);
        // The app now says everything the static shell said (or the
        // embed's first screen, which has the shell's id).
        waitlab_browser::page::remove_element("shell");
        // Rendering is synchronous: from here Run works.
        waitlab_browser::clock::mark("waitlab-interactive");
    });
}
