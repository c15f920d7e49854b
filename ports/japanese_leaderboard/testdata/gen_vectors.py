#!/usr/bin/env python3
"""Vectors for ports/japanese_leaderboard from lm-eval's own helpers.

usage (from the repository root; the real packages, make parity's venv):
  build/parity/venv/bin/python scripts/parity/realgen_all.py japanese_leaderboard

The documents keep the datasets' schemas, one type per column as the real
datasets (Arrow) requires: JCommonsenseQA's choices are strings,
xwinograd-ja's answer is a string ("1" or "2").
"""
import datasets
import vectest

D = "japanese_leaderboard/"
V = vectest.Vectors(D + "ja_leaderboard_mgsm.py")
m = vectest.load(D + "ja_leaderboard_jcommonsenseqa.py")
docs = [{"q_id": 1, "question": "q", **{f"choice{i}": f"c{i}" for i in range(5)}, "label": 2},
        {"q_id": 2, "question": "q2", **{f"choice{i}": f" {i} " for i in range(5)}, "label": 0}]
V.call("process_docs", "process_docs", docs, lambda: list(m.process_docs(datasets.Dataset.from_list(docs))), file=D + "ja_leaderboard_jcommonsenseqa.py")
m = vectest.load(D + "ja_leaderboard_xwinograd.py")
docs = [{"sentence1": " 太郎は ", "sentence2": "花子は\n", "answer": "1"}, {"sentence1": "a", "sentence2": "b", "answer": "2"},
        {"sentence1": "a", "sentence2": "b", "answer": " 2 "}]
V.call("process_docs", "process_docs", docs, lambda: list(m.process_docs(datasets.Dataset.from_list(docs))), file=D + "ja_leaderboard_xwinograd.py")
bad = [{"sentence1": "a", "sentence2": "b", "answer": "x"}]
V.call("process_docs", "process_docs", bad, lambda: list(m.process_docs(datasets.Dataset.from_list(bad))), file=D + "ja_leaderboard_xwinograd.py")
m = vectest.load(D + "ja_leaderboard_mgsm.py")
for c, a in [("答えは 42 です", 42), ("1,234.0 円", 1234), ("3.5", 3), ("no number", 0), ("-7.", -7), ("...", 0), ("1.2.3", 1),
             ("12 and then 13", 12), ("合計は12,000", 12000), ("x 0.0", 0), ("5", 5.0)]:
    d = {"question": "q", "answer_number": a}
    V.call("process_results", "process_results", {"doc": d, "results": [c]}, m.process_results, d, [c])
V.write(vectest.out_path(__file__))
