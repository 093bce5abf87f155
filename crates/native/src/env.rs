//! The environment block of a native run: OS, CPU, cores, toolchain and
//! the clock's granularity, with the command that produced the numbers.

use std::time::{Instant, SystemTime, UNIX_EPOCH};
use waitlab_core::clock::ClockInfo;
use waitlab_core::schema::{Environment, NativeEnv, Source};

/// Readings taken to measure the clock.
const CLOCK_READINGS: usize = 20_000;

/// `Instant` granularity: consecutive readings in a tight loop.
pub fn clock() -> Option<ClockInfo> {
    let origin = Instant::now();
    let readings: Vec<f64> = (0..CLOCK_READINGS)
        .map(|_| origin.elapsed().as_secs_f64() * 1000.0)
        .collect();
    ClockInfo::from_readings(&readings)
}

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

fn os() -> String {
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

fn os_family() -> &'static str {
    match std::env::consts::OS {
        "linux" => "Linux",
        "macos" => "macOS",
        "windows" => "Windows",
        other => other,
    }
}

/// Logical cores the process may use.
pub fn cores() -> u32 {
    std::thread::available_parallelism().map_or(1, |n| n.get() as u32)
}

/// The environment of this run; `command` is how it was started and
/// `samples` the samples per timed probe.
pub fn environment(command: &str, samples: u32) -> Environment {
    let cores = cores();
    let cpu = field("/proc/cpuinfo", "model name", ':')
        .unwrap_or_else(|| std::env::consts::ARCH.to_owned());
    let started = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64() * 1000.0);
    Environment {
        user_agent: format!(
            "waitlab-native/{} ({} {})",
            env!("CARGO_PKG_VERSION"),
            os_family(),
            std::env::consts::ARCH
        ),
        hardware_concurrency: cores,
        cross_origin_isolated: true,
        clock: clock(),
        started_at_unix_ms: started,
        hidden_during_run: false,
        native: Some(NativeEnv {
            name: format!("Rust native, {} {}", os_family(), std::env::consts::ARCH),
            runtime: format!(
                "{}, tokio {}, waitlab-native {}",
                env!("WAITLAB_RUSTC_VERSION"),
                env!("WAITLAB_TOKIO_VERSION"),
                env!("CARGO_PKG_VERSION")
            ),
            os: os(),
            cpu,
            source: Source::Command(command.to_owned()),
            samples: Some(samples),
        }),
    }
}
