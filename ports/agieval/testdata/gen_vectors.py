#!/usr/bin/env python3
"""Vectors for ports/agieval and ports/hrm8k from lm-eval's own functions.

usage (from the repository root):
  PYTHONPATH=ports/internal/vectest:../shared/lm-eval-runner/stubs:/tmp/lmevalref/src \
    /usr/bin/python3 ports/agieval/testdata/gen_vectors.py ../shared/lm-eval/lm_eval/tasks

Writes ports/agieval/testdata/vectors.json (edge cases of both packages)
and math_verdicts.json: agieval's and hrm8k's process_results on every
(output, gold) pair of ports/testdata/math/math_pairs.jsonl.gz.
"""
import gzip
import json
import os

import vectest

here = os.path.dirname(os.path.abspath(__file__))
ag = vectest.load("agieval/utils.py")
hr = vectest.load("hrm8k/default/utils.py")
hr_en = vectest.load("hrm8k/en/utils.py")

V = vectest.Vectors("agieval/utils.py")
outputs = [
    "The answer is $\\boxed{5}$.", "\\boxed{x = 3}", "\\boxed{1/2", "\\fbox{7}", "$x = \\frac12$", "$$",
    "so y = 4.", "a = 3\\n b", "the answer is 42 or 43", "nothing", "", "\\boxed 5", "$3$ and $4$",
    "\\boxed{\\text{ cm}\\text{ m}}", "\\boxed{\\sqrt}", "\\boxed{\\frac}", "$0.5$", "$.5$", "\\boxed{ 10\\% }",
    "\\boxed{\\dfrac{3}{4}}", "x/4", "3/4", "٣", "\\boxed{\\frac1{72}}", "$k = 7$", "1,000", "12.50",
]
golds = ["5", "3", "\\frac{1}{2}", "7", "4", "42", "43", "", "\\frac{3}{4}", "0.5", "10", "12.5", "1000"]
for o in outputs:
    for g in golds[:6] + [golds[7]]:
        d = {"answer": g}
        V.call("process_results", "process_results", {"doc": d, "results": [o]}, ag.process_results, d, [o])
for d, r in [({"answer": None}, ["5"]), ({"answer": 5}, ["5"])]:
    V.call("process_results", "process_results", {"doc": d, "results": r}, ag.process_results, d, r)

mc = [
    ({"gold": [1], "choices": ["a", "bbbb", "cc"]}, [(-3.0, False), (-2.0, True), (-2.5, False)]),
    ({"gold": [0, 2], "choices": ["aaaa", "b", "ccc"]}, [(-4.0, False), (-2.0, True), (-3.3, False)]),
    ({"gold": [0], "choices": ["x", "y"]}, [(-1.0, False), (-1.0, False)]),
    ({"gold": [], "choices": ["x", "y"]}, [(-1.0, False), (-2.0, False)]),
    ({"gold": [2], "choices": ["été", "ab", "abcdef"]}, [(-3.0, False), (-2.0, False), (-5.0, False)]),
]
for d, r in mc:
    V.call("process_results_mcqa", "process_results", {"doc": d, "results": r}, ag.process_results_mcqa, d, r, results="loglikelihood")

# hrm8k
H = "hrm8k/default/utils.py"
E = "hrm8k/en/utils.py"
for doc in [{"question": "  1+1?  ", "original": " One plus one? \n", "answer": 2}]:
    V.call("doc_to_text", "doc", doc, hr.doc_to_text, doc, file=H)
    V.call("doc_to_text_mmmlu", "doc", doc, hr.doc_to_text_mmmlu, doc, file=H)
    V.call("doc_to_text", "doc", doc, hr_en.doc_to_text, doc, file=E)
    V.call("doc_to_text_mmmlu", "doc", doc, hr_en.doc_to_text_mmmlu, doc, file=E)
for a in [2, 2.0, 2.5, "3.0", " 7 ", "1e3", "1e16", "1e300", "inf", "nan", "x", "1_000", "٣", "-0.0", 0.1, "\\frac{1}{2}", True, None]:
    d = {"answer": a}
    V.call("doc_to_target", "doc", d, hr.doc_to_target, d, file=H)
    V.call("doc_to_target", "doc", d, hr_en.doc_to_target, d, file=E)
for o in outputs:
    for g in [5, "3", 0.5, "1000", "12.5", "\\frac{3}{4}", 42]:
        d = {"answer": g}
        V.call("process_results", "process_results", {"doc": d, "results": [o]}, hr.process_results, d, [o], file=H)
        V.call("process_results", "process_results", {"doc": d, "results": [o]}, hr_en.process_results, d, [o], file=E)

V.write(os.path.join(here, "vectors.json"))

# the MATH corpus of ports/testdata/math
pairs = [json.loads(l) for l in gzip.open(os.path.join(here, "../../testdata/math/math_pairs.jsonl.gz"), "rt", encoding="utf-8")]
verdicts = {"agieval_g": [], "agieval_s": [], "hrm8k_g": []}
for p in pairs:
    verdicts["agieval_g"].append(ag.process_results({"answer": p["g"]}, [p["c"]])["acc"])
    verdicts["agieval_s"].append(ag.process_results({"answer": p["s"]}, [p["c"]])["acc"])
    verdicts["hrm8k_g"].append(hr.process_results({"answer": p["g"]}, [p["c"]])["exact_match"])
with open(os.path.join(here, "math_verdicts.json"), "w") as f:
    json.dump(verdicts, f, separators=(",", ":"))
    f.write("\n")
