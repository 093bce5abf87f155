//! Numbers as text, in one place: every figure the page or the native
//! probe shows is written by [`fixed`], with integer arithmetic rather than
//! the standard library's float formatting (which is tens of kilobytes of
//! wasm). The decimal point is `.`; the page swaps it for the reader's
//! locale.

/// `v` with `places` decimals (at most 9), rounded half away from zero:
/// `fixed(1.25, 1)` is `"1.3"`, `fixed(-0.04, 1)` is `"0.0"`. Not a number
/// is `"NaN"`, infinities `"∞"` and `"-∞"`.
pub fn fixed(v: f64, places: u8) -> String {
    if v.is_nan() {
        return "NaN".to_owned();
    }
    if v.is_infinite() {
        return if v > 0.0 { "∞" } else { "-∞" }.to_owned();
    }
    let places = places.min(9);
    let scale = 10u64.pow(u32::from(places));
    // Saturates far beyond any figure waitlab measures (about 3e38).
    let scaled = (v.abs() * scale as f64).round() as u128;
    let (whole, fraction) = (scaled / u128::from(scale), scaled % u128::from(scale));
    let mut out = String::new();
    if v < 0.0 && scaled != 0 {
        out.push('-');
    }
    out.push_str(&whole.to_string());
    if places > 0 {
        out.push('.');
        let digits = fraction.to_string();
        out.extend(std::iter::repeat_n('0', usize::from(places) - digits.len()));
        out.push_str(&digits);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::fixed;

    #[test]
    fn decimals_as_written() {
        let check = |v: f64, p: u8, want: &str| assert_eq!(fixed(v, p), want, "{v} to {p}");
        check(0.0, 2, "0.00");
        check(1.25, 1, "1.3");
        check(-1.25, 1, "-1.3");
        check(-0.04, 1, "0.0");
        check(15.6, 1, "15.6");
        check(0.0052, 4, "0.0052");
        check(1265.4, 0, "1265");
        check(9.999, 2, "10.00");
        check(1e12, 0, "1000000000000");
        check(0.1 + 0.2, 3, "0.300");
        check(f64::NAN, 2, "NaN");
        check(f64::INFINITY, 0, "∞");
        check(f64::NEG_INFINITY, 0, "-∞");
        check(1.5, 12, "1.500000000");
    }

    /// Away from exact halves it agrees with the standard library.
    #[test]
    fn agrees_with_std_off_the_halves() {
        let mut x = 0.000_123_4_f64;
        while x < 1e9 {
            for p in 0..=4u8 {
                let std = format!("{x:.*}", usize::from(p));
                let half = (x * 10f64.powi(i32::from(p))).fract();
                if (half - 0.5).abs() > 1e-6 {
                    assert_eq!(fixed(x, p), std, "{x}");
                }
            }
            x *= 1.37;
        }
    }
}
