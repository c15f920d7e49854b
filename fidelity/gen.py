#!/usr/bin/env python3
"""Expected outputs for lmeval's fidelity cases, from the real lm-eval.

usage (from the repository root):
  PYTHONPATH=../shared/lm-eval-runner/stubs:/tmp/lmevalref/src \
    /usr/bin/python3 fidelity/gen.py ../shared/lm-eval [FAMILY ...] [--case TASK,...] [--keep-going]
or over the real packages (make parity's venv):
  build/parity/venv/bin/python scripts/parity/realgen_all.py fidelity fidelity_squad

For every case of fidelity/testdata/<family>/cases.json (all families when
none is named) it writes the wrapper YAML the Go test writes (an include:
of lm-eval's task file, local JSONL documents from data/) and runs lm-eval's
real evaluator through lm-eval-runner's run_ref.py twice: once for the
requests (few-shot contexts included), then with this script's answers
replayed (--replay) for the metrics. It writes expected/<task>.json: every
request with its answer, lm-eval's results entry for the task, n-shot,
higher_is_better and every sample's metrics.

Answers are a function of the request alone (sha256 of its arguments), so
the Go test gives lmeval the same ones: log-likelihoods -20*u with greedy
when u' < 0.3, rolling -500*u - 1, generations drawn from the case's
"answers" list (or a few fake words) and cut at the first stop string as
lm-eval's models do. lm-eval runs with its default seeds and datasets' map
cache emulated (ports/testdata/dscache), as a real first run has it. Cases
with the same num_fewshot run together; a case marked "alone" (one that
draws from Python's global random) runs by itself, as a one-task run.
"""
import hashlib
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
WORDS = ["the", "cat", "sat", "on", "a", "mat", "and", "Lily", "was", "happy"]


def u(*parts):
    d = hashlib.sha256(json.dumps(parts, ensure_ascii=False, sort_keys=True).encode()).digest()
    return int.from_bytes(d[:8], "big") / 2.0**64


def until_of(gen_kwargs):
    u_ = (gen_kwargs or {}).get("until") or []
    return [u_] if isinstance(u_, str) else list(u_)


def generation(case, context, gen_kwargs):
    answers = case.get("answers") or []
    if answers:
        s = answers[int(len(answers) * u("fid-answer", context))]
    else:
        n = 1 + int(5 * u("fid-n", context))
        s = " ".join(WORDS[int(10 * u("fid-w", context, i))] for i in range(n))
    for term in until_of(gen_kwargs):
        if term:
            s = s.split(term)[0]
    return s


def wrapper(case, tasks_dir, data_dir):
    lines = [f"include: {os.path.join(tasks_dir, case['include'])}",
             f"task: {case['task']}",
             "dataset_path: json",
             "dataset_name: null",
             "dataset_kwargs:",
             "  data_files:"]
    lines += [f"    {s}: {json.dumps(os.path.join(data_dir, f))}" for s, f in case["data_files"].items()]
    if case.get("yaml"):
        lines.append(case["yaml"].rstrip("\n"))
    return "\n".join(lines) + "\n"


def answer_of(case, r):
    rt, a = r["request_type"], r["arguments"]
    if rt == "loglikelihood":
        return [-20.0 * u("fid-ll", a[:2]), u("fid-greedy", a[:2]) < 0.3]
    if rt == "loglikelihood_rolling":
        return -500.0 * u("fid-roll", a[0]) - 1.0
    return generation(case, a[0], a[1])


def sample_metrics(sample, metric_names):
    return {k: sample[k] for k in metric_names if k in sample}


def is_class_task(tasks_dir, case):
    """A task lm-eval implements as a Python class (`class: !function`)."""
    with open(os.path.join(tasks_dir, case["include"]), encoding="utf-8") as f:
        return any(line.startswith("class:") for line in f)


def run_ref(lmeval, tmp, names, num_fewshot, extra, classes=False):
    runner = os.path.join(os.path.dirname(lmeval), "lm-eval-runner", "run_ref.py")
    out = os.path.join(tmp, "out.json")
    # Class tasks ignore the wrapper's data files: classref.py points them there.
    pre = [os.path.join(HERE, "classref.py")] if classes else []
    cmd = [sys.executable] + pre + [runner, "--tasks", ",".join(names), "--include_path", tmp,
           "--output", out, "--no-table"] + extra
    if num_fewshot is not None:
        cmd += ["--num_fewshot", str(num_fewshot)]
    env = dict(os.environ)
    # pysetup: datasets' map cache and ifeval's setup; stubs: Hugging Face
    # evaluate's metrics (not in Debian), for hf_evaluate metric_list
    # entries; pystubs: modules absent here that some helper files import
    # (and the metrics evaluate.load gives the class tasks).
    env["PYTHONPATH"] = os.pathsep.join([os.path.join(HERE, "pysetup"), os.path.join(HERE, "stubs"),
                                         os.path.join(HERE, "pystubs"), env.get("PYTHONPATH", "")])
    # Each run a first run: with the real datasets (scripts/parity/realgen.py)
    # an empty map cache, as ports/testdata/dscache starts the stand-in's.
    with tempfile.TemporaryDirectory() as cache:
        env["HF_DATASETS_CACHE"] = cache
        p = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if p.returncode != 0:
        raise LMEvalFailed(f"{','.join(names)}: lm-eval failed:\n{p.stderr[-3000:]}")
    return json.load(open(out))


class LMEvalFailed(Exception):
    """lm-eval's run of some cases failed (the message ends with its stderr)."""


def run_cases(lmeval, cases):
    """Runs cases (same num_fewshot; (family, case) pairs, of one family or
    several) in two passes of lm-eval: the requests with constant answers,
    then the metrics with this script's answers replayed (run_ref.py
    --replay)."""
    tasks_dir = os.path.join(lmeval, "lm_eval", "tasks")
    names = [c["task"] for _, c in cases]
    by_name = {c["task"]: c for _, c in cases}
    nf = cases[0][1].get("num_fewshot")
    classes = any(is_class_task(tasks_dir, c) for _, c in cases)
    with tempfile.TemporaryDirectory() as tmp:
        for fam, c in cases:
            open(os.path.join(tmp, c["task"] + ".yaml"), "w").write(
                wrapper(c, tasks_dir, os.path.join(HERE, "testdata", fam, "data")))
        reqs = os.path.join(tmp, "reqs.jsonl")
        run_ref(lmeval, tmp, names, nf, ["--dump-requests", reqs], classes)
        requests = {n: [] for n in names}
        for line in open(reqs):
            r = json.loads(line)
            requests[r["task"]].append(r)
        sdir = os.path.join(tmp, "samples")
        os.makedirs(sdir)
        for n, rs in requests.items():
            rs.sort(key=lambda r: (r["doc_id"], r["idx"]))
            for r in rs:
                r["answer"] = answer_of(by_name[n], r)
            with open(os.path.join(sdir, f"samples_{n}_2000-01-01T00-00-00.000000.jsonl"), "w") as f:
                docs = {}
                for r in rs:
                    docs.setdefault(r["doc_id"], []).append(r)
                for d, rr in docs.items():
                    f.write(json.dumps({"doc_id": d, "arguments": [r["arguments"] for r in rr],
                                        "resps": [[r["answer"]] for r in rr],
                                        "filtered_resps": [r["answer"] for r in rr]}, ensure_ascii=False) + "\n")
        res = run_ref(lmeval, tmp, names, nf, ["--replay", sdir, "--log-samples"], classes)
    out = {}
    for n in names:
        entry = res["results"][n]
        metric_names = sorted({k.split(",")[0] for k in entry if "," in k and "_stderr" not in k})
        samples = [{"doc_id": s["doc_id"], "filter": s["filter"], "metrics": sample_metrics(s, metric_names)}
                   for s in res["samples"][n]]
        samples.sort(key=lambda s: (s["filter"], s["doc_id"]))
        out[n] = {
            "generated_by": "fidelity/gen.py (lm-eval " + res["lmevalref"]["lm_eval_commit"] + ")",
            "requests": [{k: r[k] for k in ("doc_id", "idx", "request_type", "arguments", "answer")}
                         for r in requests[n]],
            "results": entry,
            "n-shot": res["n-shot"][n],
            "higher_is_better": res["higher_is_better"][n],
            "samples": samples,
        }
    return out


def main():
    args = sys.argv[1:]
    only = None
    if "--case" in args:
        i = args.index("--case")
        only = set(args[i + 1].split(","))
        del args[i:i + 2]
    # --keep-going: a run that fails is run again family by family, and a
    # family that still fails is reported at the end (exit 1) while the
    # others are written.
    keep_going = "--keep-going" in args
    if keep_going:
        args.remove("--keep-going")
    lmeval = os.path.abspath(args[0])
    families = args[1:] or sorted(d for d in os.listdir(os.path.join(HERE, "testdata"))
                                  if os.path.isfile(os.path.join(HERE, "testdata", d, "cases.json")))
    # One lm-eval run per num_fewshot over all the families named (and per
    # case marked "alone": one that draws from Python's global random, whose
    # state depends on the other tasks built in the same run).
    runs = {}
    fam_of = {}
    for fam in families:
        cases = json.load(open(os.path.join(HERE, "testdata", fam, "cases.json")))
        os.makedirs(os.path.join(HERE, "testdata", fam, "expected"), exist_ok=True)
        for c in cases:
            if only and c["task"] not in only:
                continue
            fam_of[c["task"]] = fam
            key = ("alone", c["task"]) if c.get("alone") else ("n", c.get("num_fewshot"))
            runs.setdefault(key, []).append((fam, c))
    queue, failed = list(runs.values()), []
    while queue:
        group = queue.pop(0)
        try:
            out = run_cases(lmeval, group)
        except LMEvalFailed as e:
            if not keep_going:
                raise SystemExit(str(e))
            fams = sorted({fam for fam, _ in group})
            if len(fams) > 1:
                queue += [[(f, c) for f, c in group if f == fam] for fam in fams]
            else:
                failed.append(str(e))
                print(f"{fams[0]}: FAILED {str(e).splitlines()[-1]}", flush=True)
            continue
        for name, data in out.items():
            fam = fam_of[name]
            with open(os.path.join(HERE, "testdata", fam, "expected", name + ".json"), "w", encoding="utf-8") as f:
                json.dump(data, f, indent=1, ensure_ascii=False)
                f.write("\n")
            print(f"{fam}/{name}: {len(data['requests'])} requests, {len(data['samples'])} samples", flush=True)
    if failed:
        raise SystemExit(f"{len(failed)} runs failed:\n\n" + "\n\n".join(failed))

if __name__ == "__main__":
    main()
