"""Shared helpers of the fidelity case builders (fidelity/build/*.py).

Each builder writes fidelity/testdata/<family>/data/*.jsonl (documents in
the real dataset's schema, written here by hand) and cases.json. Then
fidelity/gen.py runs the real lm-eval over them for the expected outputs.
"""
import json
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TESTDATA = os.path.join(ROOT, "fidelity", "testdata")
TASKS = os.path.join(os.path.dirname(ROOT), "shared", "lm-eval", "lm_eval", "tasks")
if not os.path.isdir(TASKS):
    TASKS = "/work/shared/lm-eval/lm_eval/tasks"


def write_jsonl(family, name, rows):
    d = os.path.join(TESTDATA, family, "data")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    return name


def write_cases(family, cases):
    d = os.path.join(TESTDATA, family)
    os.makedirs(d, exist_ok=True)
    for c in cases:
        for k in list(c):
            if c[k] is None:
                del c[k]
    with open(os.path.join(d, "cases.json"), "w", encoding="utf-8") as f:
        f.write("[\n")
        f.write(",\n".join(" " + json.dumps(c, ensure_ascii=False) for c in cases))
        f.write("\n]\n")
    print(f"{family}: {len(cases)} cases")


def case(task, include, data_files, num_fewshot=None, answers=None, yaml=None, alone=None, known_diff=None):
    return {"task": task, "include": include, "data_files": data_files, "num_fewshot": num_fewshot,
            "answers": answers, "yaml": yaml, "alone": alone, "known_diff": known_diff}
