#!/usr/bin/env python3
"""Vectors of lm_eval/tasks/mlqa/utils.py (see ports/internal/vectest/vecgen.py).

usage: PYTHONPATH=/work/shared/lm-eval-runner/stubs:/tmp/lmevalref/src \
  /usr/bin/python3 ports/mlqa/testdata/gen_vectors.py /work/shared/lm-eval/lm_eval/tasks
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "internal", "vectest"))
import vecgen  # noqa: E402

V = vecgen.Vectors()
F = "mlqa/utils.py"
V.process_docs(F, "process_docs", [
    {"id": "a1", "title": "T", "context": "ctx one", "question": "q1?",
     "answers": {"answer_start": [3, 9], "text": ["one", "ctx one"]}},
    {"id": "a2", "title": "T2", "context": "ctx two", "question": "q2?", "answers": {"answer_start": [], "text": []}},
])
cases = {
    "en": (["The Eiffel Tower", "Eiffel tower, Paris"], ["the eiffel tower.", "  Eiffel  Tower  ", "a tower in Paris", "Paris—France", "", "an"]),
    "es": (["La Torre Eiffel", "los Alpes"], ["torre eiffel", "El monte de los Alpes", "¡Alpes!", "unas torres"]),
    "hi": (["भारत की राजधानी", "दिल्ली"], ["दिल्ली।", "भारत की  राजधानी", "मुंबई"]),
    "vi": (["của Việt Nam", "Hà Nội"], ["Hà Nội là thủ đô", "những cái nhà", "việt nam"]),
    "de": (["Der Kölner Dom", "die Alpen"], ["dem Kölner Dom", "Alpen, die", "Berlin", "DES DOMES"]),
    "ar": (["القاهرة", "مصر العربية"], ["القاهرة.", "في القاهرة", "مصر", "الالقاهرة"]),
    "zh": (["北京大学", "清华 university"], ["北京大学。", "北京的大学", "清华University", "abc 北京", "《北京大学》"]),
}
for lang, (golds, preds) in cases.items():
    for p in preds:
        V.process_results(F, "process_results_" + lang, {"answers": golds}, [p])
V.process_results(F, "process_results_en", {"answers": []}, ["x"], note="max() of nothing")
V.process_results(F, "process_results_en", {"answers": ["a b", "b a"]}, ["b a"], note="ties keep the first")
V.write(os.path.join(os.path.dirname(os.path.abspath(__file__)), "vectors.json"))
