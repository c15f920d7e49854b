#!/usr/bin/env python3
"""Expected requests for the MATH tasks: runs the real lm-eval
(../shared/lm-eval-runner/run_ref.py --dump-requests) on wrapper YAML that
include lm-eval's own task files and read math_docs/*.jsonl (the
hendrycks MATH schema: problem, level, type, solution), and writes
math_requests.json.

lm-eval's minerva_math and leaderboard/math utils import math_verify and
check antlr4-python3-runtime == 4.11 at import time; neither matters for
building requests, so a stub math_verify and a patched version() are put on
the path (math_verify is not installed here).

Run from this directory:
  python3 gen_math_requests.py ../../../../shared  # the folder holding lm-eval and lm-eval-runner
"""
import json
import os
import subprocess
import sys
import tempfile

SHARED = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "../../../../shared")
TASKS = os.path.join(SHARED, "lm-eval", "lm_eval", "tasks")
HERE = os.path.dirname(os.path.abspath(__file__))

# wrapper name -> the lm-eval YAML it includes
WRAPPERS = {
    "mq_minerva_algebra": "minerva_math/minerva_math_algebra.yaml",
    "mq_minerva_math500": "minerva_math/minerva_math500.yaml",
    "mq_leaderboard_algebra": "leaderboard/math/math_algebra.yaml",
    "mq_hendrycks_algebra": "hendrycks_math/hendrycks_math_algebra.yaml",
    "mq_hendrycks_math500": "hendrycks_math/hendrycks_math500.yaml",
}


def wrapper(name, rel, docs):
    return (
        f"include: {os.path.join(TASKS, rel)}\n"
        f"task: {name}\n"
        "dataset_path: json\n"
        "dataset_name: null\n"
        "dataset_kwargs:\n"
        "  data_files:\n"
        f"    train: {os.path.join(docs, 'train.jsonl')}\n"
        f"    test: {os.path.join(docs, 'test.jsonl')}\n"
    )


def main():
    docs = os.path.join(HERE, "math_docs")
    with tempfile.TemporaryDirectory() as tmp:
        inc = os.path.join(tmp, "tasks")
        os.mkdir(inc)
        for name, rel in WRAPPERS.items():
            with open(os.path.join(inc, name + ".yaml"), "w") as f:
                f.write(wrapper(name, rel, docs))
        shim = os.path.join(tmp, "shim")
        os.mkdir(shim)
        with open(os.path.join(shim, "math_verify.py"), "w") as f:
            f.write("def parse(*a, **k):\n    raise RuntimeError('math_verify stub')\n"
                    "verify = parse\nLatexExtractionConfig = ExprExtractionConfig = lambda *a, **k: None\n")
        with open(os.path.join(shim, "sitecustomize.py"), "w") as f:
            f.write("import importlib.metadata as m\n_v = m.version\n"
                    "m.version = lambda n: '4.11.0' if n == 'antlr4-python3-runtime' else _v(n)\n")
        env = dict(os.environ)
        env["PYTHONPATH"] = ":".join([shim, os.path.join(SHARED, "lm-eval-runner", "stubs"), "/tmp/lmevalref/src"])
        dump = os.path.join(tmp, "reqs.jsonl")
        subprocess.run(
            [sys.executable, os.path.join(SHARED, "lm-eval-runner", "run_ref.py"),
             "--tasks", ",".join(WRAPPERS), "--include_path", inc, "--dump-requests", dump,
             "--output", os.path.join(tmp, "out.json"), "--predict_only", "--no-table"],
            check=True, env=env)
        reqs = [json.loads(l) for l in open(dump)]
    out = {"wrappers": WRAPPERS, "requests": reqs}
    with open(os.path.join(HERE, "math_requests.json"), "w") as f:
        json.dump(out, f, indent=1, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    main()
