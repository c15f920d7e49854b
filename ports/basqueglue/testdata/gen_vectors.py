#!/usr/bin/env python3
"""Vectors of lm_eval/tasks/basqueglue's helpers (see ports/internal/vectest/vecgen.py).

usage: PYTHONPATH=/work/shared/lm-eval-runner/stubs:/tmp/lmevalref/src \
  /usr/bin/python3 ports/basqueglue/testdata/gen_vectors.py /work/shared/lm-eval/lm_eval/tasks
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "internal", "vectest"))
import vecgen  # noqa: E402

V = vecgen.Vectors()
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "vectors.json")
import datasets  # noqa: E402  (the runner's stub lacks load_metric, which utils.py imports)

import sklearn.metrics  # noqa: E402


class _F1:
    """evaluate's (and datasets') "f1" metric: sklearn's f1_score."""

    def compute(self, predictions, references, labels=None, pos_label=1, average="binary", sample_weight=None):
        score = sklearn.metrics.f1_score(references, predictions, labels=labels, pos_label=pos_label,
                                         average=average, sample_weight=sample_weight)
        return {"f1": float(score) if score.size == 1 else score}


datasets.load_metric = lambda name, *a, **k: _F1()
F = "basqueglue/utils.py"
moj = "Kaixo ".encode("utf-8").decode("latin-1") + "Ã±"
V.process_docs(F, "process_wic_docs", [
    {"sentence1": "Etxea ( handia ) da , ez ?", "sentence2": "Ez &amp; bai &lt;3 \" zita \" .", "word": "etxe", "label": 1},
    {"sentence1": "[ kaixo ] eta ' bai '", "sentence2": "Ã¡rbola &#225;", "word": "x", "label": 0}])
V.process_docs(F, "process_wic_docs", [{"sentence1": "ñ€", "sentence2": "a", "word": "x", "label": 0}], note="UnicodeEncodeError")
V.process_docs(F, "process_wic_docs", [{"sentence1": "é", "sentence2": "a", "word": "x", "label": 0}], note="UnicodeDecodeError")
for d in [{"text": "Jonek esan zuen bera etorriko zela .", "span1_index": 0, "span1_text": "Jonek", "span2_index": 4, "span2_text": "bera", "label": 1},
          {"text": "Gizon zaharra ( berak ) ikusi zuen", "span1_index": 0, "span1_text": "Gizon zaharra", "span2_index": 4, "span2_text": "berak", "label": 0},
          {"text": "a b c", "span1_index": 2, "span1_text": "c", "span2_index": 0, "span2_text": "c", "label": 0},
          {"text": "a b", "span1_index": 5, "span1_text": "x", "span2_index": 1, "span2_text": "a", "label": 0}]:
    V.doc(F, "coref_doc_to_text", d)
V.aggregation(F, "vaxx_f1_score", [[0, 0], [1, 1], [2, 2], [2, 0], [0, 2], [1, 2], [2, 2]], tol=1e-12)
V.aggregation(F, "vaxx_f1_score", [[1, 1], [1, 1]], tol=1e-12)
V.write(OUT)
