#!/usr/bin/env python3
"""Vectors for the native ports of lm-eval's Python class tasks
(ports/scrolls, ports/internal/based, ports/squadv2) from lm-eval's own
classes.

usage (from the repository root; the real packages, make parity's venv
with a transformers 4 for scrolls/task.py's squad_metrics):
  build/parity/venv/bin/python scripts/parity/realgen_all.py ports_classes
or, over the stand-ins (Debian's Python):
  PYTHONPATH=../shared/lm-eval-runner/stubs:/tmp/lmevalref/src \
    /usr/bin/python3 ports/testdata/gen_class_vectors.py ../shared/lm-eval/lm_eval/tasks

writes ports/scrolls/testdata/vectors.json, ports/internal/based/testdata/
vectors.json and ports/squadv2/testdata/vectors.json.

The classes' methods run on instances made without __init__ (which would
download datasets and metrics): _drop_duplicates_in_input, _process_doc,
doc_to_text, doc_to_target, construct_requests and process_results on
documents and answers chosen for their edge cases (no blank line in the
input, no "(D)", ties and NaN in argmax, yes/no tuples, empty choices).
fidelity/pystubs stands in for evaluate, transformers and huggingface_hub,
which scrolls/task.py imports, where they are missing. The SCROLLS metric
is always its stand-in (fidelity/pystubs/evaluate): lm-eval downloads the
script from the Hub (tau/scrolls, refs/pr/5), unreachable here.
"""
import importlib.util
import json
import math
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "fidelity", "pystubs"))

import lmevalref_compat  # noqa: E402,F401
import datasets  # noqa: E402
import datasets_ext  # noqa: E402,F401
import evaluate  # noqa: E402

_spec = importlib.util.spec_from_file_location("evaluate_standin", os.path.join(ROOT, "fidelity", "pystubs", "evaluate",
                                                                                "__init__.py"))
evaluate_standin = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(evaluate_standin)

from lm_eval.api.instance import Instance  # noqa: E402

TASKS = sys.argv[1]


def load(rel):
    spec = importlib.util.spec_from_file_location(rel.replace("/", "_")[:-3], f"{TASKS}/{rel}")
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


def clean(v):
    """JSON-safe: tuples as lists, NaN/inf as strings."""
    if isinstance(v, float) and (math.isnan(v) or math.isinf(v)):
        return repr(v)
    if isinstance(v, (list, tuple)):
        return [clean(x) for x in v]
    if isinstance(v, dict):
        return {k: clean(x) for k, x in v.items()}
    if hasattr(v, "item"):
        return clean(v.item())
    return v


def call(fn, *args):
    try:
        return {"output": clean(fn(*args))}
    except Exception as e:  # noqa: BLE001
        return {"error": type(e).__name__}


out = {"dedupe": [], "process_doc": [], "prompt": [], "requests": [], "process_results": [], "aggregate": [],
       "contains": [], "squadv2": []}

scrolls = load("scrolls/task.py")
inst = {n: getattr(scrolls, n).__new__(getattr(scrolls, n)) for n in
        ["Qasper", "QuALITY", "NarrativeQA", "ContractNLI", "GovReport", "SummScreenFD", "QMSum"]}

rows = [{"id": "a", "pid": "a0", "input": "x", "output": "o1"}, {"id": "b", "pid": "b0", "input": "y", "output": "o2"},
        {"id": "a", "pid": "a1", "input": "x", "output": "o3"}, {"id": "3", "pid": "c0", "input": "z", "output": ""}]
ds = scrolls._drop_duplicates_in_input(datasets.Dataset.from_list(rows))
out["dedupe"].append({"input": rows, "output": ds.to_list(), "columns": ds.column_names})

raw = [
    {"id": "1", "pid": "1", "input": "Q?\n\nText body", "outputs": ["Yes"]},
    {"id": "2", "pid": "2", "input": "no blank line é", "outputs": ["yes", "NO."]},
    {"id": "3", "pid": "3", "input": "\n\nonly text", "outputs": ["the yes"]},
    {"id": "4", "pid": "4", "input": "Q\n\n\n\nT", "outputs": []},
    {"id": "5", "pid": "5", "input": "é", "outputs": ["No!"]},
]
quality = [
    {"id": "q", "pid": "q", "outputs": ["Fifty   years"],
     "input": "How long?\n\n (A) Ten\n (B) Fifty years\n (C)  Many  \n (D) None\n\n\nThe story."},
    {"id": "q2", "pid": "q2", "outputs": ["c"], "input": "Q\n\n(A)a (B)b (C)c (D)d\n\nS"},
    {"id": "q3", "pid": "q3", "outputs": ["b"], "input": "Q\n\n (A) a\n (B) b\n (C) c\n (D) d"},
    {"id": "q4", "pid": "q4", "outputs": ["a"], "input": "Q\n\nno choices here\n\nS"},
    {"id": "q5", "pid": "q5", "outputs": ["x"], "input": "Q\n\n (A) a\n (B) b\n (C) c\n (D) d\n\nS"},
]
contract = [
    {"id": "c", "pid": "c", "outputs": ["Entailment"], "input": "H\n\nContract"},
    {"id": "c2", "pid": "c2", "outputs": ["entailment"], "input": "H\n\nContract"},
]
for name, docs in [("Qasper", raw), ("NarrativeQA", raw), ("QMSum", raw[:2]), ("GovReport", raw[:2]),
                   ("QuALITY", quality), ("ContractNLI", contract)]:
    for d in docs:
        r = call(lambda x: inst[name]._process_doc(dict(x)), d)
        out["process_doc"].append({"class": name, "input": d, **r})
        if "output" in r:
            pd = r["output"][0]
            out["prompt"].append({"class": name, "doc": pd, "text": inst[name].doc_to_text(pd),
                                  "target": inst[name].doc_to_target(pd)})

for name, doc in [("Qasper", {"is_yes_no": True}), ("Qasper", {"is_yes_no": False}), ("GovReport", {}),
                  ("NarrativeQA", {}), ("QuALITY", {"choices": ["a", "b c"]})]:
    for chat in (False, True):
        reqs = inst[name].construct_requests(doc, "CTX", apply_chat_template=chat, metadata=("t", 0, 1))
        if not isinstance(reqs, list):
            reqs = [reqs]
        out["requests"].append({"class": name, "doc": doc, "chat": chat,
                                "output": [{"type": r.request_type, "idx": r.idx, "arguments": clean(r.arguments)}
                                           for r in reqs]})

nan = float("nan")
mc_cases = [
    ({"gold": 1, "choices": ["a", "bb", "ccc"]}, [(-3.0, False), (-2.0, True), (-4.5, False)]),
    ({"gold": 0, "choices": ["a", "bb", "ccc"]}, [(-2.0, False), (-2.0, True), (-6.0, False)]),
    ({"gold": 2, "choices": ["aaaa", "b", "é"]}, [(-8.0, False), (-3.0, False), (-2.5, False)]),
    ({"gold": 1, "choices": ["a", "", "c"]}, [(-1.0, False), (-5.0, False), (-1.5, False)]),
    ({"gold": 1, "choices": ["a", "", "c"]}, [(-1.0, False), (0.0, False), (-1.5, False)]),
]
for doc, res in mc_cases:
    out["process_results"].append({"class": "QuALITY", "doc": doc, "results": clean(res),
                                   **call(inst["QuALITY"].process_results, doc, res)})
qasper_cases = [
    ({"is_yes_no": True, "outputs": ["yes"]}, [(-1.0, False), (-2.0, False)]),
    ({"is_yes_no": True, "outputs": ["yes"]}, [(-1.0, True), (-1.0, False)]),
    ({"is_yes_no": True, "outputs": ["yes"]}, [(-1.0, False), (-1.0, True)]),
    ({"is_yes_no": True, "outputs": ["yes"]}, [(-1.0, True), (-1.0, True)]),
    ({"is_yes_no": False, "outputs": ["a", "b"]}, [" \n\t"]),
    ({"is_yes_no": False, "outputs": ["a", "b"]}, [" answer"]),
]
for doc, res in qasper_cases:
    out["process_results"].append({"class": "Qasper", "doc": doc, "results": clean(res),
                                   **call(inst["Qasper"].process_results, doc, res)})
for name in ["GovReport", "NarrativeQA"]:
    doc = {"outputs": ["ref one", "ref two"]}
    out["process_results"].append({"class": name, "doc": doc, "results": [" pred"],
                                   **call(inst[name].process_results, doc, [" pred"])})

# The SCROLLS metric (the fidelity stand-in) over pairs reaching its branches.
pairs = [
    (" The cat sat on the mat.", ["A cat sat on a mat", "the dog"]),
    ("", ["nothing here"]),
    ("Unanswerable", ["Unanswerable", "no"]),
    ("İstanbul's 2 KELVIN K", ["istanbul s 2 kelvin k", "x"]),
    (" a an the", ["the"]),
    ("repeat repeat repeat", ["repeat"]),
]
for cfg, keys in [("qasper", ["f1"]), ("gov_report", ["rouge/rouge1", "rouge/rouge2", "rouge/rougeL", "rouge/geometric_mean"])]:
    for n in (1, 3, len(pairs)):
        sub = pairs[:n]
        m = evaluate_standin.load("scrolls.py", config_name=cfg).compute(predictions=[p for p, _ in sub], references=[r for _, r in sub])
        out["aggregate"].append({"config": cfg, "pairs": sub, "output": {k: m[k] for k in keys}})

based = load("fda/task.py")
for pred, label in [("Acme Corp.", "acme corp"), ("x", "a.c"), ("abc", "a.c"), ("(1+1)", "(1+1)"), ("KELVIN", "kelvin"),
                    ("straße", "STRASSE"), ("", ""), ("aa", ""), ("İ", "i"), ("ſ", "S"), ("k", "K"), ("ı", "I"), ("I", "ı"), ("İ", "I"),
                    ("ΣΟΦΟΣ", "σοφος"), ("σοφος", "ΣΟΦΟΣ"), ("µ", "Μ"), ("ϐ", "Β"), ("ǅ", "ǆ"), ("Ǆ", "ǅ"),
                    ("ẞ", "ß"), ("ﬅ", "ﬆ"), ("The Value: A.B*", "value: a.b*"), ("no match", "mat ch")]:
    out["contains"].append({"prediction": pred, "label": label, "output": based.contains_score(pred, [label])})

sq = load("squadv2/task.py")
S = sq.SQuAD2.__new__(sq.SQuAD2)
sq_docs = [
    {"id": "i1", "title": "T", "context": "C", "question": "Q?", "answers": {"text": ["A1", "A2"], "answer_start": [0, 3]}},
    {"id": "i2", "title": "T", "context": "C", "question": "Q2?", "answers": {"text": [], "answer_start": []}},
]
for d in sq_docs:
    reqs = S.construct_requests(d, "CTX", metadata=("t", 0, 1))
    out["squadv2"].append({"doc": d, "text": S.doc_to_text(d), "target": S.doc_to_target(d),
                           "requests": [{"type": r.request_type, "idx": r.idx, "arguments": clean(r.arguments)} for r in reqs],
                           "process_results": clean(S.process_results(d, [" A1", (-0.5, False)])["exact"])})
# evaluate's squad_v2 (the real metric script under scripts/parity/realgen.py,
# else the fidelity stand-in) on cases for thresholds and ties.
sv = evaluate.load("squad_v2")
corp = [
    [("a", "France", 0.2, ["France"]), ("b", "", 0.9, []), ("c", "x", 0.2, []), ("d", "the", 0.5, ["The", "a"])],
    [("a", "Paris", 0.1, ["France"]), ("b", "Paris", 0.1, [])],
    [("a", "y", 0.30000001, ["y"]), ("b", "", 0.3, []), ("c", "z", 0.30000002, ["q"]), ("a", "y2", 0.4, ["y2"])],
    [("only", "no", 1.0, [])],
]
for c in corp:
    preds = [{"id": i, "prediction_text": t, "no_answer_probability": p} for i, t, p, _ in c]
    refs = [{"id": i, "answers": {"text": a, "answer_start": [0] * len(a)}} for i, _, _, a in c]
    out["squadv2"].append({"corpus": [list(x) for x in c], "output": sv.compute(predictions=preds, references=refs)})

def write(rel, obj):
    path = os.path.join(ROOT, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(obj, f, indent=1, ensure_ascii=False)
        f.write("\n")


write("ports/scrolls/testdata/vectors.json", {k: out[k] for k in
      ["dedupe", "process_doc", "prompt", "requests", "process_results", "aggregate"]})
write("ports/internal/based/testdata/vectors.json", {"contains": out["contains"]})
write("ports/squadv2/testdata/vectors.json", {"squadv2": out["squadv2"]})
