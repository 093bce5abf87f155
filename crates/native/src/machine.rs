//! This machine as a set's provenance names it: its system and its CPU,
//! read from `/etc/os-release`, the kernel and `/proc/cpuinfo`. Shared by
//! the native probe (`env.rs`) and `cargo xtask gallery`, which includes
//! this file by path (xtask does not depend on the probe's crate).

/// A value of a `key: value` or `key=value` line of a system file.
fn field(path: &str, key: &str, sep: char) -> Option<String> {
    std::fs::read_to_string(path)
        .ok()?
        .lines()
        .find_map(|line| {
            let (k, v) = line.split_once(sep)?;
            (k.trim() == key).then(|| v.trim().trim_matches('"').to_owned())
        })
}

/// The system: its name, kernel and architecture.
pub fn os() -> String {
    let name = field("/etc/os-release", "PRETTY_NAME", '=')
        .unwrap_or_else(|| std::env::consts::OS.to_owned());
    match std::fs::read_to_string("/proc/sys/kernel/osrelease") {
        Ok(kernel) => format!(
            "{name}, kernel {}, {}",
            kernel.trim(),
            std::env::consts::ARCH
        ),
        Err(_) => format!("{name}, {}", std::env::consts::ARCH),
    }
}

/// The CPU's model (its architecture where the system does not say).
pub fn cpu() -> String {
    field("/proc/cpuinfo", "model name", ':').unwrap_or_else(|| std::env::consts::ARCH.to_owned())
}
