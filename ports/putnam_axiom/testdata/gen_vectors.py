#!/usr/bin/env python3
"""Vectors for ports/putnam_axiom from lm-eval's own putnam_axiom/utils.py.

sympy's parse_latex does not run on this machine's antlr4 runtime (4.9),
so is_equiv (minerva_math's, checked in ports/internal/sympylatex) is left
out: the vectors hold the prompt, process_docs, process_variations, the
few-shot samples, and the answer process_results compares (ground_truth_boxed_answer,
or get_generated_answer where that raises).

usage (from the repository root; the real packages, make parity's venv):
  build/parity/venv/bin/python scripts/parity/realgen_all.py putnam_axiom

The documents keep the dataset's schema, one type per column as the real
datasets (Arrow) requires: `variation` is an integer; process_variations'
int() of a string column is checked on a dataset whose `variation` is
all strings.
"""
import importlib.metadata
import json
import os

import datasets
import vectest

_version = importlib.metadata.version
importlib.metadata.version = lambda name: "4.11" if name == "antlr4-python3-runtime" else _version(name)

V = vectest.Vectors("putnam_axiom/utils.py")
m = vectest.load("putnam_axiom/utils.py")
docs = [
    {"problem": "Find x.", "solution": "Thus $x = \\boxed{12}^\\circ$.", "variation": 1, "year": 2000},
    {"problem": "P2", "solution": "so \\boxed{\\frac{1}{n}\\binom{2n-2}{n-1}}.", "variation": 1, "year": 2001},
    {"problem": "P3", "solution": "answer \\boxed 198$ ok", "variation": 2, "year": 2002},
    {"problem": "P4", "solution": "\\boxed{1,000 units}", "variation": 1, "year": 2003},
]
strvar = [dict(d, variation=v) for d, v in zip(docs, ["1", " 2", "01", "1 "])]
V.call("doc_to_text", "doc", docs[0], m.doc_to_text, docs[0])
V.call("process_docs", "process_docs", docs, lambda: list(m.process_docs(datasets.Dataset.from_list(docs))))
V.call("process_variations", "process_docs", docs, lambda: list(m.process_variations(datasets.Dataset.from_list(docs))))
V.call("process_variations", "process_docs", strvar, lambda: list(m.process_variations(datasets.Dataset.from_list(strvar))))
nobox = [{"problem": "p", "solution": "no box", "variation": 1}]
V.call("process_docs", "process_docs", nobox, lambda: list(m.process_docs(datasets.Dataset.from_list(nobox))))
V.call("list_fewshot_samples", "samples", None, m.list_fewshot_samples)
V.write(vectest.out_path(__file__))


def answer(c):
    try:
        return m.ground_truth_boxed_answer(c)
    except Exception:  # noqa: BLE001  (process_results' own fallback)
        return m.get_generated_answer(c)


outs = ["Final Answer: The final answer is $\\boxed{12}$. I hope it is correct.", "The answer is: 42. I hope it is correct.",
        "Final Answer: The final answer is $x = 5$. I hope it is correct.", "The answer is: \\frac12", "nothing here",
        "\\boxed{\\text{7 ways}}", "\\boxed 3$", "\\boxed{1", "Final Answer: The final answer is 100,000 dollars.",
        "The answer is: $\\sqrt2$ I hope it is correct.", "\\fbox{9}", ""]
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "answers.json"), "w") as f:
    json.dump([[o, answer(o)] for o in outs], f, ensure_ascii=False, indent=0)
    f.write("\n")
