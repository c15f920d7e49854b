#!/usr/bin/env python3
"""Vectors for ports/histoires_morales from lm-eval's own
histoires_morales/utils.py and moral_stories/utils.py.

usage (from the repository root):
  PYTHONPATH=ports/internal/vectest:../shared/lm-eval-runner/stubs:/tmp/lmevalref/src \
    /usr/bin/python3 ports/histoires_morales/testdata/gen_vectors.py ../shared/lm-eval/lm_eval/tasks
"""
import datasets
import vectest

V = vectest.Vectors("histoires_morales/utils.py")
docs = [{"ID": "1", "norm": "it's good to HELP.", "situation": "éric is at SCHOOL.", "intention": "ßig wants to go.", "moral_action": "m", "immoral_action": "i"},
        {"ID": "2", "norm": "", "situation": "123 abc", "intention": "ǆemal", "moral_action": "m2", "immoral_action": "i2"}]
for f in ["histoires_morales/utils.py", "moral_stories/utils.py"]:
    m = vectest.load(f)
    V.call("process_docs", "process_docs", docs, lambda: list(m.process_docs(datasets.Dataset.from_list(docs))), file=f)
V.write(vectest.out_path(__file__))
