#!/usr/bin/env python3
"""Reference vectors for ports/wmt2016 from lm-eval's own helpers.

usage (from the repository root; the real packages, make parity's venv):
  EVALUATE_GIT=<bare clone of huggingface/evaluate> NMT_GIT=<bare clone of tensorflow/nmt> \\
    build/parity/venv/bin/python scripts/parity/realgen_all.py wmt2016

lm-eval's metrics.py aggregates with evaluate.load("bleu"): evaluate's
metrics/bleu/bleu.py, which downloads tensorflow/nmt's nmt/scripts/bleu.py
as nmt_bleu.py (both served from the local clones: GitHub and the Hub are
unreachable here).
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "../../internal/vectest"))
from vecreplay import DS, add, call, load, write  # noqa: E402,F401

F = "wmt2016/metrics.py"
m = load(F)
pairs = [
    ("Acesta este un test.", "Acesta este un test."),
    ("Guvernul a anunțat noi măsuri economice.", "Guvernul a anunțat ieri noi măsuri economice pentru IMM-uri."),
    ("Nu știu.", "Comisia Europeană a propus o nouă directivă privind protecția datelor."),
    ("Prețul a crescut cu 3,5% în 2015, potrivit INS.", "Prețul a crescut cu 3,5 % în anul 2015, potrivit datelor INS."),
    ("", "O propoziție de referință."),
    ("Lista: A-B, C-D; &quot;citat&quot; &amp; <skipped> restul.", "Lista: A-B, C-D; \"citat\" & restul."),
    ("un doi trei patru cinci șase", "un doi trei patru cinci șase șapte opt"),
    ("one-two 3-4 5.6 7,8", "one-two 3-4 5.6 7,8"),
]
for p, r in pairs:
    call(F, "bleu", "metric", m.bleu, {"references": [r], "predictions": [p], "kwargs": {}}, [p], [r])
# pairs[4:5] has no prediction words, the last no reference words: nmt_bleu's
# brevity penalty divides by both lengths.
subsets = [pairs, pairs[:1], pairs[1:4], pairs[2:3], pairs[4:5], pairs[5:], pairs[:6], [("Ceva nou.", "")]]
for s in subsets:
    items = [m.bleu([p], [r]) for p, r in s]
    call(F, "agg_bleu", "aggregate", m.agg_bleu,
         {"metric_fn": F + ":bleu", "items": [{"references": [r], "predictions": [p]} for p, r in s]}, items, tol=1e-12)
write(os.path.join(HERE, "vectors.json"))
