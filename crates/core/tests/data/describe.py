"""Writes describe.json: series and their description computed by SciPy and
NumPy, independently of waitlab-core's `describe` (see its module docs for
the definitions). Run from this directory with SciPy installed:
python3 describe.py > describe.json"""

import json
import math

import numpy as np
from scipy import stats

rng = np.random.default_rng(20261201)


def mvalue(x, step):
    q1, q3 = np.quantile(x, [0.25, 0.75])
    iqr = q3 - q1
    y = np.sort(x[(x >= q1 - 1.5 * iqr) & (x <= q3 + 1.5 * iqr)])
    lo, hi = y[0], y[-1]
    span = hi - lo
    w = 3.5 * np.std(y, ddof=1) / len(y) ** (1 / 3) if len(y) > 1 else 0.0
    if step:
        w = math.ceil(w / step) * step
    if span <= 0 or w <= 0:
        return 2.0
    best = 0.0
    while True:
        k = int(span / w) + 1
        counts = np.bincount(np.minimum(((y - lo) / w).astype(int), k - 1), minlength=k)
        seq = np.concatenate([[0], counts, [0]])
        best = max(best, np.abs(np.diff(seq)).sum() / counts.max())
        if w > span:
            return best
        w *= 2


def describe(x, step):
    n = len(x)
    q = np.quantile(x, [0.0, 0.25, 0.5, 0.75, 0.9, 0.99, 1.0])  # type 7
    iqr = q[3] - q[1]
    fences = [q[1] - 1.5 * iqr, q[3] + 1.5 * iqr]
    sd = float(np.std(x, ddof=1)) if n > 1 else 0.0
    error = float(stats.t.ppf(0.9995, n - 1) * sd / math.sqrt(n)) if n > 1 else None
    j = int(stats.binom.ppf(0.0005, n, 0.5))
    while j >= 0 and stats.binom.cdf(j, n, 0.5) > 0.0005:
        j -= 1
    while stats.binom.cdf(j + 1, n, 0.5) <= 0.0005:
        j += 1
    s = np.sort(x)
    median_interval = [float(s[j]), float(s[n - j - 1])] if j >= 0 else None
    tolerance = max(step, 0.001) if step else None
    # A rerun's median: two clock steps and 1 % of the median either side.
    drift = 2 * (tolerance or 0.0) + 0.01 * abs(float(q[2]))
    rerun_interval = [median_interval[0] - drift, median_interval[1] + drift] if median_interval else None
    return {
        "n": n,
        "mean": float(np.mean(x)),
        "std_dev": sd,
        "error": error,
        "quantiles": [float(v) for v in q],
        "median_interval": median_interval,
        "rerun_interval": rerun_interval,
        "fences": [float(f) for f in fences],
        "outliers": [int(np.sum(x < fences[0])), int(np.sum(x > fences[1]))],
        "mvalue": float(mvalue(x, tolerance)),
        "at_resolution": int(np.sum(np.abs(x) < 2 * tolerance)) if step else None,
    }


def case(name, x, step=None):
    x = np.round(np.asarray(x, dtype=float), 6)
    return {"name": name, "step_ms": step, "samples": [float(v) for v in x], "want": describe(x, step)}


bimodal = np.concatenate([rng.normal(1.0, 0.05, 300), rng.normal(4.0, 0.1, 200)])
cases = [
    case("five", rng.normal(10.0, 1.0, 5)),
    case("eleven", rng.exponential(1.0, 11)),
    case("normal", rng.normal(4.3, 0.2, 200)),
    case("skewed with outliers", np.concatenate([rng.lognormal(0.0, 0.3, 995), [40.0, 55.0, 60.0, 0.01, 0.02]])),
    case("bimodal", bimodal),
    case("trimodal", np.concatenate([rng.normal(1, 0.05, 300), rng.normal(2, 0.05, 300), rng.normal(3, 0.05, 300)])),
    case("clock steps", np.round(rng.normal(0.05, 0.01, 2000) / 0.005) * 0.005, 0.005),
    case("zero wait at a 0.1 ms clock", np.round(np.abs(rng.normal(0.0, 0.08, 400)) / 0.1) * 0.1, 0.1),
    case("one value", [2.0] * 50, 0.02),
]
print(json.dumps(cases))
