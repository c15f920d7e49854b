"""Generates vectors.json for ports/humaneval from lm-eval's own humaneval/utils.py.

Run from the repository root:
    /usr/bin/python3 ports/humaneval/testdata/gen.py ../shared/lm-eval/lm_eval/tasks > ports/humaneval/testdata/vectors.json

utils.py loads Hugging Face evaluate's code_eval at import (not installed
here), so the functions are taken out of the file with `ast` and executed
alone. pass_at_k is run with its module global compute_ replaced by a
recorder, which shows what it hands code_eval (references, predictions and
k as a list) and that it returns code_eval's first result. sources holds
the sha256 of each function's source text (ast.get_source_segment, UTF-8).
"""
import ast, hashlib, json, random, sys

root = sys.argv[1]
path = "humaneval/utils.py"
src = open(f"{root}/{path}", encoding="utf-8").read()
ns = {}
sources = {}
for node in ast.parse(src).body:
    if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
        seg = ast.get_source_segment(src, node)
        sources[node.name] = hashlib.sha256(seg.encode("utf-8")).hexdigest()
        exec(compile(ast.Module([node], []), path, "exec"), ns)


class Recorder:
    def __init__(self):
        self.calls = []

    def compute(self, references, predictions, k):
        self.calls.append({"references": references, "predictions": predictions, "k": k})
        return ({"pass@%d" % x: 0.25 for x in k}, {"ignored": True})


rng = random.Random(23)
prompts = ['def add(a, b):\n    """Add."""\n', "from typing import List\n\n\ndef f(x: List[int]) -> int:\n", ""]
bodies = ["    return a + b\n", "    return a * b", "", "\n", "    return 1\n```\nThat is all.", "```", "    x = 1\n```python\n```\n",
          "    return 'é'\n", "    pass\n``` ```"]
resps, docs = [], []
for i in range(60):
    docs.append({"prompt": rng.choice(prompts), "task_id": "HumanEval/%d" % i})
    resps.append([rng.choice(bodies) + rng.choice(["", "```", "\n```\n", "more"]) for _ in range(rng.randint(0, 4))])

rec = Recorder()
ns["compute_"] = rec
calls = []
for refs, preds, k in [(["assert f(1) == 2"], [["def f(x): return x+1"]], [1]),
                       (["check(f)"], [["a", "b", "c"]], 2),
                       (["t1", "t2"], [["p"], ["q", "r"]], [1, 2, 8])]:
    out = ns["pass_at_k"](refs, preds, k)
    calls.append({"references": refs, "predictions": preds, "k": k, "passed_k": rec.calls[-1]["k"], "out": out})

vectors = {
    "file": path,
    "sources": sources,
    "docs": docs,
    "resps": resps,
    "build_predictions": ns["build_predictions"](resps, docs),
    "build_predictions_instruct": ns["build_predictions_instruct"](resps, docs),
    "pass_at_k": calls,
}
json.dump(vectors, sys.stdout, ensure_ascii=False, indent=1, sort_keys=True)
sys.stdout.write("\n")
