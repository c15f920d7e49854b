#!/usr/bin/env python3
"""Reference vectors for ports/acpbench from lm-eval's acpbench/gen_2shot/acp_utils.py.

  PYTHONPATH=/work/shared/lm-eval-runner/stubs:/tmp/lmevalref/src \
    /usr/bin/python3 ports/acpbench/testdata/gen_vectors.py

Needs Debian's python3-lark; the planning packages acp_utils.py imports are
stood in for (pystubs/README.md). Writes parses.json.gz (ACPGrammarParser on many
inputs, checked to be the same under several PYTHONHASHSEEDs: Lark's
error recovery feeds the expected terminals of a set) and vectors.json.gz
(the filter and process_acp_results).
"""
import gzip
import json
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "../../internal/vectest"))
sys.path.insert(0, os.path.join(HERE, "pystubs"))

from vecreplay import add, call, write  # noqa: E402,F401

import lmevalref_compat  # noqa: F401,E402
from lm_eval.tasks.acpbench.gen_2shot import acp_utils as A  # noqa: E402

rng = random.Random(20250101)
curated = [
    "(move f1 f2)", "(move f1", "(", "None", "(a b) (c d)", "[(a b)] [(c d)", "[(a b)] [", "12", "x12", "(a b)(c d)",
    "junk (a b) more", "", "[(holding key0-0)] [(arm-empty), (at key0-0 f0-1f)]", "[(in p3 t1)] [(at p3 l1-0)]",
    "[] []", "[(a)] [(a)]", "[(a b), (c d)] []", "[(a b)] [(a b)]", "[(x y)(z w)] [(q)]", "[(a b),(c d)] [(e f)]",
    "[(move f3-2f f3-1f), (move f3-2f f2-2f), (move f3-2f f3-3f)]", "(drive-truck t1 l1-0 l1-0 c1), (load-truck p2 t1 l1-0)",
    "The answer is (unlock f3-2f f2-2f key0-0 shape0).", "**Final Answer**: (pickup f0-1f key0-0)", "Nonesuch", "None of them",
    "(None)", "(a_b c-d 9x)", "(a  b)", "( a b)", "(a b )", "((a b))", "(a (b c) d)", "1", "007", "index 3 or 4", "3.", "-5",
    "²", "٣", "the first inapplicable action is at index 2", "(a b)\n(c d)", "  (a b)  ", "(Ünï b)", "(a b)]", "]]]",
    "[(a b)", "[(a b)] [(c d)] [(e f)]", "[(a b) [(c d)]", "[(a b)] x [(c d)]", "[None] [None]", "[(a b)] ", "None None",
    "positive effects: (a b). negative effects: (c d)", "[ (a b) ] [ (c d) ]", "[(a b) ,(c d)] [,]", "[,(a b)] [(c d)]",
    "(a b c d e f g h)", "(a b) None (c d)", "None (a b)", "(a b) None", "[(a b)] [(c", "[(a b)] [(", "[(a", "[(", "[",
    "(a b", "(a b ", "(a b) (", "(a b) (c", ")", ")(", "(()", "a b c", "(1 2)", "(a 1)", "(a1 b2)", "(-a b)", "(_a b)",
]
alphabet = ["(", ")", "[", "]", ",", " ", "\n", "a", "b", "move", "f1-2f", "key0-0", "None", "0", "12", "x", "_", "-", "*",
            ".", ":", "Positive Effects", "negative effects", "é", "  ", "(move f1 f2)", "(a b)", "[(a b)]", "] [", "Non", "one"]
fuzz = ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 12))) for _ in range(6000)]
inputs = curated + fuzz

with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
    json.dump(inputs, f)
    path = f.name
results = []
for seed in ["0", "1", "7", "123"]:
    env = dict(os.environ, PYTHONHASHSEED=seed)
    p = subprocess.run([sys.executable, os.path.join(HERE, "gen_parses.py"), path], env=env, capture_output=True, text=True, check=True)
    results.append(json.loads(p.stdout))
os.unlink(path)
for r in results[1:]:
    for task in r:
        diff = [inputs[i] for i, (a, b) in enumerate(zip(results[0][task], r[task])) if a != b]
        if diff:
            sys.exit(f"{task}: parses depend on PYTHONHASHSEED, e.g. {diff[:5]!r}")
with open(os.path.join(HERE, "parses.json.gz"), "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as f:
    f.write(json.dumps({"inputs": inputs, "parses": results[0]}, ensure_ascii=False).encode())
print(f"parses.json.gz: {len(inputs)} inputs", file=sys.stderr)

# ---- ACPGrammarFilter and process_acp_results (the evaluators without a planner)
F = "acpbench/gen_2shot/acp_utils.py"
app = {"id": 1, "group": "applicable_actions_gen", "context": "A robot is in a grid.", "question": "Generate the list of all ground actions that are applicable in this state.",
       "answer": ["(move f3-2f f3-1f)", "(move f3-2f f2-2f)", "(move f3-2f f3-3f)"]}
land = {"id": 2, "group": "landmarks_gen", "context": "c", "question": "q", "answer": {"yes": ["(at p3 l0-1)", "(in p3 t0)"], "no": ["(at t1 l1-1)"]}}
land0 = {"id": 3, "group": "landmarks_gen", "context": "c", "question": "q", "answer": {"yes": [], "no": ["(at t1 l1-1)"]}}
prog = {"id": 4, "group": "progression_gen", "context": "c", "question": "q", "answer": {"pos": ["(holding key0-0)"], "neg": ["(arm-empty)", "(at key0-0 f0-1f)"]}}
prog1 = {"id": 5, "group": "progression_gen", "context": "c", "question": "q", "answer": {"pos": ["(in p3 t1)"], "neg": []}}
val = {"id": 6, "group": "validation_gen", "context": "c", "question": "q", "answer": 2}
val0 = {"id": 7, "group": "validation_gen", "context": "c", "question": "q", "answer": "0"}
cases = [
    (app, "action_list", None, ["[(move f3-2f f3-1f), (move f3-2f f2-2f), (move f3-2f f3-3f)]", "(move f3-2f f3-3f) (move f3-2f f2-2f) (move f3-2f f3-1f)",
                                "(MOVE f3-2f  f3-1f), (move f3-2f f2-2f)", "(move f3-2f f3-1f)\n(move f3-2f f2-2f)\n(move f3-2f f3-3f)", "none", "", "(",
                                "The applicable actions are (move f3-2f f3-1f), (move f3-2f f2-2f) and (move f3-2f f3-3f).", "(move f3-2f f3-1f) (move f3-2f f3-1f) (move f3-2f f2-2f) (move f3-2f f3-3f)"]),
    (land, "act", None, ["(at p3 l0-1)", "(IN p3 t0)", "(at t1 l1-1)", "None", "The landmark is (in p3 t0).", "", "(at p3"]),
    (land0, "act", None, ["None", "(at t1 l1-1)", " none", "nothing"]),
    (prog, "progression_list", "pos_neg", ["[(holding key0-0)] [(arm-empty), (at key0-0 f0-1f)]", "[(holding key0-0)] [(at key0-0 f0-1f), (arm-empty)]",
                                          "**Positive Effects**: (holding key0-0) **Negative Effects**: (arm-empty), (at key0-0 f0-1f)",
                                          "Positive effects (holding key0-0) negative effects (arm-empty) (at key0-0 f0-1f)", "[(holding key0-0)] []",
                                          "[(holding key0-0)] [(arm-empty)]", "[] []", "no idea", "[(holding key0-0)] [(arm-empty), (at key0-0 f0-1f)"]),
    (prog1, "progression_list", "pos_neg", ["[(in p3 t1)] []", "[(in p3 t1)] [(at p3 l1-0)]", "Positive Effects: (in p3 t1) Negative Effects: none", "[(IN p3 t1)] [ ]"]),
    (val, "index", None, ["2", "The first inapplicable action is at index 2.", "3", "02", "none", "", "index: 2, not 3"]),
    (val0, "index", None, ["0", "1", "zero"]),
]
for doc, gtask, clean, gens in cases:
    args = {"grammar_task": gtask} if clean is None else {"grammar_task": gtask, "clean": clean}
    flt = A.ACPGrammarFilter(**args)
    resps = [[g] for g in gens]
    call(F, "ACPGrammarFilter", "filter", lambda: flt.apply(resps, [doc] * len(gens)), {"args": args, "resps": resps, "docs": [doc] * len(gens)})
    for g in gens:
        parsed = flt.apply([[g]], [doc])[0][0]
        call(F, "process_acp_results", "process_results", A.process_acp_results, {"doc": doc, "results": [parsed]}, doc, [parsed])
call(F, "process_acp_results", "process_results", A.process_acp_results, {"doc": dict(val, answer=-1), "results": ["1"]}, dict(val, answer=-1), ["1"])
call(F, "process_acp_results", "process_results", A.process_acp_results, {"doc": dict(val, answer="x"), "results": ["1"]}, dict(val, answer="x"), ["1"])
call(F, "process_acp_results", "process_results", A.process_acp_results, {"doc": dict(app, group="unknown_gen"), "results": [None]}, dict(app, group="unknown_gen"), [None])
write(os.path.join(HERE, "vectors.json"))
