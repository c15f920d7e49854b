"""Generates vectors.json for ports/mbpp from lm-eval's own mbpp/utils.py.

Run from the repository root:
    /usr/bin/python3 ports/mbpp/testdata/gen.py ../shared/lm-eval/lm_eval/tasks > ports/mbpp/testdata/vectors.json

utils.py imports Hugging Face `evaluate` at module level (not installed
here), so the functions are taken out of the file with `ast` and executed
alone, with the imports they use. sources holds the sha256 of each
function's source text (ast.get_source_segment, UTF-8).
"""
import ast, hashlib, json, random, re, sys
from typing import Union

root = sys.argv[1]
path = "mbpp/utils.py"
src = open(f"{root}/{path}", encoding="utf-8").read()
ns = {"re": re, "Union": Union}
sources = {}
for node in ast.parse(src).body:
    if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
        seg = ast.get_source_segment(src, node)
        sources[node.name] = hashlib.sha256(seg.encode("utf-8")).hexdigest()
        if node.name != "pass_at_1":
            exec(compile(ast.Module([node], []), path, "exec"), ns)

rng = random.Random(17)
pieces = ["def f(x):\n    return x + 1", "print('hi')", "x = 1\ny = 2", "", "\n", "  ",
          "import math\nmath.sqrt(4)", "é = 'ünïcode'", "return [i for i in range(3)]"]
langs = ["python", "py", "Python3", "", "c++", "python\n", "js"]
texts = []
for p in pieces:
    texts += [p, p + "\n```", p + "```", "\n" + p + "\n```\n", p + "\n```\nmore text\n```python\nsecond\n```"]
for _ in range(300):
    parts = []
    for _ in range(rng.randint(0, 4)):
        kind = rng.randint(0, 5)
        if kind == 0:
            parts.append("```" + rng.choice(langs) + rng.choice(["\n", ""]) + rng.choice(pieces) + rng.choice(["\n", ""]) + "```")
        elif kind == 1:
            parts.append("```python")
        elif kind == 2:
            parts.append("```")
        else:
            parts.append(rng.choice(pieces + ["Here is the code:", "Explanation.", "\n\n"]))
    texts.append(rng.choice(["", "\n", " "]).join(parts))

vectors = {
    "file": path,
    "sources": sources,
    "extract_code_blocks": [{"text": t, "out": ns["extract_code_blocks"](t)} for t in texts],
    "build_predictions": {
        "resps": [texts[i:i + 3] for i in range(0, 30, 3)],
    },
    "list_fewshot_samples": ns["list_fewshot_samples"](),
}
b = vectors["build_predictions"]
b["docs"] = [{"task_id": i} for i in range(len(b["resps"]))]
b["out"] = ns["build_predictions"](b["resps"], b["docs"])
json.dump(vectors, sys.stdout, ensure_ascii=False, indent=1, sort_keys=True)
sys.stdout.write("\n")
