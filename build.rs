//! Links the app's wasm with its relocations, which `cargo xtask
//! post-build` splits it with (at the `wasm_split` points of
//! `src/runner/chunks.rs`). Only the app: the worker's wasm is not
//! split, and wasm-opt cannot handle a module that keeps its linking
//! section.

fn main() {
    // Without this, cargo runs the script again (and so builds the app
    // again) whenever any file under the package's root changes: the
    // tests', the docs', xtask's.
    println!("cargo:rerun-if-changed=build.rs");
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32") {
        println!("cargo:rustc-link-arg-bin=app=--emit-relocs");
    }
}
