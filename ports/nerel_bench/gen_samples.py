#!/usr/bin/env python3
"""Writes samples.json: the documents lm-eval's nerel-bench/utils.py
fewshot_samples_for_{ner,re,rd,ned}() return (literal data the functions
format), for the SamplesFunc ports to return:

  PYTHONPATH=/work/shared/lm-eval-runner/stubs:/tmp/lmevalref/src \
    /usr/bin/python3 ports/nerel_bench/gen_samples.py /work/shared/lm-eval/lm_eval/tasks > ports/nerel_bench/samples.json
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "internal", "vectest"))
import vecgen  # noqa: E402

m = vecgen.load("nerel-bench/utils.py")
out = {k: getattr(m, "fewshot_samples_for_" + k)() for k in ["ner", "re", "rd", "ned"]}
print(json.dumps(out, ensure_ascii=False, indent=1))
