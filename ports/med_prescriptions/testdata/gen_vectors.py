#!/usr/bin/env python3
"""Reference vectors for ports/med_prescriptions from lm-eval's own helpers.

  PYTHONPATH=/work/shared/lm-eval-runner/stubs:/tmp/lmevalref/src \\
    /usr/bin/python3 ports/med_prescriptions/testdata/gen_vectors.py
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "../../internal/vectest"))
from vecreplay import DS, add, call, load, write  # noqa: E402,F401

F = "med_prescriptions/med_prescriptions_utils.py"
import json  # noqa: E402
import random  # noqa: E402

from lm_eval.api.utils import random_task_id  # noqa: E402

F = "med_prescriptions/utils.py"
u = load(F)
docs = [json.loads(l) for l in open(os.path.join(HERE, "../../../fidelity/testdata/med_prescriptions/data/train.jsonl"))]
extra = [
    {"procedure": {"diagnosis": "Asthma", "chief_complaints": "Wheezing"}, "medicine_details": "text"},
    {"prescription_details": {"disease_diagnosis": ["a", "list"]}, "medicine_details": [{"medicine_name": 5, "medicine_frequency": "Daily", "course_duration": "NA days"}]},
    {"Symptoms/Complaints": ["Cough"], "medicine_details": [{"medicine_name": "Benadryl", "medicine_frequency": "Thrice", "course_duration": "5 days na"},
                                                           {"only": "one key"}, {"medicine_name": "Y", "medicine_frequency": "bd", "course_duration": 7}]},
    {"other": 1},
]
docs += [{"file_name": f"x{i}.jpg", "results": repr(r)} for i, r in enumerate(extra)]


def replay(kept, text, choice):
    text(kept[0])
    choice(kept[0])
    for _ in range(3):
        random_task_id()
    texts, choices = [], []
    for d in kept:
        texts.append(text(d))
        choice(d)
        choices.append(choice(d))
    return texts, choices


runs = []
for seed in [0, 1234, 7]:
    for variant in ["easy", "hard"]:
        random.seed(seed)
        kept = list(u.process_docs(DS([dict(d) for d in docs])))
        texts, choices = replay(kept, getattr(u, "doc_to_text_" + variant), getattr(u, "doc_to_choice_" + variant))
        runs.append({"seed": seed, "variant": variant, "docs": docs, "kept": kept, "texts": texts, "choices": choices})
bad = [{"file_name": "b.jpg", "results": repr(r)} for r in [
    {"Medicines Prescribed": [{"Name": "Z", "Other": "x"}]},
    {"procedure": "chief_complaints_diagnosis in a str", "medicine_details": [{"medicine_name": "X", "medicine_dosage": "Once"}]},
    {"procedure": {"chief_complaints_diagnosis": "x"}, "medicine_details": [{"medicine_name": "X", "medicine_dosage": 5}]},
]]
for b in bad:
    try:
        u.process_docs(DS([b]))
        raise SystemExit(f"expected an error: {b}")
    except (UnboundLocalError, TypeError, AttributeError):
        pass
with open(os.path.join(HERE, "replay.json"), "w", encoding="utf-8") as f:
    json.dump({"runs": runs, "error_docs": bad}, f, ensure_ascii=False, indent=0)
print(f"replay.json: {len(runs)} runs", file=sys.stderr)
