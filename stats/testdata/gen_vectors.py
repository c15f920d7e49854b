#!/usr/bin/env python3
"""Writes stats/testdata/vectors.json: the reference values of every
statistic in package stats, computed by SciPy and statsmodels themselves.

    python3 -m venv build/stats-venv
    build/stats-venv/bin/pip install -r stats/testdata/requirements.txt
    build/stats-venv/bin/python stats/testdata/gen_vectors.py

The Go tests (stats/vectors_test.go) replay the file without Python. NaN is
written as null. Inputs are drawn here with fixed seeds and stored in the
file, so the Go side reads the same numbers.
"""

import json
import math
import os
import warnings

import numpy as np
import scipy
import statsmodels
import statsmodels.api as sm
from scipy import optimize, stats
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.power import NormalIndPower, TTestPower

warnings.simplefilter("ignore")
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "vectors.json")
ALPHA = 0.05


def num(x):
    x = float(x)
    return None if math.isnan(x) or math.isinf(x) else x


def nums(xs):
    return [num(x) for x in xs]


def ttest_case(name, a, b, alpha=ALPHA):
    """scipy.stats.ttest_rel(b, a) with nan_policy='omit' and its interval;
    sem of the differences."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    keep = ~(np.isnan(a) | np.isnan(b))
    d = b[keep] - a[keep]
    r = stats.ttest_rel(b, a, nan_policy="omit")
    ci = r.confidence_interval(1 - alpha)
    sem = stats.sem(d) if len(d) > 1 else float("nan")
    return {
        "name": name, "a": nums(a), "b": nums(b), "alpha": alpha,
        "n": int(keep.sum()), "mean": num(d.mean()) if len(d) else None,
        "sd": num(np.std(d, ddof=1)) if len(d) > 1 else None,
        "se": num(sem), "t": num(r.statistic), "df": int(r.df), "p": num(r.pvalue),
        "low": num(ci.low), "high": num(ci.high),
    }


def mcnemar_case(b, c):
    table = [[0, b], [c, 0]]
    sm_p = mcnemar(table, exact=True).pvalue
    bt = stats.binomtest(min(b, c), b + c, 0.5).pvalue if b + c > 0 else None
    return {"b": b, "c": c, "p": num(sm_p), "p_binomtest": num(bt) if bt is not None else None}


def cluster_case(name, d, groups, alpha=ALPHA):
    """OLS of d on a constant, cov_type='cluster', use_t=True."""
    d = np.asarray(d, float)
    groups = np.asarray(groups)
    G = len(np.unique(groups))
    out = {"name": name, "d": nums(d), "groups": [int(g) for g in groups], "alpha": alpha, "clusters": G}
    if G < 2:
        out.update(se=None, t=None, p=None, low=None, high=None)
        return out
    res = sm.OLS(d, np.ones((len(d), 1))).fit(cov_type="cluster", cov_kwds={"groups": groups}, use_t=True)
    ci = res.conf_int(alpha)[0]
    out.update(se=num(res.bse[0]), t=num(res.tvalues[0]), p=num(res.pvalues[0]), low=num(ci[0]), high=num(ci[1]))
    return out


def holm_case(p):
    p = np.asarray(p, float)
    keep = ~np.isnan(p)
    adj = np.full(len(p), np.nan)
    if keep.any():
        adj[keep] = multipletests(p[keep], method="holm")[1]
    return {"p": nums(p), "adjusted": nums(adj)}


def power_case(es, n, alpha=ALPHA):
    return {"es": es, "n": n, "alpha": alpha, "power": num(TTestPower().power(es, n, alpha))}


def solve_es(power_fn, power):
    """The effect size at which statsmodels' power function reaches power,
    by brentq to full precision. statsmodels' own solve_power stops early
    (its power at the root is off by up to 1e-6), so its answer is
    recorded too but the tight root is the reference. (n = 2 is left out:
    there SciPy's nct.cdf returns NaN in the far lower tail, so
    statsmodels' power is NaN at some effect sizes.)"""
    # Bracket from below in small steps: SciPy's nct returns NaN far above
    # the root (large noncentrality), which brentq cannot cross.
    hi = 1e-3
    while power_fn(hi) < power:
        hi *= 1.5
    return optimize.brentq(lambda es: power_fn(es) - power, hi / 1.5, hi, xtol=1e-15, rtol=4 * np.finfo(float).eps)


def ttest_es(n, alpha, power):
    return solve_es(lambda es: TTestPower().power(es, n, alpha), power)


def mde_case(n, sd, alpha=ALPHA, power=0.8):
    es = ttest_es(n, alpha, power)
    loose = TTestPower().solve_power(effect_size=None, nobs=n, alpha=alpha, power=power)
    return {"n": n, "sd": sd, "alpha": alpha, "power": power, "es": num(es), "mde": num(es * sd),
            "solve_power_es": num(loose)}


def mde_normal_case(se, alpha=ALPHA, power=0.8):
    es = solve_es(lambda es: NormalIndPower().power(es, 1, alpha, ratio=0), power)
    loose = NormalIndPower().solve_power(effect_size=None, nobs1=1, alpha=alpha, power=power, ratio=0)
    return {"se": se, "alpha": alpha, "power": power, "es": num(es), "mde": num(es * se),
            "solve_power_es": num(loose)}


def bootstrap_case(name, d, resamples, seed, alpha=ALPHA):
    """scipy.stats.bootstrap of the mean, method='percentile'."""
    d = np.asarray(d, float)
    r = stats.bootstrap((d,), np.mean, n_resamples=resamples, batch=5000, method="percentile",
                        confidence_level=1 - alpha, random_state=np.random.default_rng(seed))
    return {"name": name, "d": nums(d), "alpha": alpha, "resamples": resamples,
            "low": num(r.confidence_interval.low), "high": num(r.confidence_interval.high),
            "se": num(r.standard_error)}


def stratified_case(name, parts, weights, alpha=ALPHA, power=0.8):
    """Independent strata: sum of w * mean difference, SE from the strata's
    scipy.stats.sem, z-test with scipy.stats.norm, MDE from statsmodels'
    NormalIndPower."""
    means, sems = [], []
    for a, b in parts:
        d = np.asarray(b, float) - np.asarray(a, float)
        means.append(d.mean())
        sems.append(stats.sem(d))
    w = np.asarray(weights, float)
    diff = float(np.dot(w, means))
    se = float(np.sqrt(np.sum(w ** 2 * np.asarray(sems) ** 2)))
    z = diff / se
    q = stats.norm.ppf(1 - alpha / 2)
    es = solve_es(lambda es: NormalIndPower().power(es, 1, alpha, ratio=0), power)
    return {"name": name, "parts": [{"a": nums(a), "b": nums(b)} for a, b in parts], "weights": list(w),
            "alpha": alpha, "power": power, "diff": num(diff), "se": num(se), "statistic": num(z),
            "p": num(2 * stats.norm.sf(abs(z))), "low": num(diff - q * se), "high": num(diff + q * se),
            "mde": num(es * se)}


def compare_case(name, a, b, clusters=None, alpha=ALPHA, power=0.8):
    """Everything stats.Compare reports, each from its reference."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    keep = ~(np.isnan(a) | np.isnan(b))
    ak, bk = a[keep], b[keep]
    d = bk - ak
    n = len(d)
    out = {"name": name, "a": nums(a), "b": nums(b), "alpha": alpha, "power": power,
           "n": n, "dropped": int((~keep).sum()),
           "mean_a": num(ak.mean()) if n else None, "mean_b": num(bk.mean()) if n else None}
    t = ttest_case(name, a, b, alpha)
    out.update(diff=t["mean"], se=t["se"], low=t["low"], high=t["high"])
    binary = n > 0 and bool(np.isin(ak, [0, 1]).all() and np.isin(bk, [0, 1]).all())
    out["binary"] = binary
    if binary:
        B = int(((ak == 1) & (bk == 0)).sum())
        C = int(((ak == 0) & (bk == 1)).sum())
        out.update(test="mcnemar_exact", mcnemar_b=B, mcnemar_c=C, statistic=min(B, C),
                   p=num(mcnemar([[0, B], [C, 0]], exact=True).pvalue))
    else:
        out.update(test="paired_t", statistic=t["t"], p=t["p"])
    sd = np.std(d, ddof=1) if n > 1 else float("nan")
    if n > 1 and sd > 0:
        out["mde"] = num(ttest_es(n, alpha, power) * sd)
    else:
        out["mde"] = None
    if clusters is not None:
        cl = np.asarray(clusters)
        out["clusters"] = [int(c) for c in cl]
        c = cluster_case(name, d, cl[keep], alpha)
        out["cluster"] = {k: c[k] for k in ("clusters", "se", "t", "p", "low", "high")}
    return out


def main():
    rng = np.random.default_rng(20261202)
    v = {"scipy": scipy.__version__, "statsmodels": statsmodels.__version__, "numpy": np.__version__}

    def cont(n, shift=0.02, scale=0.3):
        a = rng.uniform(0, 1, n)
        return a, np.clip(a + rng.normal(shift, scale, n), 0, 1)

    def bits(n, pa, flip_ab, flip_ba):
        a = (rng.uniform(size=n) < pa).astype(float)
        b = a.copy()
        u = rng.uniform(size=n)
        b[(a == 1) & (u < flip_ab)] = 0
        b[(a == 0) & (u < flip_ba)] = 1
        return a, b

    tt = []
    for n in (2, 3, 5, 30, 200, 1000):
        a, b = cont(n)
        tt.append(ttest_case(f"continuous n={n}", a, b))
    a, b = cont(50, shift=0.3, scale=0.05)
    tt.append(ttest_case("large effect n=50", a, b))
    tt.append(ttest_case("tiny p: n=400 shift 0.2", *cont(400, shift=0.2, scale=0.1)))
    tt.append(ttest_case("alpha 0.01", *cont(40), alpha=0.01))
    tt.append(ttest_case("alpha 0.1", *cont(40), alpha=0.10))
    tt.append(ttest_case("constant nonzero difference", [0, 0.25, 0.5, 0.25], [0.5, 0.75, 1, 0.75]))
    tt.append(ttest_case("all equal", [0.5, 0.25, 1], [0.5, 0.25, 1]))
    tt.append(ttest_case("one document", [0.25], [0.75]))
    a, b = cont(20)
    a[3] = np.nan
    b[7] = np.nan
    tt.append(ttest_case("NaN scores omitted", a, b))
    v["ttest"] = tt

    v["mcnemar"] = [mcnemar_case(b, c) for b, c in [
        (0, 0), (0, 1), (1, 0), (1, 1), (3, 9), (9, 3), (5, 5), (10, 25), (0, 12),
        (40, 60), (120, 80), (500, 560), (1000, 1100), (3000, 3400), (20000, 20400), (7, 200)]]

    cl = []
    d = rng.normal(0.05, 0.4, 60)
    cl.append(cluster_case("7 clusters", d, rng.integers(0, 7, 60)))
    cl.append(cluster_case("each its own cluster", d[:25], np.arange(25)))
    cl.append(cluster_case("2 clusters", d[:30], np.repeat([4, 9], 15)))
    g = rng.integers(0, 57, 600)
    cl.append(cluster_case("57 subjects, correlated", rng.normal(0, 0.2, 600) + 0.1 * np.sin(g), g))
    cl.append(cluster_case("one cluster", d[:10], np.zeros(10, int)))
    cl.append(cluster_case("all equal", np.zeros(12), np.repeat([0, 1, 2], 4)))
    cl.append(cluster_case("alpha 0.01", d, rng.integers(0, 5, 60), alpha=0.01))
    v["cluster"] = cl

    v["holm"] = [holm_case(p) for p in [
        [0.01], [0.01, 0.04, 0.03, 0.2], [0.5, 0.5, 0.5], [1e-10, 0.02, 0.02, 0.9, 0.04],
        [0.3, float("nan"), 0.001, 0.04], [0.6, 0.7, 0.8], [0.012, 0.011, 0.013, 0.5, 0.049, 0.0001]]]

    v["power"] = [power_case(es, n) for es, n in [(0.1, 100), (0.3, 30), (0.5, 10), (0.05, 5000), (1.2, 4), (0.02, 100000), (0, 50)]]
    v["mde"] = [mde_case(n, sd, alpha=al, power=pw) for n, sd, al, pw in [
        (3, 0.5, 0.05, 0.8), (4, 1.0, 0.05, 0.8), (10, 0.3, 0.05, 0.8), (50, 1.0, 0.05, 0.8),
        (200, 0.45, 0.05, 0.8), (1000, 0.2, 0.05, 0.9), (14042, 0.35, 0.05, 0.8),
        (100000, 0.4, 0.01, 0.8), (500, 0.3, 0.1, 0.5)]]
    v["mde_normal"] = [mde_normal_case(se, alpha=al, power=pw) for se, al, pw in [
        (0.01, 0.05, 0.8), (0.004, 0.01, 0.9), (0.2, 0.1, 0.5)]]

    bs = []
    bs.append(bootstrap_case("continuous n=200", cont(200)[1] - cont(200)[0], 200000, 1))
    a, b = bits(500, 0.6, 0.1, 0.2)
    bs.append(bootstrap_case("binary differences n=500", b - a, 200000, 2))
    a, b = bits(3000, 0.5, 0.05, 0.08)
    bs.append(bootstrap_case("binary differences n=3000", b - a, 200000, 3))
    v["bootstrap"] = bs

    cmp = []
    a, b = bits(300, 0.6, 0.1, 0.15)
    cmp.append(compare_case("binary n=300", a, b, clusters=rng.integers(0, 12, 300)))
    a, b = cont(150)
    cmp.append(compare_case("continuous n=150", a, b, clusters=rng.integers(0, 9, 150)))
    a = (rng.uniform(size=40) < 0.5).astype(float)
    cmp.append(compare_case("binary, no discordant pairs", a, a.copy(), clusters=rng.integers(0, 4, 40)))
    cmp.append(compare_case("continuous, all equal", [0.2, 0.4, 0.4, 0.9], [0.2, 0.4, 0.4, 0.9]))
    cmp.append(compare_case("binary, all equal and all 1", [1, 1, 1, 1, 1], [1, 1, 1, 1, 1]))
    cmp.append(compare_case("one document, binary", [0], [1]))
    cmp.append(compare_case("one document, continuous", [0.25], [0.5]))
    a, b = bits(60, 0.5, 0.2, 0.3)
    a[[5, 17]] = np.nan
    b[40] = np.nan
    cmp.append(compare_case("binary with NaN scores", a, b, clusters=rng.integers(0, 6, 60)))
    a, b = cont(30)
    b[[0, 9]] = np.nan
    cmp.append(compare_case("continuous with NaN scores", a, b))
    cmp.append(compare_case("binary, one discordant pair", [1, 0, 1, 1], [1, 0, 0, 1]))
    v["compare"] = cmp

    v["percentile"] = []
    for xs in ([3.0], [1.0, 2.0], rng.normal(0, 1, 7), rng.normal(0, 1, 1000), [0.1, 0.1, 0.2, 0.9, 5.0]):
        xs = np.sort(np.asarray(xs, float))
        qs = [0, 0.001, 0.025, 0.25, 0.5, 0.6, 0.975, 0.999, 1]
        v["percentile"].append({"x": nums(xs), "q": qs, "value": nums([np.percentile(xs, 100 * q) for q in qs])})

    parts = [bits(n, 0.5, 0.1, 0.2) for n in (40, 120, 75)]
    v["stratified"] = [
        stratified_case("three tasks, weighted by size", parts, [40 / 235, 120 / 235, 75 / 235]),
        stratified_case("three tasks, macro average", parts, [1 / 3, 1 / 3, 1 / 3]),
        stratified_case("continuous, alpha 0.1", [cont(30), cont(60)], [0.5, 0.5], alpha=0.1, power=0.9),
    ]

    with open(OUT, "w") as f:
        json.dump(v, f, indent=None, separators=(",", ":"))
        f.write("\n")
    print(f"wrote {OUT} ({os.path.getsize(OUT)} bytes)")


if __name__ == "__main__":
    main()
