//! What an experiment's worker jobs are to the protocol. Each experiment
//! that runs a job in a worker declares it in its folder's `job.rs`: its
//! requests ([`Job`]) and its own replies, written and read as [`Bytes`]
//! with the helpers here. [`ToWorker::Job`](super::ToWorker::Job) and
//! [`FromWorker::Reply`](super::FromWorker::Reply) carry them; the worker
//! hands a job to its experiment's probe (`waitlab-browser`'s `probes`).
//! A leaf: it names no experiment.

use crate::bytes::{Bytes, Damaged, Reader, Writer};
use crate::sampling::Sampling;

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

/// Declares how a message travels: [`Bytes`] for a struct or an enum from
/// its fields in wire order, an enum's variant as the byte before them
/// (`enum NAME else "why" { CODE => Variant { fields }, ... }`, unit
/// variants as `Variant {}`). Each field is written and read by its own
/// `Bytes`, or read by the function after `=` where the page allows less
/// (`burst = read_burst`).
macro_rules! message {
    (struct $name:ident { $($field:ident $(= $read:expr)?),* $(,)? }) => {
        impl $crate::bytes::Bytes for $name {
            fn write(&self, w: &mut $crate::bytes::Writer) {
                $($crate::bytes::Bytes::write(&self.$field, w);)*
            }

            fn read(r: &mut $crate::bytes::Reader) -> Result<Self, $crate::bytes::Damaged> {
                Ok($name { $($field: $crate::protocol::job::message!(@read r $(, $read)?),)* })
            }
        }
    };
    (enum $name:ident else $unknown:literal {
        $($code:literal => $variant:ident { $($field:ident $(= $read:expr)?),* $(,)? }),+ $(,)?
    }) => {
        impl $crate::bytes::Bytes for $name {
            fn write(&self, w: &mut $crate::bytes::Writer) {
                match self {
                    $($name::$variant { $($field),* } => {
                        w.byte($code);
                        $($crate::bytes::Bytes::write($field, w);)*
                    })+
                }
            }

            fn read(r: &mut $crate::bytes::Reader) -> Result<Self, $crate::bytes::Damaged> {
                Ok(match r.byte()? {
                    $($code => $name::$variant {
                        $($field: $crate::protocol::job::message!(@read r $(, $read)?),)*
                    },)+
                    _ => return Err($crate::bytes::Damaged($unknown)),
                })
            }
        }
    };
    (@read $r:ident) => { $crate::bytes::Bytes::read($r)? };
    (@read $r:ident, $read:expr) => { ($read)($r)? };
}

pub(crate) use message;

/// Whether a cell stops once its median is known (flag 1) or takes its
/// whole count.
impl Bytes for Sampling {
    fn write(&self, w: &mut Writer) {
        w.flag(*self == Sampling::Adaptive);
    }

    fn read(r: &mut Reader) -> Result<Self, Damaged> {
        Ok(if r.flag()? {
            Sampling::Adaptive
        } else {
            Sampling::Fixed
        })
    }
}

/// [`Bytes`] for values the [`Writer`] and [`Reader`] take as they are,
/// each by how it is written and how it is read.
macro_rules! plain {
    ($($t:ty => $write:expr, $read:expr;)+) => {$(
        impl Bytes for $t {
            fn write(&self, w: &mut Writer) {
                let write: fn(&mut Writer, &$t) = $write;
                write(w, self);
            }

            fn read(r: &mut Reader) -> Result<Self, Damaged> {
                let read: fn(&mut Reader) -> Result<$t, Damaged> = $read;
                read(r)
            }
        }
    )+};
}

plain! {
    u8 => |w, v| w.byte(*v), |r| r.byte();
    u32 => |w, v| w.uvar(u64::from(*v)), |r| r.upto(u64::from(u32::MAX));
    f64 => |w, v| w.f64(*v), |r| r.f64();
    bool => |w, v| w.flag(*v), |r| r.flag();
    () => |_, ()| {}, |_| Ok(());
    String => |w, v| w.text(v), |r| r.text(MAX_TEXT);
}

/// At most [`MAX_ITEMS`] items, their count first.
impl<T: Bytes> Bytes for Vec<T> {
    fn write(&self, w: &mut Writer) {
        w.len(self.len());
        self.iter().for_each(|v| v.write(w));
    }

    fn read(r: &mut Reader) -> Result<Self, Damaged> {
        read_items(r, MAX_ITEMS)
    }
}

/// Items, each in turn.
impl<T: Bytes, const N: usize> Bytes for [T; N] {
    fn write(&self, w: &mut Writer) {
        self.iter().for_each(|v| v.write(w));
    }

    fn read(r: &mut Reader) -> Result<Self, Damaged> {
        let items: Vec<T> = (0..N).map(|_| T::read(r)).collect::<Result<_, _>>()?;
        items.try_into().map_err(|_| Damaged("truncated"))
    }
}

/// A flag, and the value where it is set.
impl<T: Bytes> Bytes for Option<T> {
    fn write(&self, w: &mut Writer) {
        w.flag(self.is_some());
        if let Some(v) = self {
            v.write(w);
        }
    }

    fn read(r: &mut Reader) -> Result<Self, Damaged> {
        Ok(if r.flag()? { Some(T::read(r)?) } else { None })
    }
}

/// A way of waiting (or a mechanism) by its one-byte code.
pub fn read_code<T>(r: &mut Reader, from_code: fn(u8) -> Option<T>) -> Result<T, Damaged> {
    from_code(r.byte()?).ok_or(Damaged("an unknown way of waiting"))
}

/// Reads what `Vec<T>`'s [`Bytes`] wrote, at most `max` items.
pub fn read_items<T: Bytes>(r: &mut Reader, max: usize) -> Result<Vec<T>, Damaged> {
    let n = r.len(max)?;
    (0..n).map(|_| T::read(r)).collect()
}

/// A result: flag 1 and the value, or flag 0 and the error's text. A
/// reply that is an experiment's value or why it could not be had.
impl<T: Bytes> Bytes for Result<T, String> {
    fn write(&self, w: &mut Writer) {
        w.flag(self.is_ok());
        match self {
            Ok(v) => v.write(w),
            Err(e) => e.write(w),
        }
    }

    fn read(r: &mut Reader) -> Result<Self, Damaged> {
        Ok(if r.flag()? {
            Ok(T::read(r)?)
        } else {
            Err(String::read(r)?)
        })
    }
}
