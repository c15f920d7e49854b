"""Generates vectors.json for ports/cruxeval from lm-eval's own cruxeval/utils.py.

Run from the repository root:
    /usr/bin/python3 ports/cruxeval/testdata/gen.py ../shared/lm-eval/lm_eval/tasks > ports/cruxeval/testdata/vectors.json

The module is imported as it is (it needs only numpy), and its functions
run on generated inputs: extract_code_input/extract_code_output on
generations reaching each branch, the build_predictions filters, the
few-shot samples, and pass_at_k on programs that pass, fail, loop and do
not parse (its own executor runs them). sources holds the sha256 of each
function's source text (ast.get_source_segment, UTF-8).
"""
import ast, hashlib, importlib.util, json, random, sys

root = sys.argv[1]
path = "cruxeval/utils.py"
src = open(f"{root}/{path}", encoding="utf-8").read()
sources = {}
for node in ast.parse(src).body:
    if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
        seg = ast.get_source_segment(src, node)
        sources[node.name] = hashlib.sha256(seg.encode("utf-8")).hexdigest()
spec = importlib.util.spec_from_file_location("cruxeval_utils", f"{root}/{path}")
m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)

rng = random.Random(31)
pieces = ["assert f(", "assert f", "f(", ")", "(", "==", " == ", "[ANSWER]", "[/ANSWER]", "\n", "#", " # c", "'", '"',
          "17", "[1, 2]", "'ab'", '"x"', "(1, (2, 3))", "é", "f(3)", "  ", "assert", "x"]
gens = ["", "assert f(16) == 17", "[ANSWER]\nassert f(16) == 17\n[/ANSWER]", "f(3)", "3 == 4", "17",
        "[THOUGHT] x [/THOUGHT]\n[ANSWER]assert f((1, 2)) == 3[/ANSWER]", "assert f(((1)) == 2", "assert f('a)b') == 1",
        "'quoted'", "\"x\" # comment\nmore", "assert f(1) == 2 == 3"]
for _ in range(400):
    gens.append("".join(rng.choice(pieces) for _ in range(rng.randint(1, 9))))
docs = [{"code": "def f(x):\n    return x + 1", "input": "16", "output": "17"},
        {"code": "def f(s):\n    return s[::-1]", "input": "'ab'", "output": "'ba'"}]
extract = []
for g in gens:
    d = rng.choice(docs)
    for cot in (False, True):
        extract.append({"doc": d, "generation": g, "cot": cot,
                        "input": m.extract_code_input(d, g, cot), "output": m.extract_code_output(d, g, cot)})
resps = [gens[i:i + 3] for i in range(0, 24, 3)]
bdocs = [docs[i % 2] for i in range(len(resps))]
build = {name: getattr(m, name)(resps, bdocs) for name in
         ["build_predictions_input", "build_predictions_input_cot", "build_predictions_output", "build_predictions_output_cot"]}

progs = {
    "pass": "def f(x):\n    return x + 1\nassert f(16)==17",
    "fail": "def f(x):\n    return x + 1\nassert f(1)==17",
    "loop": "while True:\n    pass",
    "syntax": "def f(:\n",
}
cases = [
    ([["pass"]], [1]),
    ([["pass", "fail"], ["fail"]], [1, 5]),
    ([["pass", "pass", "fail", "loop"]], [1, 2, 5]),
    ([["syntax", "pass"]], 1),
    ([[]], [1]),
]
pak = []
for preds, k in cases:
    out = m.pass_at_k(["unused"] * len(preds), [[progs[p] for p in ps] for ps in preds], k)
    pak.append({"programs": preds, "k": k, "out": {key: float(v) for key, v in out.items()}})

json.dump({"file": path, "sources": sources, "extract": extract, "resps": resps, "docs": bdocs, "build": build,
           "fewshot_input": m.list_fewshot_samples_input(), "fewshot_output": m.list_fewshot_samples_output(),
           "programs": progs, "pass_at_k": pak},
          sys.stdout, ensure_ascii=False, indent=1, sort_keys=True)
sys.stdout.write("\n")
