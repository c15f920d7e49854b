"""lm-eval's metrics for fixed answers (answers.json) to the code tasks of
requests.jsonl, into metrics.json.

    /usr/bin/python3 harness/testdata/code_tasks/gen_metrics.py ../shared

It writes the answers as lm-eval samples files (each request's context and
generation_kwargs from requests.jsonl, one answer per repeat) and replays
them through the real lm-eval with ../shared/lm-eval-runner/run_ref.py
--replay, confirm_run_unsafe_code forced on. cruxeval scores with its own
executor (lm-eval's code). Hugging Face evaluate is not installed, so the
humaneval, mbpp and infilling metrics get a stand-in `evaluate` whose
code_eval does what code_eval does — each program is candidate + "\\n" +
reference, pass@k by the unbiased estimator for every k that all problems
have enough candidates for — running the programs with lm-eval's cruxeval
executor (check_correctness: the same reliability guard, 3 s time limit
and verdicts as code_eval's).
"""
import json, os, sys, tempfile

shared = os.path.abspath(sys.argv[1])
here = os.path.dirname(os.path.abspath(__file__))
tree = os.path.join(shared, "lm-eval", "lm_eval", "tasks")
tmp = tempfile.mkdtemp()
os.makedirs(os.path.join(tmp, "evaluate"))
with open(os.path.join(tmp, "evaluate", "__init__.py"), "w") as f:
    f.write(f'''import importlib.util
import numpy as np
_spec = importlib.util.spec_from_file_location("_crux", {os.path.join(tree, "cruxeval", "utils.py")!r})
_crux = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_crux)

class _CodeEval:
    def compute(self, references, predictions, k=[1, 10, 100], num_workers=4, timeout=3.0):
        total, correct = [], []
        for cands, ref in zip(predictions, references):
            res = [_crux.check_correctness(c + "\\n" + ref, timeout=timeout) for c in cands]
            total.append(len(res))
            correct.append(sum(res))
        total, correct = np.array(total), np.array(correct)
        ks = k if isinstance(k, (list, tuple)) else [k]
        est = lambda n, c, kk: 1.0 if n - c < kk else 1.0 - np.prod(1.0 - kk / np.arange(n - c + 1, n + 1))
        return ({{f"pass@{{kk}}": np.array([est(n, c, kk) for n, c in zip(total, correct)]).mean()
                 for kk in ks if (total >= kk).all()}}, {{}})

def load(name):
    assert name == "code_eval"
    return _CodeEval()
''')
answers = json.load(open(os.path.join(here, "answers.json")))
reqs = [json.loads(l) for l in open(os.path.join(here, "requests.jsonl"))]
files = {r["task"]: None for r in reqs}
inc = os.path.join(tmp, "tasks")
sdir = os.path.join(tmp, "samples")
os.makedirs(inc)
os.makedirs(sdir)
names = []
for task in answers:
    rs = [r for r in reqs if r["task"] == task]
    with open(os.path.join(sdir, f"samples_{task}_2026-01-01T00-00-00.000000.jsonl"), "w") as out:
        for r in rs:
            a = answers[task][r["doc_id"]]
            assert len(a) == r["repeats"], (task, r["doc_id"], len(a), r["repeats"])
            out.write(json.dumps({"doc_id": r["doc_id"], "arguments": [r["arguments"]], "resps": [a]}) + "\n")
    names.append(task)
# The wrapper YAML of gen_requests.py, rebuilt the same way.
sys.path.insert(0, here)
import gen_requests_tasks  # noqa: E402
for name, f, data in gen_requests_tasks.TASKS:
    with open(os.path.join(inc, name + "_local.yaml"), "w") as out:
        out.write(f"include: {os.path.join(tree, f)}\ntask: {name}_local\ndataset_path: json\ndataset_name: null\n"
                  f"dataset_kwargs:\n  data_files:\n    test: {os.path.join(here, data)}\n")
sys.path.insert(0, tmp)
sys.path.insert(0, os.path.join(shared, "lm-eval-runner"))
import run_ref  # noqa: E402
import lm_eval.evaluator as ev  # noqa: E402

orig = ev.evaluate


def evaluate(*a, **k):
    k["confirm_run_unsafe_code"] = True
    return orig(*a, **k)


ev.evaluate = evaluate
outp = os.path.join(tmp, "out.json")
rc = run_ref.main(["--tasks", ",".join(names), "--include_path", inc, "--replay", sdir, "--output", outp,
                   "--no-table", "--bootstrap_iters", "0", "--log-samples"])
if rc:
    sys.exit(rc)
res = json.load(open(outp))
got = {}
for task in names:
    r = res["results"][task]
    got[task] = {k: v for k, v in r.items() if k != "alias" and "_stderr" not in k}
json.dump(got, open(os.path.join(here, "metrics.json"), "w"), indent=1, sort_keys=True)
print(json.dumps(got, indent=1))
