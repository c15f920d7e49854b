#!/usr/bin/env python3
"""lm-eval's requests for the leaderboard members and other ported tasks.

usage (from the repository root):
  PYTHONPATH=../shared/lm-eval-runner/stubs:/tmp/lmevalref/src \
    /usr/bin/python3 ports/testdata/gen_requests.py ../shared/lm-eval

For each case of cases.json it writes a wrapper YAML that `include:`s the
lm-eval task file and reads the case's local JSONL documents (data/, in
the real dataset's schema), runs the real lm-eval on it through
lm-eval-runner's run_ref.py --dump-requests, and writes the requests
(contexts, continuations, generation arguments; few-shot included) to
requests/<task>.jsonl. The Go test builds the same wrapper. lm-eval runs
with datasets' map cache emulated (dscache/sitecustomize.py), as a real
run with a fresh cache has it.
"""
import json
import os
import subprocess
import sys
import tempfile

LMEVAL = os.path.abspath(sys.argv[1])
HERE = os.path.dirname(os.path.abspath(__file__))
RUNNER = os.path.join(os.path.dirname(LMEVAL), "lm-eval-runner", "run_ref.py")


def wrapper(case, tasks_dir, data_dir):
    files = {s: os.path.join(data_dir, f) for s, f in case["data_files"].items()}
    lines = [f"include: {os.path.join(tasks_dir, case['include'])}",
             f"task: {case['task']}",
             "dataset_path: json",
             "dataset_name: null",
             "dataset_kwargs:",
             "  data_files:"]
    lines += [f"    {s}: {json.dumps(p)}" for s, p in files.items()]
    return "\n".join(lines) + "\n"


def main():
    cases = json.load(open(os.path.join(HERE, "cases.json")))
    if len(sys.argv) > 2:
        cases = [c for c in cases if c["task"] in sys.argv[2].split(",")]
    os.makedirs(os.path.join(HERE, "requests"), exist_ok=True)
    tasks_dir = os.path.join(LMEVAL, "lm_eval", "tasks")
    for case in cases:
        with tempfile.TemporaryDirectory() as tmp:
            open(os.path.join(tmp, case["task"] + ".yaml"), "w").write(
                wrapper(case, tasks_dir, os.path.join(HERE, "data")))
            out = os.path.join(tmp, "reqs.jsonl")
            cmd = [sys.executable, RUNNER, "--tasks", case["task"], "--include_path", tmp,
                   "--dump-requests", out, "--output", os.path.join(tmp, "out.json"), "--no-table"]
            if "num_fewshot" in case:
                cmd += ["--num_fewshot", str(case["num_fewshot"])]
            env = dict(os.environ)
            env["PYTHONPATH"] = os.path.join(HERE, "dscache") + os.pathsep + env.get("PYTHONPATH", "")
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=env)
            reqs = [json.loads(l) for l in open(out)]
        with open(os.path.join(HERE, "requests", case["task"] + ".jsonl"), "w") as w:
            for r in sorted(reqs, key=lambda r: (r["doc_id"], r["idx"])):
                r.pop("answer", None)
                w.write(json.dumps(r, ensure_ascii=False) + "\n")
        print(case["task"], len(reqs), "requests")


main()
