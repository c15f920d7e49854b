#!/usr/bin/env python3
"""Reference vectors for ports/score, from lm-eval's score/utils.py and
score/mmlu_pro/utils_mmlu_pro.py.

usage (from the repository root):
  PYTHONPATH=../shared/lm-eval-runner/stubs:/tmp/lmevalref/src \
    /usr/bin/python3 ports/score/testdata/gen_vectors.py > ports/score/testdata/vectors.json
"""
import json
import random

import lmevalref_compat  # noqa: F401
from lm_eval.tasks.score import utils
from lm_eval.tasks.score.mmlu_pro import utils_mmlu_pro as mp

post = getattr(utils, "__postprocess_pred")
preds = ["The best answer is A.", "the best answer is (b)\nmore", "THE BEST ANSWER IS", "the best answer isB",
         "The best answer is C. The best answer is d!", "no answer here", "", "the best answer is  E",
         "The best answer is ǆ", "the best answer is 10"]
out = {"postprocess": [[p, post(p)] for p in preds]}
out["translate"] = [[a, f, utils.translate_model_answer_to_labels(a, labels=mp.LABELS, option_format=f)]
                    for a in ["iv", "3", "X", "a", "11"] for f in [None, "{letter}", "{numeral}. {option}", "{roman_numeral} {option}"]]
docs = [
    {"prompt": "{question}{options}\nCategory: {category}", "options_format": "\n{letter}: {option}", "question": "Q?", "options": ["x", "y", 3], "category": "law"},
    {"prompt": "Q: {question} {options}", "options_format": "({numeral}) {option}; {roman_numeral}/{lower_case_letter} ", "question": "Why?", "options": ["a", "b"]},
    {"prompt": "{question} -> {options}", "question": "No format", "options": ["a"]},
    {"prompt": "{{literal}} {question}", "options_format": "", "question": "q"},
]
out["doc_to_text"] = [[d, utils.robustness_doc_to_text(d)] for d in docs]
rnd = random.Random(3)
macro = []
for _ in range(30):
    n = rnd.randint(1, 40)
    items = [(rnd.randint(0, 5), 0, rnd.choice("ABC"), rnd.choice("AB"), rnd.choice(["math", "law", "bio", "chem", "x", "y", "z", "w", "v", "u", "t", "s", "r", "q"])) for _ in range(n)]
    macro.append([items, float(mp.per_prompt_accuracy_0(items))])
out["macro"] = macro
cons = []
for _ in range(20):
    items = [(rnd.randint(0, 3), rnd.choice("ABCD"), rnd.choice("ABCDE"), rnd.randint(0, 3), (0,)) for _ in range(rnd.randint(1, 20))]
    cons.append([items, mp.options_consistency_rate(items), utils.prompt_consistency_rate([i[:4] for i in items])])
out["consistency"] = cons
print(json.dumps(out, indent=0))
