#!/usr/bin/env python3
"""Vectors of lm_eval/tasks/evalita_llm's helpers (see ports/internal/vectest/vecgen.py).

usage (from the repository root; the real packages, make parity's venv):
  build/parity/venv/bin/python scripts/parity/realgen_all.py evalita_llm
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "internal", "vectest"))
import vecgen  # noqa: E402

V = vecgen.Vectors()
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "vectors.json")
U, M, S = "evalita_llm/utils.py", "evalita_llm/metrics.py", "evalita_llm/sum_utils.py"
SK = dict(note="sklearn >= 1.3's F1 is 2tp/(2tp+fp+fn), as lmeval's (sklearn 1.2 computed 2PR/(P+R))")
for o, n in [("1", "0"), ("0", "1"), ("0", "0"), ("1", "1"), ("2", "0")]:
    V.doc(U, "sa_doc_to_target", {"text": "t", "opos": o, "oneg": n})
    V.doc(U, "sa_doc_to_target_v2", {"text": "t", "opos": o, "oneg": n})
V.doc(U, "sa_doc_to_choice", {"text": "t"})
for a in ["A", "B", "C", "D"]:
    V.doc(U, "faq_doc_to_target", {"correct_answer": a})
V.doc(U, "faq_doc_to_target", {"correct_answer": "E"})
# multiple_choice f1 items are (gold, pred)
for items in [[[0, 0], [1, 1], [2, 2], [3, 3]], [[0, 1], [1, 0], [2, 2], [3, 0], [0, 0], [2, 3]], [[2, 2], [2, 2]],
              [[0, 0], [0, 0]], [[1, 3], [3, 1], [0, 2]]]:
    V.aggregation(M, "_aggreg_sa", items, **SK)
ls_docs = [{"id": "1", "context": "c", "answers": [{"word": "casa", "count": 3}, {"word": "abitazione", "count": 2}, {"word": "dimora", "count": 1}]},
           {"id": "2", "context": "c", "answers": []}]
for d in ls_docs:
    V.doc(U, "ls_doc_to_target", d)
for pred in ["casa, dimora, tetto", "\"casa, abitazione\", villa", "abitazione\ncasa", "", "casa, dimora!", " casa ,casa", "villa"]:
    for d in ls_docs:
        V.process_results(U, "ls_process_results", d, [pred])
V.aggregation(M, "_aggreg_ls", [[0.5, 1, 1], [0, 0, 1], [1.0, 1, 1], [0, 1, 0]])
V.aggregation(M, "_aggreg_ls", [[0, 0, 0]])
V.aggregation(M, "_aggreg_ls", [[0.25, 0, 0], [0.5, 0, 0]])
ner_docs = [{"text": "t", "entities": [{"entity_text": "Mario Rossi", "type": "PER"}, {"entity_text": "Roma", "type": "LOC"}]},
            {"text": "t", "entities": []},
            {"text": "t", "entities": [{"entity_text": "FIAT", "type": "ORG"}]}]
for d in ner_docs:
    V.doc(U, "ner_doc_to_target", d)
    for pred in ["Mario Rossi$PER,Roma$loc", "Roma$LOC", "&&NOENT&&", "", "FIAT$ORG, Torino$LOC, Mario Rossi$PER",
                 "Mario Rossi", " $PER,Roma$LOC$X"]:
        V.process_results(U, "ner_process_results", d, [pred])
V.aggregation(M, "_aggreg_ner", [[[0, 1], [0, 1]], [[3], [3]], [[2, 2], [0, 3]], [[3, 3], [1, 2]]], **SK)
V.aggregation(M, "_aggreg_ner", [[[3], [3]]], **SK)
re_docs = [{"text": "t", "relations": [["pressione", "alta"], ["febbre", "38"]]}, {"text": "t", "relations": []}]
for d in re_docs:
    V.doc(U, "re_doc_to_target", d)
    for pred in ["pressione$alta%febbre$38", "febbre $ 38 % pressione$bassa % tosse$si", "&&NOREL&&", "", "pressione$alta%pressione$alta%x$y",
                 "DELETED$DELETED%a$b%c$d"]:
        V.process_results(U, "rel_process_results_v3", d, [pred])
V.aggregation(M, "_aggreg_rel", [[[1, 0], [1, 1]], [[0], [0]], [[1, 1, 1], [1, 0, 0]]], **SK)
for d, pred in [({"source": "s", "target": "Il governo ha approvato la legge"}, "approvato la legge"),
                ({"summary": "Una frase breve.", "text": "t"}, "frase breve e lunga"), ({"summary": "x"}, "")]:
    V.process_results(S, "process_results_sum", d, [pred])
V.write(OUT)
