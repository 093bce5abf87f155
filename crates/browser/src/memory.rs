//! Shared memory and `Atomics`: the blocking and async waits of a worker.

use super::{global_property, js_error_message};
use js_sys::{Int32Array, Reflect, SharedArrayBuffer};
use waitlab_core::outcome::reason;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

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

/// How an `Atomics.waitAsync` ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AsyncWaitEnd {
    /// Woken by `Atomics.notify` (or the value differed).
    Woken,
    /// Its own timeout fired.
    TimedOut,
}

/// Starts `Atomics.waitAsync(arr, index, value, timeout_ms)`. Returns the
/// promise to await (or the immediate result when the wait resolved
/// synchronously), or an error when the browser lacks waitAsync.
pub fn wait_async(
    arr: &Int32Array,
    index: u32,
    value: i32,
    timeout_ms: f64,
) -> Result<Result<JsFuture, AsyncWaitEnd>, String> {
    let result =
        js_sys::Atomics::wait_async_with_timeout(arr, index, value, timeout_ms).map_err(|e| {
            format!(
                "Atomics.waitAsync is not available: {}",
                js_error_message(&e)
            )
        })?;
    let field = |name: &str| Reflect::get(&result, &JsValue::from_str(name)).unwrap_or_default();
    if field("async").as_bool() == Some(true) {
        Ok(Ok(JsFuture::from(
            field("value").unchecked_into::<js_sys::Promise>(),
        )))
    } else {
        Ok(Err(end_of(&field("value"))))
    }
}

/// Reads the string a finished wait resolves to.
fn end_of(value: &JsValue) -> AsyncWaitEnd {
    if value.as_string().as_deref() == Some("timed-out") {
        AsyncWaitEnd::TimedOut
    } else {
        AsyncWaitEnd::Woken
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
