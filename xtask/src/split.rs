//! The app's wasm split into a main module and chunks loaded on demand
//! (at the `wasm_split` points of `src/runner/chunks.rs`, Leptos's
//! `leptos::wasm_split`), done by `cargo xtask post-build` between trunk's
//! cargo build and the page: trunk 0.21 has no step for it.
//!
//! Trunk builds the app (linked with `--emit-relocs`, `build.rs`)
//! and runs wasm-bindgen on it whole. The hook splits cargo's output
//! (`wasm_split_cli_support`), runs wasm-bindgen on the main module again
//! (keeping the exports the chunks link against) and, in a release build,
//! wasm-opt on every module; then it swaps the staged glue and wasm for
//! the split ones and puts the chunks and their loader (`split.js`) in a
//! folder named after the build's hashed stem, so a new build never meets
//! an old chunk in a cache.

use crate::tools::{self, find_in};
use crate::{Result, run};
use std::path::{Path, PathBuf};
use std::process::Command;

/// What the split wrote: the main module's glue and wasm, and the folder of
/// chunks and their loader, all still outside the staging directory.
pub struct Split {
    /// wasm-bindgen's glue for the main module.
    pub glue: PathBuf,
    /// The main module.
    pub wasm: PathBuf,
    /// The chunks and `split.js`, to be copied into the staging directory
    /// under [`Split::folder`].
    pub chunks: PathBuf,
    /// The folder's name in the build (`app-<hash>-split`).
    pub folder: String,
}

/// Cargo's target directory.
fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| crate::root().join("target"))
}

fn io<T>(what: &Path, r: std::io::Result<T>) -> Result<T> {
    r.map_err(|e| format!("{}: {e}", what.display()))
}

/// Cargo's name for the build's profile.
fn profile(release: bool) -> &'static str {
    if release { "release" } else { "debug" }
}

/// The glue's name without `.js` (`app-<hash>`).
fn stem(glue: &Path) -> Result<String> {
    glue.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .ok_or_else(|| format!("{}: the glue has no name", glue.display()))
}

/// The name of the chunks' folder beside `glue` (`app-<hash>.js`):
/// `app-<hash>-split`, after the build, so a cached chunk never meets
/// another build's main module.
pub fn folder_beside(glue: &Path) -> Result<String> {
    Ok(format!("{}-split", stem(glue)?))
}

/// The last split's parts and the chunks each loads, a line per part:
/// `timed_waits chunk_7 chunk_8 … split_timed_waits` (for `cargo xtask
/// bench`, which weighs what a first Run fetches).
pub fn manifest(release: bool) -> PathBuf {
    target_dir()
        .join("wasm-split")
        .join(profile(release))
        .join("parts.txt")
}

/// Splits the app that trunk staged in `staging` (its glue named
/// `app-<hash>.js`), optimising every module for a release build.
pub fn split(staging: &Path, release: bool) -> Result<Split> {
    let staged = find_in(staging, "app.js")?;
    let stem = stem(&staged)?;
    let input = target_dir()
        .join("wasm32-unknown-unknown")
        .join(profile(release))
        .join("app.wasm");
    let work = manifest(release)
        .parent()
        .ok_or("the split's folder")?
        .to_path_buf();
    if work.exists() {
        io(&work, std::fs::remove_dir_all(&work))?;
    }
    let folder = folder_beside(&staged)?;
    let out = work.join("out");
    let chunks = out.join(&folder);
    io(&chunks, std::fs::create_dir_all(&chunks))?;
    let main = work.join("main.wasm");
    let bytes = io(&input, std::fs::read(&input))?;
    // The loader sits in the folder: it imports the glue from one level up,
    // and the main module imports it by its path from the glue.
    let main_module = format!("../{stem}.js");
    let link = format!("./{folder}/split.js");
    let written = wasm_split_cli_support::transform({
        let mut options = wasm_split_cli_support::Options::new(&bytes);
        options.output_dir = &out;
        options.main_out_path = &main;
        options.main_module = &main_module;
        options.link_name = &link;
        options
    })
    .map_err(|e| format!("splitting {}: {e}", input.display()))?;
    let mut parts: Vec<String> = written
        .prefetch_map
        .iter()
        .map(|(part, files)| format!("{part} {}\n", files.join(" ")))
        .collect();
    parts.sort();
    let listed = manifest(release);
    io(&listed, std::fs::write(&listed, parts.concat()))?;
    let mut modules = Vec::new();
    for module in written.split_modules {
        let name = module.file_name().ok_or("a chunk without a name")?;
        let moved = chunks.join(name);
        io(&module, std::fs::rename(&module, &moved))?;
        modules.push(moved);
    }
    let bindgen = work.join("bindgen");
    run(Command::new(tools::wasm_bindgen())
        .args(["--target", "web", "--no-typescript", "--keep-lld-exports"])
        .arg("--out-dir")
        .arg(&bindgen)
        .args(["--out-name", &stem])
        .arg(&main))?;
    let wasm = bindgen.join(format!("{stem}_bg.wasm"));
    if release {
        optimise(&modules, &wasm)?;
    }
    eprintln!(
        "xtask: split the app into a main module and {} chunks in {folder}/",
        modules.len()
    );
    Ok(Split {
        glue: bindgen.join(format!("{stem}.js")),
        wasm,
        chunks,
        folder,
    })
}

/// wasm-opt -Oz over the chunks and the main module (the main module
/// then flattened, re-relooped and optimised twice more), on every core,
/// without their name sections. A module wasm-opt has seen before, with the
/// same arguments, is taken from its cache ([`tools::wasm_opt_cache`]):
/// npm's wasm-opt starts node and compiles binaryen for every module, about
/// 0.6 s before it reads a byte, and most of the 196 modules are the same
/// from one build to the next.
fn optimise(chunks: &[PathBuf], main: &Path) -> Result {
    let wasm_opt = tools::ensure_wasm_opt()?;
    let cache = tools::wasm_opt_cache();
    io(&cache, std::fs::create_dir_all(&cache))?;
    let mut all: Vec<&Path> = chunks.iter().map(PathBuf::as_path).collect();
    all.push(main);
    let modules = all.len();
    let queue = std::sync::Mutex::new(all);
    let cached = std::sync::atomic::AtomicUsize::new(0);
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| -> Result {
                    loop {
                        // The lock is let go before wasm-opt runs.
                        let next = queue.lock().map_err(|e| e.to_string())?.pop();
                        let Some(module) = next else { break };
                        // The main module, which every load fetches, is
                        // then restructured and optimised again: 733 B
                        // gzip less for about 16 s more (measured at
                        // cc376e1), spent beside the chunks' on 2 cores.
                        let again: &[&str] = if module == main {
                            &["--flatten", "--rereloop", "-Oz", "-Oz"]
                        } else {
                            &[]
                        };
                        let args: Vec<&str> = ["-Oz"]
                            .iter()
                            .chain(again)
                            .chain(&[
                                "--strip-debug",
                                "--strip-producers",
                                "--strip-target-features",
                            ])
                            .copied()
                            .collect();
                        let input = io(module, std::fs::read(module))?;
                        let kept = cache.join(format!("{}.wasm", cache_key(&args, &input)));
                        if let Ok(output) = std::fs::read(&kept) {
                            io(module, std::fs::write(module, output))?;
                            cached.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                            continue;
                        }
                        // Its warnings (a name subsection it does not know)
                        // are shown only when it fails.
                        let done = Command::new(&wasm_opt)
                            .args(&args)
                            .arg(module)
                            .arg("-o")
                            .arg(module)
                            .output()
                            .map_err(|e| format!("could not start wasm-opt: {e}"))?;
                        if !done.status.success() {
                            return Err(format!(
                                "wasm-opt {} failed ({}): {}",
                                module.display(),
                                done.status,
                                String::from_utf8_lossy(&done.stderr)
                            ));
                        }
                        keep(module, &kept)?;
                    }
                    Ok(())
                })
            })
            .collect();
        workers.into_iter().try_for_each(|w| {
            w.join()
                .map_err(|_| "a wasm-opt thread panicked".to_string())?
        })
    })?;
    eprintln!(
        "xtask: wasm-opt: {} of {modules} modules optimised, the rest from its cache",
        modules - cached.into_inner()
    );
    Ok(())
}

/// The cache's name for wasm-opt's output of `input` with `args`: their
/// SHA-256, in hex.
fn cache_key(args: &[&str], input: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    let mut hash = Sha256::new();
    for arg in args {
        hash.update(arg.as_bytes());
        hash.update([0]);
    }
    hash.update([0]);
    hash.update(input);
    hash.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// Copies wasm-opt's output `module` into the cache as `kept`, whole or
/// not at all (written aside, then renamed), so that a build stopped
/// midway, or another beside it, never leaves half a module there.
fn keep(module: &Path, kept: &Path) -> Result {
    let aside = kept.with_extension(format!(
        "{}-{:?}.part",
        std::process::id(),
        std::thread::current().id()
    ));
    io(&aside, std::fs::copy(module, &aside))?;
    io(kept, std::fs::rename(&aside, kept))
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_cache_key_is_the_input_and_every_argument() {
        let key = super::cache_key(&["-Oz"], b"\0asm");
        assert_eq!(key.len(), 64);
        assert_eq!(key, super::cache_key(&["-Oz"], b"\0asm"));
        assert_ne!(key, super::cache_key(&["-Oz", "-Oz"], b"\0asm"));
        assert_ne!(key, super::cache_key(&["-Oz"], b"\0asn"));
        // Arguments are told apart from the input and from each other.
        assert_ne!(
            super::cache_key(&["-O", "z"], b""),
            super::cache_key(&["-Oz"], b"")
        );
    }
}
