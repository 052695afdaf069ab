"""How the scale sweep's measurements grow with the indexed items: least-squares fits of a
power law and of a straight line.

>>> fit_growth([1000, 2000, 4000], [10.0, 20.0, 40.0])["exponent"]
1.0
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["fit_growth", "scale_fits"]

# What `scale_fits` fits against size, besides each stage's p50 (keys of a size's row).
_FITTED = ("build_s", "disk_mb", "rss_loaded_mb", "rss_peak_mb")


def _r2(y: npt.NDArray[np.float64], fitted: npt.NDArray[np.float64]) -> float | None:
    total = float(np.sum((y - y.mean()) ** 2))
    if total == 0.0:
        return None  # a constant explains nothing: R^2 is undefined
    return round(1.0 - float(np.sum((y - fitted) ** 2)) / total, 3) + 0.0


def fit_growth(sizes: Sequence[float], values: Sequence[float]) -> dict[str, float | None]:
    """How `values` grow with `sizes`, by least squares: `exponent` b of values ~ size^b
    (the slope of log value against log size; None when a value is not positive) with its
    `r2`, and the straight line's slope per 1,000 of size (`per_1000`) with its
    `linear_r2`. R^2 is None where the values do not vary.

    >>> fit_growth([1000, 2000, 4000], [10.0, 20.0, 40.0])
    {'exponent': 1.0, 'r2': 1.0, 'per_1000': 10.0, 'linear_r2': 1.0}
    """
    x = np.asarray(sizes, dtype=np.float64)
    y = np.asarray(values, dtype=np.float64)
    if len(x) != len(y) or len(np.unique(x)) < 2:
        raise ValueError("a fit needs a value for each of at least two different sizes")
    slope, intercept = np.polyfit(x, y, 1)
    out: dict[str, float | None] = {"exponent": None, "r2": None}
    if bool(np.all(y > 0)):
        lx, ly = np.log(x), np.log(y)
        b, a = np.polyfit(lx, ly, 1)
        out = {"exponent": round(float(b), 3) + 0.0, "r2": _r2(ly, a + b * lx)}
    return out | {
        "per_1000": round(float(slope) * 1000, 4) + 0.0,
        "linear_r2": _r2(y, intercept + slope * x),
    }


def scale_fits(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """`fit_growth` of the sizes' measurements against their indexed items: each stage's
    p50 (ms), the build time (s), the index on disk and memory (MiB). Empty with fewer than
    two sizes.

    >>> scale_fits([])
    {}
    """
    items = [r["counts"]["items"] for r in rows]
    if len(set(items)) < 2:
        return {}
    stages = [s for s in rows[0]["stages_ms"] if all(r["stages_ms"].get(s) for r in rows)]
    return {
        "against": "items",
        "items": items,
        "stages_p50_ms": {
            s: fit_growth(items, [r["stages_ms"][s]["p50"] for r in rows]) for s in stages
        },
        **{key: fit_growth(items, [r[key] for r in rows]) for key in _FITTED},
    }
