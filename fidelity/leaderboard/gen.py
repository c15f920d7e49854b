#!/usr/bin/env python3
"""The Open LLM Leaderboard end to end, from the real lm-eval, for
fidelity/leaderboard_test.go.

usage (from the repository root):
  PYTHONPATH=../shared/lm-eval-runner/stubs:/tmp/lmevalref/src:ports/testdata/dscache \
    /usr/bin/python3 fidelity/leaderboard/gen.py ../shared/lm-eval

1. Writes documents for every dataset the `leaderboard` group reads, in each
   dataset's real schema (column names and types), under data/<dataset>/
   <config>/<split>.jsonl, and data/manifest.json listing them.
2. Runs lm-eval's real evaluator (lm-eval-runner's run_ref.py, in this
   process) on `--tasks leaderboard --limit 2` with the leaderboard's own
   YAML, unchanged: datasets.load_dataset(path=<Hub name>, name=<config>) is
   answered from those files (the Go test serves the same files from a fake
   Hub under the same names). First the requests are dumped, then answers
   made from them as fidelity/gen.py makes them (a function of the request
   alone) are replayed for the metrics.
3. Writes expected.json: every request with its answer, and what lm-eval
   reports (results, groups, group_subtasks, n-shot, versions,
   higher_is_better) and prints (the results and groups tables).
"""
import contextlib
import io
import json
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DATA = os.path.join(HERE, "data")

sys.path.insert(0, os.path.dirname(HERE))
import gen as fidgen  # noqa: E402  (fidelity/gen.py: the answers)
import lmevalref_compat  # noqa: E402,F401  (lm-eval-runner's shims for Debian's typing_extensions)

# math_verify is not in Debian: a stand-in good for the plain answers below
# (stubs/math_verify.py). lm-eval's math utils also want antlr4 4.11.
sys.path.insert(0, os.path.join(HERE, "stubs"))
import importlib.metadata as _md  # noqa: E402

_version = _md.version
_md.version = lambda n: "4.11.0" if n == "antlr4-python3-runtime" else _version(n)
# nltk: Debian's 3.8 and NLTK's English Punkt parameters, as ifeval's
# vectors are made (ports/ifeval/testdata/refsetup.py).
sys.path.insert(0, os.path.join(ROOT, "ports", "ifeval", "testdata"))
import refsetup  # noqa: E402,F401

# Generations are drawn from these (cut at the task's stop strings): MATH
# answers in the leaderboard's format, right and wrong, and ifeval-style
# responses.
ANSWERS = [
    "We compute. Final Answer: The final answer is $5$. I hope it is correct.",
    "The sum is $\\boxed{12}$.\nFinal Answer: The final answer is $12$. I hope it is correct.",
    "Final Answer: The final answer is $\\frac{1}{2}$. I hope it is correct.",
    "I do not know.",
    "HELLO WORLD. THIS IS ALL IN CAPITALS.",
    "my answer, in lower case, has a comma. P.S. thanks",
    "<<Title>>\nSection 1\nFirst paragraph.\n\n***\n\nSecond paragraph with *highlighted* text.",
]


def rows_mmlu_pro():
    cats = ["law", "math", "biology", "history", "physics", "economics"]
    rows = []
    for i in range(10):
        opts = [f"option {chr(97 + j)} of question {i}" for j in range(4 + i % 7)]
        a = (i * 3) % len(opts)
        rows.append({"question_id": 70 + i, "question": f"Question {i}: which option is right about {cats[i % 6]}?",
                     "options": opts, "answer": "ABCDEFGHIJ"[a], "answer_index": a,
                     "cot_content": "" if i >= 6 else f"A: Let's think step by step. The answer is ({'ABCDEFGHIJ'[a]}).",
                     "category": cats[i % 6], "src": f"ori_mmlu-{cats[i % 6]}"})
    return {"default": {"validation": rows[:6], "test": rows[6:]}}


def rows_bbh(tasks_dir):
    from lm_eval.tasks._yaml_loader import load_yaml

    d = os.path.join(tasks_dir, "leaderboard", "bbh_mc")
    out = {}
    for f in sorted(os.listdir(d)):
        if not f.endswith(".yaml") or f.startswith("_"):
            continue
        cfg = load_yaml(os.path.join(d, f), resolve_func=False)
        choices = cfg["doc_to_choice"]
        name = cfg["dataset_name"]
        out[name] = {"test": [{"input": f"{name.replace('_', ' ')} question {i}: pick one of {', '.join(choices[:3])}.",
                               "target": choices[(i * 5 + len(name)) % len(choices)]} for i in range(3)]}
    return out


def rows_gpqa():
    out = {}
    for k, cfg in enumerate(["gpqa_diamond", "gpqa_extended", "gpqa_main"]):
        rows = []
        for i in range(3):
            rows.append({
                "Pre-Revision Question": f"Old question {i}?",
                "Pre-Revision Correct Answer": "old right",
                "Question": f"{cfg} question {i}: what is the value of the constant [citation] in case {i + k}?",
                "Correct Answer": f"right answer {i} [ref]",
                "Incorrect Answer 1": f"wrong answer {i}a",
                "Incorrect Answer 2": f" wrong  answer {i}b ",
                "Incorrect Answer 3": f"wrong answer {i}c [title] more",
                "Explanation": "Because.",
                "Record ID": f"rec{k}{i}",
                "High-level domain": ["Physics", "Chemistry", "Biology"][i],
                "Subdomain": "General",
            })
        out[cfg] = {"train": rows}
    return out


def rows_math():
    subjects = {"algebra": "Algebra", "counting_and_probability": "Counting & Probability", "geometry": "Geometry",
                "intermediate_algebra": "Intermediate Algebra", "number_theory": "Number Theory",
                "prealgebra": "Prealgebra", "precalculus": "Precalculus"}
    answers = ["5", "12", "\\frac{1}{2}", "7"]
    out = {}
    for k, (cfg, typ) in enumerate(subjects.items()):
        test = []
        for i in range(4):
            a = answers[(i + k) % 4]
            test.append({"problem": f"{typ} problem {i}: compute the quantity.",
                         "level": "Level 3" if i == 1 else "Level 5", "type": typ,
                         "solution": f"Working it out gives $\\boxed{{{a}}}$."})
        out[cfg] = {"train": [{"problem": "Train problem.", "level": "Level 5", "type": typ,
                               "solution": "It is $\\boxed{1}$."}], "test": test}
    return out


def rows_musr():
    splits = {}
    for s, q in (("murder_mysteries", "Who is the most likely murderer?"),
                 ("object_placements", "Which location is the most likely place Anna would look to find the keys?"),
                 ("team_allocation", "Given the story, how would you uniquely allocate each person to make sure both tasks are accomplished efficiently?")):
        rows = []
        for i in range(3):
            choices = [f"{s} choice {j}" for j in range(2 + i)]
            rows.append({"narrative": f"A long story about {s} number {i}.\nIt has two lines.", "question": q,
                         "choices": repr(choices), "answer_index": i % len(choices), "answer_choice": choices[i % len(choices)]})
        splits[s] = rows
    return {"default": splits}


def rows_ifeval():
    return {"default": {"train": [
        {"key": 1000, "prompt": "Write a short poem about the sea. Your entire response should be in English, and in all capital letters.",
         "instruction_id_list": ["change_case:english_capital"], "kwargs": [{}]},
        {"key": 1001, "prompt": "Describe a cat in lower case letters only, with at least 2 commas? No: without commas. At the end add a postscript starting with P.S.",
         "instruction_id_list": ["change_case:english_lowercase", "detectable_content:postscript"],
         "kwargs": [{}, {"postscript_marker": "P.S."}]},
        {"key": 1002, "prompt": "Write a title in double angular brackets and two paragraphs separated by ***.",
         "instruction_id_list": ["detectable_format:title", "length_constraints:number_paragraphs"],
         "kwargs": [{}, {"num_paragraphs": 2}]},
    ]}}


DATASETS = {
    "TIGER-Lab/MMLU-Pro": rows_mmlu_pro,
    "SaylorTwift/bbh": None,  # from the task files' choices
    "Idavidrein/gpqa": rows_gpqa,
    "DigitalLearningGmbH/MATH-lighteval": rows_math,
    "TAUR-Lab/MuSR": rows_musr,
    "wis-k/instruction-following-eval": rows_ifeval,
}


def write_data(tasks_dir):
    manifest = {}
    for path, fn in DATASETS.items():
        configs = rows_bbh(tasks_dir) if fn is None else fn()
        manifest[path] = {}
        for cfg, splits in configs.items():
            manifest[path][cfg] = {}
            for split, rows in splits.items():
                rel = os.path.join(path, cfg, split + ".jsonl")
                os.makedirs(os.path.dirname(os.path.join(DATA, rel)), exist_ok=True)
                with open(os.path.join(DATA, rel), "w", encoding="utf-8") as f:
                    for r in rows:
                        f.write(json.dumps(r, ensure_ascii=False) + "\n")
                manifest[path][cfg][split] = rel
    with open(os.path.join(DATA, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
        f.write("\n")
    return manifest


CACHE = {}


def patch_datasets(manifest):
    import datasets

    orig = datasets.load_dataset

    def load_dataset(path=None, name=None, *args, **kwargs):
        if path in manifest:
            files = manifest[path][name or "default"]
            return orig("json", data_files={s: os.path.join(DATA, f) for s, f in files.items()}, **CACHE)
        return orig(path, name, *args, **kwargs)

    datasets.load_dataset = load_dataset


def run_ref(argv):
    runner = os.path.join(LMEVAL, "..", "lm-eval-runner")
    sys.path.insert(0, runner)
    import run_ref as rr

    err = io.StringIO()
    # Each run a first run: with the real datasets (scripts/parity/realgen.py)
    # an empty map cache, as ports/testdata/dscache starts the stand-in's.
    with tempfile.TemporaryDirectory() as cache, contextlib.redirect_stderr(err):
        CACHE["cache_dir"] = cache
        rr.main(argv)
    return err.getvalue()


def main():
    global LMEVAL
    LMEVAL = os.path.abspath(sys.argv[1])
    tasks_dir = os.path.join(LMEVAL, "lm_eval", "tasks")
    manifest = write_data(tasks_dir)
    patch_datasets(manifest)
    case = {"answers": ANSWERS}
    with tempfile.TemporaryDirectory() as tmp:
        reqs = os.path.join(tmp, "reqs.jsonl")
        base = ["--tasks", "leaderboard", "--limit", "2", "--output", os.path.join(tmp, "out.json")]
        run_ref(base + ["--no-table", "--dump-requests", reqs])
        requests = [json.loads(line) for line in open(reqs)]
        by_task = {}
        for r in requests:
            r["answer"] = fidgen.answer_of(case, r)
            by_task.setdefault(r["task"], []).append(r)
        sdir = os.path.join(tmp, "samples")
        os.makedirs(sdir)
        for n, rs in by_task.items():
            rs.sort(key=lambda r: (r["doc_id"], r["idx"]))
            docs = {}
            for r in rs:
                docs.setdefault(r["doc_id"], []).append(r)
            with open(os.path.join(sdir, f"samples_{n}_2000-01-01T00-00-00.000000.jsonl"), "w") as f:
                for d, rr in docs.items():
                    f.write(json.dumps({"doc_id": d, "arguments": [r["arguments"] for r in rr],
                                        "resps": [[r["answer"]] for r in rr],
                                        "filtered_resps": [r["answer"] for r in rr]}, ensure_ascii=False) + "\n")
        log = run_ref(base + ["--replay", sdir])
        res = json.load(open(os.path.join(tmp, "out.json")))
    # The tables lm-eval's CLI prints (make_table), as run_ref.py prints them.
    from lm_eval import utils as lm_utils

    tables = lm_utils.make_table(res) + "\n"
    if "groups" in res:
        tables += lm_utils.make_table(res, "groups") + "\n"
    out = {
        "generated_by": "fidelity/leaderboard/gen.py (lm-eval " + res["lmevalref"]["lm_eval_commit"] + ")",
        "requests": [{k: r[k] for k in ("task", "doc_id", "idx", "request_type", "arguments", "answer")} for r in requests],
        "results": res["results"],
        "groups": res.get("groups", {}),
        "group_subtasks": res.get("group_subtasks", {}),
        "n-shot": res["n-shot"],
        "versions": res["versions"],
        "higher_is_better": res["higher_is_better"],
        "tables": tables,
    }
    with open(os.path.join(HERE, "expected.json"), "w", encoding="utf-8") as f:
        json.dump(out, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(tables)
    print(f"{len(requests)} requests; wrote {os.path.join(HERE, 'expected.json')}")


if __name__ == "__main__":
    main()
