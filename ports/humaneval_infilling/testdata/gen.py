"""Generates vectors.json for ports/humaneval_infilling from lm-eval's own
humaneval_infilling/utils.py.

Run from the repository root:
    /usr/bin/python3 ports/humaneval_infilling/testdata/gen.py ../shared/lm-eval/lm_eval/tasks > ports/humaneval_infilling/testdata/vectors.json

The functions are taken out of the file with `ast` and executed alone
(the module loads Hugging Face evaluate, not installed here). sources holds
the sha256 of each function's source text (ast.get_source_segment, UTF-8);
pass_at_k's is the same as humaneval/utils.py's, so the humaneval port
serves it.
"""
import ast, hashlib, json, random, sys

root = sys.argv[1]
path = "humaneval_infilling/utils.py"
src = open(f"{root}/{path}", encoding="utf-8").read()
ns = {}
sources = {}
for node in ast.parse(src).body:
    if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
        seg = ast.get_source_segment(src, node)
        sources[node.name] = hashlib.sha256(seg.encode("utf-8")).hexdigest()
        exec(compile(ast.Module([node], []), path, "exec"), ns)

rng = random.Random(29)
prompts = ["def f(x):\n    ", "from typing import List\n\n\ndef g(xs: List[int]) -> int:\n    \"\"\"Sum.\"\"\"\n", ""]
suffixes = ["\n    return y\n", "", "\n\n# é\n"]
bodies = ["y = x + 1", "", "\n", "return sum(xs)", "```", "pass  # ünïcode"]
resps, docs = [], []
for i in range(40):
    docs.append({"prompt": rng.choice(prompts), "suffix": rng.choice(suffixes), "task_id": "SingleLineInfilling/HumanEval/%d" % i})
    resps.append([rng.choice(bodies) for _ in range(rng.randint(0, 3))])
json.dump({"file": path, "sources": sources, "docs": docs, "resps": resps,
           "build_predictions": ns["build_predictions"](resps, docs)},
          sys.stdout, ensure_ascii=False, indent=1, sort_keys=True)
sys.stdout.write("\n")
