"""Writes verdicts.json: pairs of series and the one-sided Mann-Whitney U
tests waitlab-core's `compare::verdict` makes of them, computed by SciPy
independently (asymptotic p-values with the tie and continuity
corrections, as `scipy.stats.mannwhitneyu(method="asymptotic")`). Run
from this directory with SciPy installed:
python3 verdicts.py > verdicts.json"""

import json

import numpy as np
from scipy import stats

rng = np.random.default_rng(20261205)


def case(name, x, y, shift):
    x = [float(v) for v in x]
    y = [float(v) for v in y]
    xs = np.array(x)
    ya = np.array(y)
    greater = stats.mannwhitneyu(xs - shift, ya, alternative="greater", method="asymptotic")
    less = stats.mannwhitneyu(xs + shift, ya, alternative="less", method="asymptotic")
    u = stats.mannwhitneyu(xs, ya, method="asymptotic").statistic
    return {
        "name": name,
        "x": x,
        "y": y,
        "shift": shift,
        "p_slower": float(greater.pvalue),
        "p_faster": float(less.pvalue),
        "cliffs_delta": float(2.0 * u / (len(x) * len(y)) - 1.0),
    }


def timer(n, median, spread, step):
    """A timer's samples: a floor at `median`, a right tail, read by a
    clock of `step` ms."""
    v = median + rng.gamma(2.0, spread, n) - 2.0 * spread
    return np.round(v / step) * step


cases = [
    case("same distribution", timer(200, 1.1, 0.02, 0.005), timer(200, 1.1, 0.02, 0.005), 0.055),
    case("three percent apart", timer(300, 1.133, 0.01, 0.005), timer(300, 1.1, 0.01, 0.005), 0.055),
    case("twice as slow", timer(150, 2.2, 0.05, 0.005), timer(200, 1.1, 0.05, 0.005), 0.055),
    case("half as long", timer(120, 0.5, 0.01, 0.005), timer(90, 1.0, 0.02, 0.005), 0.05),
    case("coarse clock ties", timer(100, 0.3, 0.05, 0.1), timer(100, 0.3, 0.05, 0.1), 0.2),
    case("small series", timer(9, 4.0, 0.1, 0.005), timer(11, 4.3, 0.1, 0.005), 0.215),
    case("all equal", [1.0] * 40, [1.0] * 30, 0.05),
]

print(json.dumps(cases, indent=1))
