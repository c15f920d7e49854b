#!/usr/bin/env python3
"""Parse vectors for package sympylatex: sympy's parse_latex (ANTLR backend)
on every short string over a small token alphabet and on random token
strings, each reduced to a number so Go can compare without sympy.

Each line: {"s": input, "v": result} where result is "E" (LaTeXParsingError
or another exception), "R" (a relation or boolean), "U" (something this
script does not evaluate: undefined functions, derivatives, integrals), or
[re, im] of the value with every free symbol replaced by the same
pseudo-random complex value the Go test uses (fnv-1a of its name).

Needs sympy >= 1.12 with antlr4-python3-runtime 4.11-4.13 (the 4.11 check is
bypassed, see ../../../testdata/math/gen_math_vectors.py). Run:
  python3 gen_parse_vectors.py | gzip -9n > parse_vectors.jsonl.gz
"""
import contextlib
import io
import itertools
import json
import math
import random
import cmath

import sympy
import sympy.parsing.latex._parse_latex_antlr as _pla

_pla.version = lambda name: "4.11"
from sympy.parsing.latex import parse_latex


def fnv(parts):
    h = 0xCBF29CE484222325
    for p in parts:
        for b in p.encode() + b"\0":
            h ^= b
            h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return (h >> 11) / float(1 << 53)


def symval(name):
    r = 0.5 + fnv(["r", "0", name])
    th = 2 * math.pi * fnv(["t", "0", name])
    return cmath.rect(r, th)


def value(s):
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            e = parse_latex(s)
    except Exception:
        return "E"
    if isinstance(e, sympy.core.relational.Relational) or not isinstance(e, sympy.Expr):
        return "R"
    if e.atoms(sympy.Derivative, sympy.Integral, sympy.Sum, sympy.Product, sympy.Limit, sympy.core.function.AppliedUndef):
        return "U"
    try:
        v = complex(e.subs({x: symval(x.name) for x in e.free_symbols}).evalf(30))
    except Exception:
        return "U"
    if any(map(math.isnan, (v.real, v.imag))) or any(map(math.isinf, (v.real, v.imag))):
        return "N"
    return [v.real, v.imag]


def main():
    out = []
    small = ["1", "2", ",", ".", "x", " "]
    for n in range(1, 6):
        for t in itertools.product(small, repeat=n):
            out.append("".join(t))
    rng = random.Random(3)
    toks = ["1", "2", "3", "x", "y", "a", "d", ",", ".", "+", "-", "*", "/", "(", ")", "{", "}",
            "[", "]", "^", "_", "!", "|", ":", "=", "<", " ", "\\frac", "\\dfrac", "\\sqrt", "\\pi",
            "\\cdot", "\\times", "\\infty", "\\left(", "\\right)", "\\sin", "\\ln", "\\log", "\\%",
            "\\{", "\\}", "\\text", "\\circ", "\\pm", "'", "\\le", "e", "i", "\\,", "\\!", "0", "5"]
    for _ in range(4000):
        out.append("".join(rng.choice(toks) for _ in range(rng.randint(1, 9))))
    seen = set()
    for s in out:
        if s in seen or not s.strip():
            continue
        seen.add(s)
        print(json.dumps({"s": s, "v": value(s)}, separators=(",", ":")))


if __name__ == "__main__":
    main()
