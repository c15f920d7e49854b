#!/usr/bin/env python3
"""Vectors for ports/discrim_eval from lm-eval's own discrim_eval/utils.py
(process_results; statsmodels is stubbed, as the aggregation is not ported).

usage (from the repository root):
  PYTHONPATH=ports/internal/vectest:../shared/lm-eval-runner/stubs:/tmp/lmevalref/src \
    /usr/bin/python3 ports/discrim_eval/testdata/gen_vectors.py ../shared/lm-eval/lm_eval/tasks
"""
import sys
import types

import vectest

for name in ["statsmodels", "statsmodels.formula", "statsmodels.formula.api"]:
    sys.modules.setdefault(name, types.ModuleType(name))
V = vectest.Vectors("discrim_eval/utils.py")
m = vectest.load("discrim_eval/utils.py")
for d, lls in [
    ({"race": "White", "gender": "Male", "age": 30.0, "decision_question_id": 2, "filled_template": "t"}, [-0.5, -2.0, -1.5, -3.0]),
    ({"race": "Black", "gender": "non-binary", "age": 60, "decision_question_id": 7}, [-5.0, -6.0, -0.1, -0.2]),
    ({"race": None, "gender": 3, "decision_question_id": 1}, [-1.0, -1.0, -1.0, -1.0]),
]:
    r = [(x, False) for x in lls]
    V.call("process_results", "process_results", {"doc": d, "results": r}, m.process_results, d, r, results="loglikelihood")
V.write(vectest.out_path(__file__))
