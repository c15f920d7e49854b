"""Dumps lm-eval's own requests for humaneval, humaneval_infilling, mbpp and
cruxeval (every variant but the random-span infilling ones) over
the local documents here, into requests.jsonl.

    /usr/bin/python3 harness/testdata/code_tasks/gen_requests.py ../shared

It writes wrapper YAML (include: lm-eval's file, local data_files) into a
temporary directory and runs ../shared/lm-eval-runner/run_ref.py on it
with --dump-requests. Two stand-ins make that possible here: a module
`evaluate` whose code_eval returns a constant (Hugging Face evaluate is
not installed; only the requests are kept, not the scores), and
confirm_run_unsafe_code=True forced into lm_eval.evaluator.evaluate
(run_ref.py does not pass it).
"""
import json, os, sys, tempfile

shared = os.path.abspath(sys.argv[1])
here = os.path.dirname(os.path.abspath(__file__))
tree = os.path.join(shared, "lm-eval", "lm_eval", "tasks")
tmp = tempfile.mkdtemp()
os.makedirs(os.path.join(tmp, "evaluate"))
with open(os.path.join(tmp, "evaluate", "__init__.py"), "w") as f:
    f.write("class _CodeEval:\n    def compute(self, references, predictions, k):\n        return ({'pass@%d' % x: 0.0 for x in k}, {})\n\n"
            "def load(name):\n    assert name == 'code_eval'\n    return _CodeEval()\n")
sys.path.insert(0, here)
from gen_requests_tasks import TASKS as tasks  # noqa: E402
inc = os.path.join(tmp, "tasks")
os.makedirs(inc)
for name, f, data in tasks:
    with open(os.path.join(inc, name + "_local.yaml"), "w") as out:
        out.write(f"include: {os.path.join(tree, f)}\ntask: {name}_local\ndataset_path: json\ndataset_name: null\n"
                  f"dataset_kwargs:\n  data_files:\n    test: {os.path.join(here, data)}\n")
sys.path.insert(0, tmp)
sys.path.insert(0, os.path.join(shared, "lm-eval-runner"))
sys.argv = ["run_ref.py"]
import run_ref  # noqa: E402  (sets up lm_eval's import path)
import lm_eval.evaluator as ev  # noqa: E402

orig = ev.evaluate


def evaluate(*a, **k):
    k["confirm_run_unsafe_code"] = True
    return orig(*a, **k)


ev.evaluate = evaluate
dump = os.path.join(tmp, "reqs.jsonl")
rc = run_ref.main(["--tasks", ",".join(n + "_local" for n, _, _ in tasks), "--include_path", inc,
                   "--dump-requests", dump, "--output", os.path.join(tmp, "out.json"), "--no-table"])
if rc:
    sys.exit(rc)
seen = set()
with open(dump) as f, open(os.path.join(here, "requests.jsonl"), "w") as out:
    for line in f:
        r = json.loads(line)
        key = (r["task"], r["doc_id"], r["idx"])
        if key in seen:
            continue  # one line per repeat: keep the first
        seen.add(key)
        r.pop("answer", None)
        r.pop("seq", None)
        out.write(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n")
