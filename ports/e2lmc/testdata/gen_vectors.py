#!/usr/bin/env python3
"""Vectors for ports/e2lmc from lm-eval's own custom_metrics.py.

usage (from the repository root):
  PYTHONPATH=ports/internal/vectest:../shared/lm-eval-runner/stubs:/tmp/lmevalref/src \
    /usr/bin/python3 ports/e2lmc/testdata/gen_vectors.py ../shared/lm-eval/lm_eval/tasks
"""
import vectest

F = "e2lmc/mmlu_early_training/custom_metrics.py"
V = vectest.Vectors(F)
m = vectest.load(F)
for items in [[(0, [-1.0, -2.0, -3.0, -4.0]), (2, [-1.5, -2.5, -0.5, -9.0])], [(1, [-0.1, -0.2])], [(3, [-1.1, -2.2, -3.3, -4.4])] * 9 + [(0, [0.1, 0.2, 0.3, 0.4])] * 4]:
    V.call("loglikelihood_diff", "agg_likelihood", items, m.loglikelihood_diff, items)
V.write(vectest.out_path(__file__))
