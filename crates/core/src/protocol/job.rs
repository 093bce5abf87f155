//! What an experiment's worker jobs are to the protocol. Each experiment
//! that runs a job in a worker declares it in its folder's `job.rs`: its
//! requests ([`Job`]) and its own replies, written and read as [`Bytes`]
//! with the helpers here. [`ToWorker::Job`](super::ToWorker::Job) and
//! [`FromWorker::Reply`](super::FromWorker::Reply) carry them; the worker
//! hands a job to its experiment's probe (`waitlab-browser`'s `probes`).
//! A leaf: it names no experiment.

use crate::bytes::{Bytes, Damaged, Reader, Writer};

/// How often, at most, a worker measuring a cell says how far it got, ms:
/// seldom, since each message makes the page parse and draw while the
/// worker measures (every 50 ms showed in the worker's p90 on two cores),
/// and often enough that a hung worker is noticed within seconds.
pub const HEARTBEAT_MS: u32 = 1000;

/// Rounds of a pair (a wake-up, a cancel, a skew exchange) take at most
/// this long each (the largest random delay, a timer-polled wake, and the
/// handshake), ms.
pub const ROUND_MS: u32 = 25;

/// Most items (samples, rounds, steps) a message may hold.
pub const MAX_ITEMS: usize = 1 << 20;
/// Longest text (a reason, a message) a message may hold, bytes.
pub const MAX_TEXT: usize = 4096;

/// A request of one experiment to a worker.
pub trait Job: Bytes {
    /// The id of the experiment it belongs to (its folder's name), which
    /// the worker hands it to.
    const OF: &'static str;
    /// The longest a healthy worker stays silent while doing it, ms: the
    /// time to its first (or next) reply when nothing goes wrong.
    fn longest_silence_ms(&self) -> u32;
}

/// A whole number of at most `u32::MAX`.
pub fn read_u32(r: &mut Reader) -> Result<u32, Damaged> {
    r.upto(u64::from(u32::MAX))
}

/// Writes `values`, their count first.
pub fn write_u32s(w: &mut Writer, values: &[u32]) {
    w.len(values.len());
    values.iter().for_each(|&v| w.uvar(u64::from(v)));
}

/// Reads what [`write_u32s`] wrote.
pub fn read_u32s(r: &mut Reader) -> Result<Vec<u32>, Damaged> {
    let n = r.len(MAX_ITEMS)?;
    (0..n).map(|_| read_u32(r)).collect()
}

/// Writes `values` exactly, their count first.
pub fn write_f64s(w: &mut Writer, values: &[f64]) {
    w.len(values.len());
    values.iter().for_each(|&v| w.f64(v));
}

/// Reads what [`write_f64s`] wrote.
pub fn read_f64s(r: &mut Reader) -> Result<Vec<f64>, Damaged> {
    let n = r.len(MAX_ITEMS)?;
    (0..n).map(|_| r.f64()).collect()
}

/// A way of waiting (or a mechanism) by its one-byte code.
pub fn read_code<T>(r: &mut Reader, from_code: fn(u8) -> Option<T>) -> Result<T, Damaged> {
    from_code(r.byte()?).ok_or(Damaged("an unknown way of waiting"))
}

/// A result: flag 1 and the value, or flag 0 and the error's text.
pub fn write_result<T>(w: &mut Writer, result: &Result<T, String>, ok: impl Fn(&mut Writer, &T)) {
    match result {
        Ok(v) => {
            w.flag(true);
            ok(w, v);
        }
        Err(e) => {
            w.flag(false);
            w.text(e);
        }
    }
}

/// Reads what [`write_result`] wrote.
pub fn read_result<T>(
    r: &mut Reader,
    ok: impl Fn(&mut Reader) -> Result<T, Damaged>,
) -> Result<Result<T, String>, Damaged> {
    Ok(if r.flag()? {
        Ok(ok(r)?)
    } else {
        Err(r.text(MAX_TEXT)?)
    })
}

/// A reply that is an experiment's value or why it could not be had.
impl<T: Bytes> Bytes for Result<T, String> {
    fn write(&self, w: &mut Writer) {
        write_result(w, self, |w, v| v.write(w));
    }

    fn read(r: &mut Reader) -> Result<Self, Damaged> {
        read_result(r, T::read)
    }
}
