#!/usr/bin/env python3
"""Vectors of lm_eval/tasks/okapi's helpers (see ports/internal/vectest/vecgen.py).

usage (from the repository root; the real packages, make parity's venv):
  build/parity/venv/bin/python scripts/parity/realgen_all.py okapi
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "internal", "vectest"))
import vecgen  # noqa: E402

V = vecgen.Vectors()
ARC = "okapi/arc_multilingual/utils.py"
TQA = "okapi/truthfulqa_multilingual/utils.py"

arc = [
    {"id": "Mercury_1", "answer": "B", "instruction": "  Which is a [title] planet?  ",
     "option_a": "Sun [x]", "option_b": "Mars  [title] red", "option_c": "Moon", "option_d": "Comet", "option_e": None},
    {"id": "q2", "answer": "E", "instruction": "Was ist  das? [1][2]",
     "option_a": "eins", "option_b": "", "option_c": "drei [note] ", "option_d": "vier", "option_e": "fünf"},
    {"id": "q3", "answer": "A", "instruction": "[a]\n[b] Quelle\tréponse ?",
     "option_a": " \t oui ", "option_b": "non", "option_c": None, "option_d": None, "option_e": None},
]
V.process_docs(ARC, "process_docs", arc)
V.process_docs(ARC, "process_docs", [dict(arc[0], answer="F")], note="answer not a letter")

tqa = [
    {"question": "What happens [title] if you eat seeds?", "mc1_targets_choices": ["Nothing.", "You die."],
     "mc1_targets_labels": [1, 0], "mc2_targets_choices": ["Nothing.", "Digest.", "You die."],
     "mc2_targets_labels": [1, 1, 0]},
    {"question": None, "mc1_targets_choices": ["a"], "mc1_targets_labels": [1],
     "mc2_targets_choices": ["a", "b"], "mc2_targets_labels": [1, 0]},
    {"question": "  Kdo  [x] je?  ", "mc1_targets_choices": [], "mc1_targets_labels": [],
     "mc2_targets_choices": [], "mc2_targets_labels": []},
]
V.process_docs(TQA, "process_docs", tqa)

# process_results_mc2 is truthfulqa's source (its port: lmeval/tasks); numpy
# sums pairwise from eight items on, which the vectors with many choices test.
for n, labels in [(3, [1, 1, 0]), (9, [1, 0, 1, 0, 0, 1, 0, 0, 0]), (20, [1] * 7 + [0] * 13)]:
    lls = [-0.37 * (i + 1) - 0.011 * i * i for i in range(n)]
    V.process_results(TQA, "process_results_mc2", {"mc2_targets": {"labels": labels}},
                      [[x, False] for x in lls], ll=True,
                      tol=1e-15, note="np.exp and Go's math.Exp may differ in the last bit")

V.write(os.path.join(os.path.dirname(os.path.abspath(__file__)), "vectors.json"))
