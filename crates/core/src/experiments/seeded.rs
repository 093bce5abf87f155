//! The seeded sequences the experiments draw their delays, cancel points,
//! job lengths, work and pauses from: the same for every way of waiting in
//! a run, and the same on every machine.

use std::ops::RangeInclusive;

/// `n` values in `range` from a xorshift sequence seeded by `seed`.
pub(crate) fn sequence(seed: u64, n: u32, range: RangeInclusive<u32>) -> Vec<u32> {
    let (low, span) = (*range.start(), u64::from(range.end() - range.start()) + 1);
    let mut x = seed | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            low + (x % span) as u32
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::sequence;

    /// Each experiment's seed and range: the same values each time, all
    /// in the range, not all the same, and their mean near the middle.
    #[test]
    fn sequences_are_deterministic_spread_and_in_range() {
        let cases = [
            (0x5EED_CAFE, 200, 0..=3000),
            (0xCA4C_E11E, 40, 2000..=18_000),
            (0x7E1C_4A11, 25, 0..=24_000),
            (0x5E3A_F0E5, 40, 10..=30),
            (0x4A2D_0FF5, 100, 1000..=3000),
        ];
        for (seed, n, range) in cases {
            let values = sequence(seed, n, range.clone());
            assert_eq!(values.len(), n as usize);
            assert_eq!(values, sequence(seed, n, range.clone()));
            assert!(values.iter().all(|v| range.contains(v)), "{range:?}");
            assert!(values.iter().any(|&v| v != values[0]), "{range:?}");
            let mean = values.iter().map(|&v| f64::from(v)).sum::<f64>() / f64::from(n);
            let (low, high) = (f64::from(*range.start()), f64::from(*range.end()));
            let quarter = (high - low) / 4.0;
            assert!(
                (low + quarter..=high - quarter).contains(&mean),
                "{range:?}: mean {mean}"
            );
        }
    }
}
