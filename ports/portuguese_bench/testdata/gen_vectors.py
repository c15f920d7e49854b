#!/usr/bin/env python3
"""Vectors of lm_eval/tasks/portuguese_bench's helpers (see ports/internal/vectest/vecgen.py).

usage (from the repository root; the real packages, make parity's venv):
  build/parity/venv/bin/python scripts/parity/realgen_all.py portuguese_bench
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "internal", "vectest"))
import vecgen  # noqa: E402

V = vecgen.Vectors()
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "vectors.json")
F = "portuguese_bench/assin2_utils.py"
for pred, gold in [("4", 4.5), ("A similaridade é 3,5.", "3.5"), ("nota 4.25 de 5", 4.0), ("7", 1.0), ("nada", 2.2),
                   ("  2  ", 2), ("15", 1.5), ("1.", 1.0), ("٣", 3.0)]:
    V.process_results(F, "process_results_sts", {"premise": "p", "hypothesis": "h", "relatedness_score": gold}, [pred])
for items in [[[1.0, 1.5], [2.0, 2.0], [3.5, 3.0], [5.0, 4.8], [3.0, 3.1]], [[3.0, 1.0], [3.0, 2.0]], [[1.0, 2.0], [2.0, 1.0]],
              [[1.0, 1.0], [2.0, 2.5], [4.0, 3.0]], [[float(i % 5 + 1), (i * 7 % 9) / 2 + 1] for i in range(40)]]:
    V.aggregation(F, "pearson_corr", items, tol=1e-12, note="BLAS norm and dot")
V.aggregation(F, "macro_f1", [[0, 0], [1, 1], [1, 0], [0, 0], [1, 1]], tol=1e-12, pairs=True)
V.write(OUT)
