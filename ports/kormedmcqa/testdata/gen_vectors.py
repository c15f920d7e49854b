#!/usr/bin/env python3
"""Vectors for ports/kormedmcqa from lm-eval's own helpers (how to run:
ports/internal/vectest/pyvec.py)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "../../internal/vectest"))
import pyvec  # noqa: E402

resps = [
    ["정답: B", "정답은 C 입니다", "답은 D. 입니다", "e", "A와 B 중 b", "없음", ""],
    ["정답:   e 그리고 정답: a", "정답은C입니다 그리고 d.", "보기 A. 와 c.", "XA. YB", "Ab c"],
    ["정답 D", "ABCDE", "옵션 A입니다", "(B)", "답: c\n설명"],
]
rel = "kormedmcqa/utils.py"
m = pyvec.load(rel)
f = m.ExtractChoiceFilter()
docs = [{"question": "q"}] * len(resps)
pyvec.add(rel, "ExtractChoiceFilter", "filter", {"docs": docs, "resps": resps}, f.apply(resps, docs))
pyvec.dump(os.path.join(os.path.dirname(__file__), "vectors.json"))
