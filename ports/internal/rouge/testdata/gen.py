#!/usr/bin/env python3
"""evaluate.load("rouge").compute(...)["rouge1"] after np.random.seed(seed),
and rouge_score's tokenize (no stemmer), from the real evaluate, its rouge
metric script and rouge_score (make parity's venv):

  build/parity/venv/bin/python scripts/parity/realgen_all.py rouge

(first made over the models in ../../vectest/pystubs and fidelity/pystubs:
/usr/bin/python3 ports/internal/rouge/testdata/gen.py > ports/internal/rouge/testdata/vectors.json)"""
import json
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "vectest", "pystubs"))
import numpy as np  # noqa: E402
import evaluate  # noqa: E402
from rouge_score import tokenize  # noqa: E402

words = ["el", "gat", "menja", "peix", "la", "casa", "és", "gran", "Àvila", "niño", "1990", "the", "cat", "x-y", "C'est", "été"]
rnd = random.Random(7)
cases = [(["El gat menja peix."], ["el gat menja"]), (["a b c"], [""]), (["Ça été"], ["ca ete"]),
         (["the cat sat", "on the mat"], ["the cat", "mat on the"])]
for n in [3, 8, 25, 60]:
    refs = [" ".join(rnd.choice(words) for _ in range(rnd.randint(0, 12))) for _ in range(n)]
    preds = [" ".join(rnd.choice(words) for _ in range(rnd.randint(0, 12))) for _ in range(n)]
    cases.append((refs, preds))
out = {"tokenize": [], "rouge1": []}
for t in ["Hello, World! 1990s", "ÀÉÎ çà x_y", "  a\tb\nc  ", "", "İstanbul ﬁ"]:
    out["tokenize"].append({"text": t, "tokens": tokenize.tokenize(t, None)})
for refs, preds in cases:
    for seed in [1234, 0, 42]:
        np.random.seed(seed)
        r1 = evaluate.load("rouge").compute(predictions=preds, references=refs)["rouge1"]
        out["rouge1"].append({"refs": refs, "preds": preds, "seed": seed, "rouge1": float(r1)})
print(json.dumps(out, ensure_ascii=False))
