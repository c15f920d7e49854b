#!/usr/bin/env python3
"""Vectors of lm_eval/tasks/noreval's helpers (see ports/internal/vectest/vecgen.py).

usage: PYTHONPATH=/work/shared/lm-eval-runner/stubs:/tmp/lmevalref/src \
  /usr/bin/python3 ports/noreval/testdata/gen_vectors.py /work/shared/lm-eval/lm_eval/tasks
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "internal", "vectest"))
import vecgen  # noqa: E402

V = vecgen.Vectors()
TQ = "noreval/nortruthfulqa/multiple_choice/%s/utils.py"
NRK = "noreval/nrk_quiz_qa/%s/utils.py"
tq_docs = [
    {"question": "Kva skjer om du et frø?", "mc1_targets": {"choices": ["Ingenting.", "Du døyr."], "labels": [1, 0]},
     "mc2_targets": {"choices": ["a"], "labels": [1]}},
    {"question": "Q?", "mc1_targets": {"choices": [], "labels": []}},
    {"question": 42, "mc1_targets": {"choices": [1, None, "x"], "labels": [1, 0, 0]}},
]
nrk_docs = [
    {"question": "Kven skreiv Peer Gynt?", "choices": {"label": ["A", "B", "C", "D"], "text": ["Ibsen", "Bjørnson", "Hamsun", "Undset"]}, "answer": "A"},
    {"question": "Ja eller nei?", "choices": {"label": ["A", "B"], "text": ["Ja", "Nei"]}, "answer": "B"},
    {"question": "Éin?", "choices": {"label": ["A"], "text": ["Berre"]}, "answer": "A"},
    {"question": "Tom?", "choices": {"label": [], "text": []}, "answer": "A"},
]
for lang in ["nb", "nn"]:
    d = {"nb": "nob", "nn": "nno"}[lang]
    for i in range(5):
        for doc in tq_docs:
            V.doc(TQ % d, f"p{i}_{lang}", doc)
        if i > 0:
            for doc in nrk_docs:
                V.doc(NRK % d, f"p{i}_{lang}", doc)

NQ = "noreval/norquad/utils.py"
nq = [{"id": "1", "context": "  Oslo\nOslo er hovudstaden.\n\nDen ligg i aust.  \n", "question": "  Kva er\n hovudstaden  i Noreg? ",
       "answers": {"answer_start": [0], "text": ["Oslo"]}},
      {"id": "2", "context": "Berre ein tittel", "question": "q", "answers": {"answer_start": [], "text": ["Bergen"]}}]
V.process_docs(NQ, "process_docs", nq)
for i in range(5):
    V.doc(NQ, f"p{i}", {"title": "Oslo", "passage": "Oslo er hovudstaden.", "question": "Kva er hovudstaden?"})
for pred in ["Oslo", "oslo.", "Byen Oslo", "", "the Oslo"]:
    V.process_results(NQ, "process_results", nq[0], [pred])

# norec/utils.py calls sklearn.metrics after a bare `import sklearn`, which
# works once something has imported sklearn.metrics (lm-eval's own f1
# aggregations do, lazily).
import sklearn.metrics  # noqa: E402,F401

V.aggregation("noreval/norec/utils.py", "multi_f1", [[0, 0], [1, 0], [1, 1], [0, 1], [1, 1], [0, 0], [0, 0]], pairs=True, tol=1e-12)
V.aggregation("noreval/norec/utils.py", "multi_f1", [[1, 1], [1, 1]], pairs=True, tol=1e-12)
V.aggregation("noreval/norec/utils.py", "multi_f1", [[2, 0], [1, 2], [0, 1], [2, 2]], pairs=True, tol=1e-12)

V.process_docs("noreval/noropenbookqa/utils.py", "filter_dataset",
               [{"id": "a", "fact": "Sola er ei stjerne."}, {"id": "b", "fact": ""}, {"id": "c", "fact": "x"}])

ID = "noreval/noridiom/utils.py"
idioms = [{"idiom_start": "Å ha en finger", "accepted_completions": ["med i spillet", "i spillet!"], "language": "nob"},
          {"idiom_start": "Det er ikkje", "accepted_completions": ["gull alt som glim"], "language": "nno"}]
V.process_docs(ID, "filter_dataset_nb", idioms)
V.process_docs(ID, "filter_dataset_nn", idioms)
for pred in ["med i spillet.", "Med i Spillet", "i spillet", "noe annet", "", "  !!  "]:
    V.process_results(ID, "process_results", idioms[0], [pred])
V.process_results(ID, "process_results", {"accepted_completions": ["..."]}, [""], note="both empty")
V.process_results(ID, "process_results", {"accepted_completions": []}, ["x"], note="zero-size nanmax")

G = "noreval/nortruthfulqa/generation/utils.py"
gen = [{"question": "  Kva skjer om du et frø?  ", "best_answer": "Ingenting", "correct_answers": [" Ingenting skjer ", "Frøa går gjennom.", ""],
        "incorrect_answers": ["Du døyr", "Det veks eit tre i magen"]},
       {"question": "Q", "best_answer": "x", "correct_answers": [], "incorrect_answers": ["a."]}]
V.process_docs(G, "process_docs", gen)
pg = vecgen.DS(gen).map(vecgen.load(G).preprocess_function)
for pred in ["Ingenting skjer.", "Du døyr av det", "Det veks eit tre", "", "the seeds pass through your digestive system"]:
    V.process_results(G, "process_results", pg[0], [pred])

V.write(os.path.join(os.path.dirname(os.path.abspath(__file__)), "vectors.json"))
