//! The probe worker's binary: all of it is `waitlab_browser::worker`. It is
//! a bin of this package, not of the glue, so that trunk's release builds
//! of the app and the worker share one feature resolution.

fn main() {
    waitlab_browser::worker::run();
}
