#!/usr/bin/env python3
"""Vectors of lm_eval/tasks/spanish_bench's helpers (see ports/internal/vectest/vecgen.py).

usage: PYTHONPATH=/work/shared/lm-eval-runner/stubs:/tmp/lmevalref/src \
  /usr/bin/python3 ports/spanish_bench/testdata/gen_vectors.py /work/shared/lm-eval/lm_eval/tasks
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "internal", "vectest"))
import vecgen  # noqa: E402

V = vecgen.Vectors()
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "vectors.json")
from rougepairs import PAIRS  # noqa: E402

F = "spanish_bench/utils.py"
V.process_docs(F, "process_doc_nli", [{"premise": "El perro duerme .", "hypothesis": "Él duerme", "label": 0}])
V.process_docs(F, "process_docs_paraphrases", [
    {"id": 1, "sentence1": "Dijo \" no \" ;", "sentence2": "Ella dijo que sí .", "label": 1},
    {"id": 2, "sentence1": "", "sentence2": "x", "label": 0}])
V.process_docs(F, "process_docs_copa_es", [{"premise": "p", "choice1": "Él cayó.", "choice2": "Ñu", "question": "cause", "label": 0}])
V.process_docs(F, "process_xlsum", [{"id": "1", "url": "u", "title": "t", "summary": "Un  resumen", "text": "El   texto  largo"}])
V.metric(F, "rouge1", ["El perro"], ["un perro"])
V.aggregation(F, "rouge1_agg", PAIRS[2:], seed=1234)
V.write(OUT)
