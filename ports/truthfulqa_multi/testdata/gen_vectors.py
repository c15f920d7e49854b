#!/usr/bin/env python3
"""Vectors of lm_eval/tasks/truthfulqa-multi's helpers (see ports/internal/vectest/vecgen.py).

usage: PYTHONPATH=/work/shared/lm-eval-runner/stubs:/tmp/lmevalref/src \
  /usr/bin/python3 ports/truthfulqa_multi/testdata/gen_vectors.py /work/shared/lm-eval/lm_eval/tasks
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "internal", "vectest"))
import vecgen  # noqa: E402

V = vecgen.Vectors()
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "vectors.json")
F = "truthfulqa-multi/utils.py"
docs = [{"question": " What happens? ", "best_answer": "Nothing", "correct_answers": ["Nothing ", "Nothing happens."], "incorrect_answers": ["You die"], "lang": "en"},
        {"question": "Què?", "best_answer": "Res", "correct_answers": ["Res", "No tinc cap comentari."], "incorrect_answers": ["a"], "lang": "ca"},
        {"question": "Qué?", "best_answer": "Nada", "correct_answers": ["Nada"], "incorrect_answers": [" b "], "lang": "es"},
        {"question": "Zer?", "best_answer": "Ezer", "correct_answers": ["Ezer"], "incorrect_answers": ["c"], "lang": "eu"},
        {"question": "Que?", "best_answer": "Nada", "correct_answers": ["Nada"], "incorrect_answers": ["d"], "lang": "gl"},
        {"question": "Q", "best_answer": "x", "correct_answers": ["x"], "incorrect_answers": ["y"], "lang": "fr"}]
V.process_docs(F, "process_docs_gen", docs)
V.process_docs(F, "process_docs_gen", [{"question": "q", "best_answer": "b", "lang": "en"}], note="no correct_answers")
pg = vecgen.DS(docs).map(vecgen.load(F).preprocess_function)
for pred in ["Nothing happens.", "You die of it", "", "I have no comment."]:
    V.process_results(F, "process_results_gen", pg[0], [pred])
for labels, lls in [([1, 1, 0], [-1.5, -2.25, -0.5]), ([1, 0, 0, 0, 0, 0, 0, 0, 0, 0], [-0.3 * i for i in range(10)])]:
    V.process_results(F, "process_results_mc2", {"mc2_targets": {"labels": labels}}, [[x, False] for x in lls], ll=True,
                      tol=1e-15, note="np.exp and Go's math.Exp may differ in the last bit")
V.write(OUT)
