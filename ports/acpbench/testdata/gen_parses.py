"""Prints JSON: ACPGrammarParser(task).parse(s) for every task and input of
inputs.json (run by gen_vectors.py under several PYTHONHASHSEEDs)."""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "pystubs"))

import lmevalref_compat  # noqa: F401,E402
from lm_eval.tasks.acpbench.gen_2shot import acp_utils as A  # noqa: E402

inputs = json.load(open(sys.argv[1]))
out = {}
for task in ["action_list", "act", "action_name", "index", "progression_list"]:
    p = A.ACPGrammarParser(task)
    out[task] = [p.parse(s) for s in inputs]
print(json.dumps(out))
