//! Checks of what the page told about times, kept apart from the browsers
//! so that each is tested on the breakage it is there to catch (this
//! file's tests plant one each).

use waitlab_core::compare::verdict::Verdict;

/// Checks a verdict the page gave a way (`verdict`, its `data-verdict`)
/// against the medians it was judged on, ms: a verdict the comparisons
/// know, a direction that agrees with the medians, and medians within
/// `band` times of each other (the way and the built-in one it is
/// judged against wait alike, so a wider gap is a mistake in the timing:
/// a wrong unit, a wrong cell, a clock read twice). Returns the ratio.
pub fn told_verdict(
    verdict: &str,
    own_p50: f64,
    builtin_p50: f64,
    band: f64,
) -> Result<f64, String> {
    let ratio = own_p50 / builtin_p50;
    let said = format!("{verdict}: {own_p50} ms against {builtin_p50} ms (×{ratio:.3})");
    if !(ratio.is_finite() && ratio > 0.0) {
        return Err(format!("no ratio of medians: {said}"));
    }
    if !(1.0 / band..=band).contains(&ratio) {
        return Err(format!("medians further apart than ×{band}: {said}"));
    }
    let known = [
        Verdict::Faster,
        Verdict::Same,
        Verdict::Slower,
        Verdict::UnderClock,
        Verdict::Unclear,
    ];
    let Some(v) = known.into_iter().find(|v| v.id() == verdict) else {
        return Err(format!("not a verdict: {said}"));
    };
    let agrees = match v {
        Verdict::Faster => ratio < 1.0,
        Verdict::Slower => ratio > 1.0,
        Verdict::Same | Verdict::UnderClock | Verdict::Unclear => true,
    };
    if agrees {
        Ok(ratio)
    } else {
        Err(format!("the verdict disagrees with the medians: {said}"))
    }
}

/// Checks times between two threads' stamps (`samples_ms`, on one time
/// base: each raw difference plus the measured skew, floored at zero) of a
/// way that wakes through the engine (a notify, a message, a poll's
/// sleep), which takes many clock steps, so that a time reads 0 only where
/// the clocks' steps put it there, now and then. The floor hides a skew
/// applied wrongly (its sign flipped, or the other thread's): every time
/// that would come out below zero reads 0. So at most a quarter of the
/// times may be 0; a wrong skew of more than the times themselves puts
/// most of them there.
pub fn floored_few(samples_ms: &[f64]) -> Result<(), String> {
    if samples_ms.is_empty() {
        return Err("no times".into());
    }
    if samples_ms.iter().any(|v| !v.is_finite() || *v < 0.0) {
        return Err(format!("a time below zero or not a number: {samples_ms:?}"));
    }
    let zeros = samples_ms.iter().filter(|&&v| v == 0.0).count();
    if zeros * 4 > samples_ms.len() {
        return Err(format!(
            "{zeros} of {} times floored at zero: the skew between the threads was applied wrongly",
            samples_ms.len()
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{floored_few, told_verdict};

    #[test]
    fn skew_corrected_times_pass_and_a_wrong_skew_fails() {
        // Wake-ups of 40-90 µs on a 5 µs clock, one read as none.
        let woken: Vec<f64> = (0..40).map(|i| 0.04 + f64::from(i % 6) * 0.01).collect();
        let mut one_zero = woken.clone();
        one_zero[0] = 0.0;
        assert!(floored_few(&one_zero).is_ok());
        // Planted: the skew (the waiter's worker started 3 ms after the
        // setter's) subtracted where it is added: most times floor at 0.
        let flipped: Vec<f64> = woken
            .iter()
            .enumerate()
            .map(|(i, v)| {
                if i % 5 == 0 {
                    v + 6.0
                } else {
                    (v - 3.0f64).max(0.0)
                }
            })
            .collect();
        assert!(floored_few(&flipped).is_err());
        assert!(floored_few(&[]).is_err());
        assert!(floored_few(&[0.1, -0.01, 0.1]).is_err());
    }

    #[test]
    fn an_honest_verdict_passes() {
        assert!(told_verdict("same", 1.07, 1.06, 1.5).is_ok());
        assert!(told_verdict("faster", 0.1, 0.19, 5.0).is_ok());
        assert!(told_verdict("slower", 0.3, 0.19, 5.0).is_ok());
    }

    #[test]
    fn planted_breakages_fail() {
        // Any verdict at all used to pass.
        assert!(told_verdict("", 1.0, 1.0, 1.5).is_err(), "no verdict");
        assert!(told_verdict("quicker", 1.0, 1.0, 1.5).is_err(), "unknown");
        // Faster, though its median is the longer one.
        assert!(told_verdict("faster", 1.2, 1.0, 1.5).is_err());
        assert!(told_verdict("slower", 0.8, 1.0, 1.5).is_err());
        // Seconds read as milliseconds, a wrong cell, nothing measured.
        assert!(told_verdict("same", 1060.0, 1.06, 1.5).is_err());
        assert!(told_verdict("same", 4.1, 1.06, 1.5).is_err());
        assert!(told_verdict("same", 1.0, 0.0, 1.5).is_err());
        assert!(told_verdict("same", f64::NAN, 1.0, 1.5).is_err());
    }
}
