#!/usr/bin/env python3
"""Vectors of lm_eval/tasks/icelandic_winogrande's helpers (see ports/internal/vectest/vecgen.py).

usage: PYTHONPATH=/work/shared/lm-eval-runner/stubs:/tmp/lmevalref/src \
  /usr/bin/python3 ports/icelandic_winogrande/testdata/gen_vectors.py /work/shared/lm-eval/lm_eval/tasks
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "internal", "vectest"))
import vecgen  # noqa: E402

V = vecgen.Vectors()
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "vectors.json")
F = "icelandic_winogrande/preprocess_winogrande.py"
for s in ["Jón gaf Páli bókina af því að _ var búinn að lesa hana.", "Hún keypti _.", "Hún keypti _ .", "Ekkert eyða"]:
    V.doc(F, "doc_to_target", {"sentence": s, "option1": "a", "option2": "b", "answer": "1"})
V.write(OUT)
