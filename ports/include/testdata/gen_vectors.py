#!/usr/bin/env python3
"""Vectors for ports/include from lm-eval's own utils.py (see
ports/internal/vectest/pyvec.py for how to run it)."""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "../../internal/vectest"))
import pyvec  # noqa: E402

docs = [
    {"language": "German", "country": "Germany", "domain": d, "subject": "s", "regional_feature": "region explicit",
     "level": "University", "question": f"Q {i}?", "option_a": "a", "option_b": "b", "option_c": "c", "option_d": "d", "answer": i % 4}
    for i, d in enumerate(["STEM", "Social Science", "Driving License", "STEM", "stem", "Arts & Humanities",
                           "General knowledge", "Marine License", None, "Business & Commerce", "Applied Science",
                           "Health oriented education", "Medical License", "Professional certification", "STEM "])
]
# Every file whose YAML names a function, once per language directory kind.
for rel in ["include/default/German/utils.py", "include/few_shot_en/Greek/utils.py",
            "include/few_shot_og/North Macedonian/utils.py", "include/default/Malayalam/utils.py"]:
    m = pyvec.load(rel)
    d = os.path.join(pyvec.TASKS, os.path.dirname(rel))
    named = set()
    for f in os.listdir(d):
        if f.endswith(".yaml") or f.endswith("_yaml"):
            named |= set(re.findall(r"!function\s+'?utils\.(\w+)", open(os.path.join(d, f)).read()))
    for fn in sorted(named):
        pyvec.add_docs(rel, fn, getattr(m, fn), docs)
pyvec.dump(os.path.join(os.path.dirname(__file__), "vectors.json"))
