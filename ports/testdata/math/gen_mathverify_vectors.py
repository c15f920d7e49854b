#!/usr/bin/env python3
"""Adds Hugging Face math_verify's verdicts to the pairs of
gen_math_vectors.py, as lm-eval's process_results computes them:

  lbv  leaderboard/math exact_match:
       verify(parse(solution, [LatexExtractionConfig()]), parse(output))
  mvv  minerva_math math_verify:
       verify(gold=parse(solution), target=parse(output))

math_verify is not on PyPI-less machines; it was run from source
(huggingface/Math-Verify 0.8.0 at 5d148cfa, latex2sympy2_extended 1.11.0 at
02999f5 with its PS.g4 compiled by the antlr-4.13.2 jar in that repository,
sympy 1.14, antlr4-python3-runtime 4.13.2). Run:

  PYTHONPATH=<latex2sympy2_extended>/src:<Math-Verify>/src \
    python3 gen_mathverify_vectors.py < math_pairs.jsonl > with_mv.jsonl
"""
import json
import sys

from math_verify import LatexExtractionConfig, parse, verify


def main():
    for line in sys.stdin:
        r = json.loads(line)
        sol, out = r["s"], r["c"]
        try:
            lbv = 1 if verify(parse(sol, extraction_config=[LatexExtractionConfig()]), parse(out)) else 0
        except Exception:
            lbv = -1
        try:
            mvv = 1 if verify(gold=parse(sol), target=parse(out)) else 0
        except Exception:
            mvv = -1
        r["lbv"], r["mvv"] = lbv, mvv
        print(json.dumps(r, ensure_ascii=False, separators=(",", ":")))


if __name__ == "__main__":
    main()
