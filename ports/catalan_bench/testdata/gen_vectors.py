#!/usr/bin/env python3
"""Vectors of lm_eval/tasks/catalan_bench's helpers (see ports/internal/vectest/vecgen.py).

usage: PYTHONPATH=/work/shared/lm-eval-runner/stubs:/tmp/lmevalref/src \
  /usr/bin/python3 ports/catalan_bench/testdata/gen_vectors.py /work/shared/lm-eval/lm_eval/tasks
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "internal", "vectest"))
import vecgen  # noqa: E402

V = vecgen.Vectors()
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "vectors.json")
from rougepairs import PAIRS  # noqa: E402

F = "catalan_bench/utils.py"
V.process_docs(F, "process_doc_nli", [
    {"premise": "El gat , que és negre , dorm .", "hypothesis": "El gat dorm", "label": 0},
    {"premise": "Plou ( molt ) ?", "hypothesis": "Àvui plou.", "label": 1},
    {"premise": "No n't sé", "hypothesis": " \" Sí \" ", "label": 2}])
V.process_docs(F, "process_doc_nli", [{"premise": "a", "hypothesis": "  ", "label": 0}], note="IndexError")
V.process_docs(F, "process_doc_cabreu", [{"content": "Text  amb   espais ", "summaries": {
    "abstractive": {"a1": "a  b", "a2": "c", "a3": "  d"}, "extractive": {"a1": "e   f", "a2": "g", "a3": "h"},
    "extreme": {"a1": "i", "a2": "j  k", "a3": "l"}}}])
V.process_docs(F, "process_docs_paraphrases", [
    {"id": 1, "sentence1": "Ell va dir \" no \" ;", "sentence2": "Ella va dir que sí .", "label": 1},
    {"id": 2, "sentence1": None, "sentence2": "x", "label": 0},
    {"id": 3, "sentence1": "Això ,", "sentence2": "Ésser", "label": 0}])
V.process_docs(F, "process_docs_copa_ca", [{"premise": "p", "choice1": "Ell va caure.", "choice2": "Èl", "question": "cause", "label": 0}])
coq = {"story": "s", "questions": ["q1", "q2"], "answers": {"input_text": ["un", "La Casa Gran"], "answer_start": [0, 1]},
       "additional_answers": {"0": {"input_text": ["u", "la casa gran"]}, "1": {"input_text": ["x", "Una casa"]},
                              "2": {"input_text": ["y", "casa gran"]}}}
for pred in ["La casa gran\ni més", "  casa  ", "res", ""]:
    V.process_results(F, "process_results_coqcat", coq, [pred])
V.process_results(F, "process_results_coqcat", {"questions": ["q"], "answers": {"input_text": ["Sí"]}}, ["si"])
V.process_results(F, "process_results_coqcat", {"questions": ["q"], "answers": {"input_text": ["Sí"]}, "additional_answers": None}, ["Sí."])
for pred in ["Barcelona", "la ciutat de Barcelona", ""]:
    V.process_results(F, "process_results_qa", {"answers": [{"text": "Barcelona", "answer_start": 3}]}, [pred])
for g, p in PAIRS[:3]:
    V.metric(F, "rouge1", [g], [p])
V.aggregation(F, "rouge1_agg", PAIRS, seed=1234)
V.aggregation(F, "rouge1_agg", PAIRS[:1], seed=1234)
V.aggregation(F, "rouge1_agg", PAIRS[3:9], seed=1234)

VA = "catalan_bench/truthfulqa_va/utils.py"
gen_docs = [{"question": " Què passa si menges llavors? ", "correct_answers": ["Res ", "Les digereixes.", ""],
             "incorrect_answers": ["Et creix un arbre", "Mors."], "best_answer": "Res"},
            {"question": "Q", "correct_answers": ["Non teño ningún comentario"], "incorrect_answers": ["x"], "best_answer": "y"}]
V.process_docs(VA, "process_docs_gen", gen_docs)
pg = vecgen.DS(gen_docs).map(vecgen.load(VA).preprocess_function_gen)
for pred in ["Res.", "Et creix un arbre a la panxa", "", "Les digereixes sense problema"]:
    V.process_results(VA, "process_results_gen", pg[0], [pred], tol=1e-12, note="BLEU's exp and log")
V.write(OUT)
