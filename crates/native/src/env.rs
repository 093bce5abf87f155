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
            name: "Rust".to_owned(),
            runtime: format!(
                "{}, tokio {}, waitlab-native {}",
                env!("WAITLAB_RUSTC_VERSION"),
                env!("WAITLAB_TOKIO_VERSION"),
                env!("CARGO_PKG_VERSION")
            ),
            os: crate::machine::os(),
            cpu: crate::machine::cpu(),
            source: Source::Command(command.to_owned()),
            samples: Some(samples),
        }),
    }
}
