//! Bytes on the wire: the primitives that result links ([`crate::link`])
//! and the page ↔ worker protocol ([`crate::protocol`]) both build on.
//!
//! Numbers are LEB128 varints (signed ones zigzag-coded first) or, where a
//! value must survive exactly, the eight little-endian bytes of an `f64`;
//! a text is its UTF-8 length and bytes. [`Reader`] takes untrusted bytes:
//! it never panics, never reads past the end, and every count it returns
//! is checked against a limit its caller gives.

/// Why bytes could not be read: truncated, or not what the writer writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Damaged(pub &'static str);

/// A value that is written into bytes and read back the same (a
/// configuration in a link or a worker message). Macros write most
/// impls: `config!` an experiment's configuration, `strategies!` a way of
/// waiting (its code), and `message!` (`crate::protocol::job`) each
/// message, job and reply from its fields.
pub trait Bytes: Sized {
    /// Writes it.
    fn write(&self, w: &mut Writer);
    /// Reads what [`Bytes::write`] wrote.
    fn read(r: &mut Reader) -> Result<Self, Damaged>;

    /// It, as bytes.
    fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::default();
        self.write(&mut w);
        w.0
    }
}

/// Appends values to a byte buffer.
#[derive(Debug, Default)]
pub struct Writer(pub Vec<u8>);

impl Writer {
    /// One byte.
    pub fn byte(&mut self, b: u8) {
        self.0.push(b);
    }

    /// `false` as 0, `true` as 1.
    pub fn flag(&mut self, v: bool) {
        self.byte(u8::from(v));
    }

    /// An unsigned varint.
    pub fn uvar(&mut self, mut v: u64) {
        loop {
            let low = (v & 0x7f) as u8;
            v >>= 7;
            if v == 0 {
                self.0.push(low);
                return;
            }
            self.0.push(low | 0x80);
        }
    }

    /// A signed varint (zigzag).
    pub fn ivar(&mut self, v: i64) {
        self.uvar(((v << 1) ^ (v >> 63)) as u64);
    }

    /// A length or count.
    pub fn len(&mut self, n: usize) {
        self.uvar(n as u64);
    }

    /// An `f64`, exactly.
    pub fn f64(&mut self, v: f64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }

    /// A text, whole.
    pub fn text(&mut self, s: &str) {
        self.len(s.len());
        self.0.extend_from_slice(s.as_bytes());
    }
}

/// Reads values back from untrusted bytes.
#[derive(Debug)]
pub struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    /// A reader at the start of `bytes`.
    pub fn new(bytes: &'a [u8]) -> Self {
        Self { bytes, pos: 0 }
    }

    /// Whether every byte has been read.
    pub fn at_end(&self) -> bool {
        self.pos == self.bytes.len()
    }

    /// Fails unless every byte has been read.
    pub fn finish(&self) -> Result<(), Damaged> {
        if self.at_end() {
            Ok(())
        } else {
            Err(Damaged("trailing data"))
        }
    }

    /// One byte.
    pub fn byte(&mut self) -> Result<u8, Damaged> {
        let b = *self.bytes.get(self.pos).ok_or(Damaged("truncated"))?;
        self.pos += 1;
        Ok(b)
    }

    /// A flag written by [`Writer::flag`].
    pub fn flag(&mut self) -> Result<bool, Damaged> {
        match self.byte()? {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(Damaged("a bad flag")),
        }
    }

    /// An unsigned varint.
    pub fn uvar(&mut self) -> Result<u64, Damaged> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            v |= u64::from(b & 0x7f).checked_shl(shift).unwrap_or(0);
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(Damaged("overlong number"))
    }

    /// A signed varint (zigzag).
    pub fn ivar(&mut self) -> Result<i64, Damaged> {
        let u = self.uvar()?;
        Ok((u >> 1) as i64 ^ -((u & 1) as i64))
    }

    /// A number no larger than `max`.
    pub fn upto(&mut self, max: u64) -> Result<u32, Damaged> {
        match self.uvar()? {
            v if v <= max && v <= u64::from(u32::MAX) => Ok(v as u32),
            _ => Err(Damaged("a number out of range")),
        }
    }

    /// A count no larger than `max`.
    pub fn len(&mut self, max: usize) -> Result<usize, Damaged> {
        Ok(self.upto(max as u64)? as usize)
    }

    /// An `f64` written by [`Writer::f64`].
    pub fn f64(&mut self) -> Result<f64, Damaged> {
        let end = self.pos.checked_add(8).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or(Damaged("truncated"))?;
        let mut raw = [0; 8];
        raw.copy_from_slice(&self.bytes[self.pos..end]);
        self.pos = end;
        Ok(f64::from_le_bytes(raw))
    }

    /// A text of at most `max_bytes` bytes of UTF-8.
    pub fn text(&mut self, max_bytes: usize) -> Result<String, Damaged> {
        let n = self.len(max_bytes)?;
        let end = self.pos.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or(Damaged("truncated"))?;
        let s = std::str::from_utf8(&self.bytes[self.pos..end]).map_err(|_| Damaged("bad text"))?;
        self.pos = end;
        Ok(s.to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_round_trip() {
        let mut w = Writer::default();
        w.byte(7);
        w.flag(true);
        for v in [0, 1, 127, 128, u64::MAX] {
            w.uvar(v);
        }
        for v in [0, -1, 1, i64::MIN, i64::MAX] {
            w.ivar(v);
        }
        for v in [0.0, -0.0, 1.5e-300, f64::MAX, 10.000_000_000_000_002] {
            w.f64(v);
        }
        w.text("Atomics.wait → 1 ms");
        let mut r = Reader::new(&w.0);
        assert_eq!(r.byte(), Ok(7));
        assert_eq!(r.flag(), Ok(true));
        for v in [0, 1, 127, 128, u64::MAX] {
            assert_eq!(r.uvar(), Ok(v));
        }
        for v in [0, -1, 1, i64::MIN, i64::MAX] {
            assert_eq!(r.ivar(), Ok(v));
        }
        for v in [0.0, -0.0, 1.5e-300, f64::MAX, 10.000_000_000_000_002] {
            assert_eq!(r.f64().map(f64::to_bits), Ok(v.to_bits()));
        }
        assert_eq!(r.text(100).as_deref(), Ok("Atomics.wait → 1 ms"));
        assert_eq!(r.finish(), Ok(()));
    }

    #[test]
    fn damaged_bytes_are_refused_without_panicking() {
        assert_eq!(Reader::new(&[]).byte(), Err(Damaged("truncated")));
        assert_eq!(Reader::new(&[2]).flag(), Err(Damaged("a bad flag")));
        assert_eq!(
            Reader::new(&[0xff; 11]).uvar(),
            Err(Damaged("overlong number"))
        );
        assert_eq!(
            Reader::new(&[5]).upto(4),
            Err(Damaged("a number out of range"))
        );
        assert_eq!(Reader::new(&[1, 2, 3]).f64(), Err(Damaged("truncated")));
        assert_eq!(Reader::new(&[9, b'a']).text(100), Err(Damaged("truncated")));
        assert_eq!(
            Reader::new(&[2, 0xc3, 0x28]).text(100),
            Err(Damaged("bad text"))
        );
        assert_eq!(
            Reader::new(&[3, b'a', b'b', b'c']).text(2),
            Err(Damaged("a number out of range"))
        );
        let mut r = Reader::new(&[1, 2]);
        r.byte().unwrap();
        assert_eq!(r.finish(), Err(Damaged("trailing data")));
    }
}
