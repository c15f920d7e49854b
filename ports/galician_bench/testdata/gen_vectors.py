#!/usr/bin/env python3
"""Vectors of lm_eval/tasks/galician_bench's helpers (see ports/internal/vectest/vecgen.py).

usage: PYTHONPATH=/work/shared/lm-eval-runner/stubs:/tmp/lmevalref/src \
  /usr/bin/python3 ports/galician_bench/testdata/gen_vectors.py /work/shared/lm-eval/lm_eval/tasks
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "internal", "vectest"))
import vecgen  # noqa: E402

V = vecgen.Vectors()
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "vectors.json")
from rougepairs import PAIRS  # noqa: E402

F = "galician_bench/utils.py"
V.process_docs(F, "process_doc_nli", [
    {"sentence1": "O can , que é negro , dorme .", "sentence2": "O can dorme", "gold_label": "entailment"},
    {"sentence1": "Chove ?", "sentence2": "Hoxe chove.", "gold_label": "contradiction"}])
V.process_docs(F, "process_doc_nli", [{"sentence1": "a", "sentence2": "b", "gold_label": "other"}], note="KeyError")
V.process_docs(F, "process_docs_paraphrases", [
    {"Frase": "Dixo \" non \" ;", "Paráfrase": "Ela dixo que si .", "Avaliación": 1},
    {"Frase": "", "Paráfrase": "x", "Avaliación": 0}])
V.process_docs(F, "process_docs_paws", [
    {"id": 1, "sentence1": "Un ( dous ) ,", "sentence2": "Tres catro .", "label": 1},
    {"id": 2, "sentence1": "a", "sentence2": None, "label": 0}])
V.process_docs(F, "process_summarization", [{"text": "Un  texto   longo", "summary": " resumo  curto "}])
V.aggregation(F, "rouge1_agg", PAIRS, seed=1234)
V.aggregation(F, "rouge1_agg", PAIRS, seed=99)
for labels, lls in [([1, 1, 0], [-1.5, -2.25, -0.5]), ([1, 0, 0, 0, 0, 0, 0, 0, 0, 0], [-0.3 * i for i in range(10)])]:
    V.process_results(F, "process_results_mc2", {"mc2_targets": {"labels": labels}}, [[x, False] for x in lls], ll=True,
                      tol=1e-15, note="np.exp and Go's math.Exp may differ in the last bit")
V.process_results(F, "process_results_mc2", {"mc2_targets": {"labels": [1, 1]}}, [[-1.0, False], [-2.0, True]], ll=True, note="no 0 label")
gen_docs = [{"question": " Que pasa? ", "correct_answers": ["Nada ", "Nada pasa."], "incorrect_answers": ["Morres"]}]
V.process_docs(F, "process_docs_gen", gen_docs)
pg = vecgen.DS(gen_docs).map(vecgen.load(F).preprocess_function_gen)
for pred in ["Nada.", "Morres de fame", ""]:
    V.process_results(F, "process_results_gen", pg[0], [pred], tol=1e-12, note="BLEU's exp and log")
V.write(OUT)
