#!/usr/bin/python3
"""Run the real lm-eval's local-completions client against a server (`lmeval serve`).

Used for the closing check of docs/serve.md: lm-eval's own client code (TemplateAPI,
LocalCompletionsAPI.parse_logprobs, RemoteTokenizer) scoring a task through `lmeval serve`.
It prints one JSON object: lm-eval's results per task and every sample's raw responses
(resps), for comparison with `lmeval run`'s samples files.

  PYTHONPATH is set up here as ../shared/lm-eval-runner/run_ref.py does it.
  lmeval_client.py --base_url http://127.0.0.1:8000/v1/completions --tasks T --include_path DIR [--model_args k=v,...]
"""
import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
RUNNER = os.environ.get("LMEVAL_RUNNER", os.path.join(HERE, "..", "..", "..", "shared", "lm-eval-runner"))
SRC = os.environ.get("LMEVALREF_SRC", "/tmp/lmevalref/src")
for p in (SRC, os.path.join(RUNNER, "stubs")):
    if p not in sys.path:
        sys.path.insert(0, p)
sys.dont_write_bytecode = True

import lmevalref_compat  # noqa: E402,F401  (typing shims of the runner)
import lm_eval  # noqa: E402
from lm_eval.tasks import TaskManager  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--base_url", required=True)
    ap.add_argument("--tasks", required=True)
    ap.add_argument("--include_path", action="append", default=[])
    ap.add_argument("--model_args", default="")
    ap.add_argument("--limit", type=float, default=None)
    a = ap.parse_args()
    margs = f"base_url={a.base_url},tokenizer_backend=remote,tokenized_requests=True"
    if a.model_args:
        margs += "," + a.model_args
    res = lm_eval.simple_evaluate(
        model="local-completions",
        model_args=margs,
        tasks=a.tasks.split(","),
        task_manager=TaskManager(include_path=a.include_path or None),
        limit=a.limit,
        log_samples=True,
        bootstrap_iters=0,
    )
    out = {"results": res["results"], "samples": {}}
    for task, samples in res["samples"].items():
        out["samples"][task] = [{"doc_id": s["doc_id"], "resps": s["resps"]} for s in samples]
    json.dump(out, sys.stdout, default=str)


if __name__ == "__main__":
    main()
