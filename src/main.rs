//! The page's entry point: mounts [`waitlab::App`] and nothing else.

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(waitlab::App);
    // Rendering is synchronous: from here Run works.
    waitlab_browser::clock::mark("waitlab-interactive");
}
