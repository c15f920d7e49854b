#!/usr/bin/env python3
"""Vectors of lm_eval/tasks/french_bench's helpers (see ports/internal/vectest/vecgen.py).

usage: PYTHONPATH=/work/shared/lm-eval-runner/stubs:/tmp/lmevalref/src \
  /usr/bin/python3 ports/french_bench/testdata/gen_vectors.py /work/shared/lm-eval/lm_eval/tasks
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "internal", "vectest"))
import vecgen  # noqa: E402

V = vecgen.Vectors()
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "vectors.json")
from rougepairs import PAIRS  # noqa: E402

F = "french_bench/utils.py"
for gold, pred in [("La Tour Eiffel", "tour eiffel"), ("les Alpes", "Des Alpes!"), ("Paris", "Lyon"), ("", ""), ("un", "une"),
                   ("L'été", "l été"), ("Napoléon Bonaparte", "Bonaparte, Napoléon"), ("1789", "en 1789")]:
    V.metric(F, "exact", [gold], [pred])
    V.metric(F, "f1", [gold], [pred])
    V.metric(F, "is_included", [gold], [pred])
    V.metric(F, "rouge1", [gold], [pred])
V.aggregation(F, "rouge1_agg", PAIRS, seed=1234)
W = "french_bench/preprocess_wikitext.py"
para = " = Paris = \n Paris est la capitale @-@ et la plus grande ville ; 2 @,@ 1 millions d' habitants ( 2020 ) . \n"
V.doc(W, "wikitext_detokenizer", {"paragraph": para})
V.process_results(W, "process_results", {"paragraph": para}, [-123.5])
V.write(OUT)
