//! Shared memory and `Atomics`: the blocking and async waits of a worker.

use super::{global_property, js_error_message};
use crate::wait::{Stamp, Timer, first_of, on_settled};
use js_sys::{Int32Array, Reflect, SharedArrayBuffer};
use std::future::Future;
use waitlab_core::outcome::reason;
use wasm_bindgen::JsValue;

/// Said by a worker asked to block without the run's shared memory (a
/// `waitlab_core::outcome::reason` code).
pub const NOT_SHARED: &str = reason::NOT_SHARED;

/// Why shared memory cannot be had here, from what the browser says of
/// itself: not isolated, or isolated without `SharedArrayBuffer` (seen in
/// WebKitGTK); a `waitlab_core::outcome::reason` code.
pub fn unavailable_reason() -> Option<&'static str> {
    if !super::clock::cross_origin_isolated() {
        Some(reason::NOT_ISOLATED)
    } else if global_property("SharedArrayBuffer").is_none() {
        Some(reason::NO_SHARED_ARRAY_BUFFER)
    } else {
        None
    }
}

/// A new shared `Int32Array` of `len` slots, or the reason there is none.
pub fn new_shared_i32(len: u32) -> Result<Int32Array, &'static str> {
    match unavailable_reason() {
        Some(reason) => Err(reason),
        None => Ok(Int32Array::new(&SharedArrayBuffer::new(len * 4))),
    }
}

/// How an `Atomics.wait` returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WaitEnd {
    /// Woken by `Atomics.notify` ("ok").
    Woken,
    /// The slot did not hold the value ("not-equal").
    NotEqual,
    /// The timeout passed ("timed-out").
    TimedOut,
}

/// `Atomics.wait(arr, index, value, timeout_ms)`: blocks this thread.
/// Fails on a main thread, where browsers forbid blocking. Allocates
/// nothing, as it sits inside measured waits.
pub fn wait(arr: &Int32Array, index: u32, value: i32, timeout_ms: f64) -> Result<WaitEnd, String> {
    let result = js_sys::Atomics::wait_with_timeout(arr, index, value, timeout_ms)
        .map_err(|e| js_error_message(&e))?;
    // Told apart by their first letter, read in place: comparing with a
    // `&str` would copy the JS string into a new Rust String each sample.
    Ok(match result.char_code_at(0) as u8 {
        b't' => WaitEnd::TimedOut,
        b'n' => WaitEnd::NotEqual,
        _ => WaitEnd::Woken,
    })
}

/// `Atomics.waitAsync` for a probe loop: its result's two keys made once,
/// one callback (a [`Stamp`]) and one timer that bounds each wait (Firefox
/// ESR's own timeout never fires).
pub struct AsyncWaiter {
    is_async: JsValue,
    value: JsValue,
    stamp: Stamp,
    limit: Timer,
}

impl AsyncWaiter {
    /// Makes the keys, the callback, which reads `clock`, and the timer.
    pub fn new(clock: fn() -> f64) -> Self {
        Self {
            is_async: JsValue::from_str("async"),
            value: JsValue::from_str("value"),
            stamp: Stamp::new(clock),
            limit: Timer::new(),
        }
    }

    /// Sets the limit of `limit_ms`, reads the clock and starts
    /// `Atomics.waitAsync(arr, index, value, timeout_ms)`. Returns that
    /// reading and when the wait ended by the clock: at its callback, at
    /// once when it settled synchronously, or `None` when the limit came
    /// first. An error when the browser lacks waitAsync.
    pub fn start(
        &self,
        arr: &Int32Array,
        index: u32,
        value: i32,
        timeout_ms: f64,
        limit_ms: u32,
    ) -> Result<(f64, impl Future<Output = Option<f64>> + '_), String> {
        let pending_limit = self.limit.time(limit_ms);
        self.stamp.arm();
        let clock = self.stamp.clock();
        let t0 = clock();
        let result = js_sys::Atomics::wait_async_with_timeout(arr, index, value, timeout_ms)
            .map_err(|e| {
                format!(
                    "Atomics.waitAsync is not available: {}",
                    js_error_message(&e)
                )
            })?;
        let is_async = Reflect::get(&result, &self.is_async)
            .ok()
            .and_then(|v| v.as_bool());
        let settled = if is_async == Some(true) {
            let promise = Reflect::get(&result, &self.value).unwrap_or_default();
            on_settled(&promise, self.stamp.callback(), self.stamp.callback())?;
            None
        } else {
            Some(clock())
        };
        Ok((t0, async move {
            match settled {
                Some(at) => {
                    self.limit.cancel();
                    Some(at)
                }
                None => first_of(self.stamp.fired(), &self.limit, pending_limit).await,
            }
        }))
    }
}

/// Whether `Atomics.waitAsync` exists here.
pub fn has_wait_async() -> bool {
    has_atomics("waitAsync")
}

/// Whether `Atomics` has the function `name` here.
fn has_atomics(name: &str) -> bool {
    global_property("Atomics")
        .and_then(|a| Reflect::get(&a, &JsValue::from_str(name)).ok())
        .is_some_and(|f| f.is_function())
}

/// `Atomics.pause()`, the spin hint of a busy-wait's turn (the CPU's
/// pause instruction, as .NET's `Thread.SpinWait` and Rust's
/// `std::hint::spin_loop` issue), where the browser has it.
pub fn pause_hint() -> Option<&'static dyn Fn()> {
    fn pause() {
        js_sys::Atomics::pause();
    }
    has_atomics("pause").then_some(&pause as &dyn Fn())
}

/// The run's shared memory seen as `i32` and `f64` slots (layout in
/// `waitlab_core::protocol::shared_slots`).
#[derive(Clone)]
pub struct Slots {
    ints: Int32Array,
    floats: js_sys::Float64Array,
}

impl Slots {
    /// Views `ints`' buffer both ways.
    pub fn new(ints: Int32Array) -> Self {
        let floats = js_sys::Float64Array::new(&ints.buffer());
        Self { ints, floats }
    }

    /// The `i32` view.
    pub fn ints(&self) -> &Int32Array {
        &self.ints
    }

    /// `Atomics.load`.
    pub fn load(&self, slot: u32) -> i32 {
        js_sys::Atomics::load(&self.ints, slot).unwrap_or(0)
    }

    /// `Atomics.store`, then `Atomics.notify` every waiter on the slot.
    pub fn store_and_notify(&self, slot: u32, value: i32) {
        let _ = js_sys::Atomics::store(&self.ints, slot, value);
        let _ = js_sys::Atomics::notify(&self.ints, slot);
    }

    /// Blocks while the slot holds `value` (worker only).
    pub fn wait_while(&self, slot: u32, value: i32) -> Result<(), String> {
        while self.load(slot) == value {
            wait(&self.ints, slot, value, f64::INFINITY)?;
        }
        Ok(())
    }

    /// Reads an `f64` slot (ordered after an `Atomics.load` that saw the
    /// writer's following `Atomics.store`).
    pub fn get_f64(&self, slot: u32) -> f64 {
        self.floats.get_index(slot)
    }

    /// Writes an `f64` slot (publish it with a following atomic store).
    pub fn set_f64(&self, slot: u32, value: f64) {
        self.floats.set_index(slot, value);
    }
}
