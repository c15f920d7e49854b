"""The speed runs of make bench's side-by-side (scripts/parity/bench.sh):
lm-eval's own task YAML over enough hand-made documents that neither
program's fixed costs (process start, model load, reading the task tree)
decide the ratio.

The fidelity documents (tasks.py) are 3 to 12 per task: right for
comparing numbers, too few for timing. These documents are made from a
seeded generator in each dataset's real schema, with the lengths of the
real datasets (words per field, four choices, the real few-shot splits):

  spd_arc_easy        arc_easy, 0-shot          N_MC questions
  spd_hellaswag       hellaswag, 0-shot         N_MC questions
  spd_mmlu_anatomy    mmlu anatomy, 5-shot      N_MC / 2 questions
  spd_gsm8k           gsm8k, 5-shot, generation N_GEN questions

Their words come from the fidelity documents' own text (real English
words, so the tokenizers split them as they split real text); the sentences
are random. Every document is distinct: lmeval merges identical requests,
and that would flatter it.
"""
import json
import os
import random
import re

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
FID = os.path.join(ROOT, "fidelity", "testdata")


def _words():
    words = set()
    for fam in ("arc", "hellaswag", "mmlu", "gsm8k", "piqa", "winogrande", "truthfulqa", "lambada"):
        d = os.path.join(FID, fam, "data")
        if not os.path.isdir(d):
            continue
        for f in sorted(os.listdir(d)):
            if f.endswith(".jsonl"):
                words.update(re.findall(r"[A-Za-z]{2,}", open(os.path.join(d, f), encoding="utf-8").read()))
    return sorted(words)


class _Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)
        self.words = _words()

    def sentence(self, lo, hi, end="."):
        n = self.r.randint(lo, hi)
        ws = [self.r.choice(self.words).lower() for _ in range(n)]
        return " ".join(ws).capitalize() + end

    def number(self):
        return self.r.randint(2, 90)


def _dump(path, rows):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")


def _arc(g, n):
    rows = []
    for i in range(n):
        rows.append({"id": f"spd_{i}", "question": g.sentence(12, 28, "?"),
                     "choices": {"text": [g.sentence(2, 7, "") for _ in range(4)], "label": ["A", "B", "C", "D"]},
                     "answerKey": "ABCD"[i % 4]})
    return rows


def _hellaswag(g, n):
    rows = []
    for i in range(n):
        ctx_a, ctx_b = g.sentence(12, 30), g.sentence(1, 4, "").lower()
        rows.append({"ind": i, "activity_label": g.sentence(1, 3, ""), "ctx_a": ctx_a, "ctx_b": ctx_b,
                     "ctx": ctx_a + " " + ctx_b, "endings": [g.sentence(8, 22) for _ in range(4)],
                     "source_id": f"spd~{i}", "split": "val", "split_type": "indomain", "label": str(i % 4)})
    return rows


def _mmlu(g, n, subject):
    return [{"question": g.sentence(10, 35, "?"), "subject": subject,
             "choices": [g.sentence(1, 8, "") for _ in range(4)], "answer": i % 4} for i in range(n)]


def _gsm8k(g, n):
    rows = []
    for i in range(n):
        a, b, c = g.number(), g.number(), g.number()
        q = (f"{g.sentence(6, 14)} {g.sentence(5, 12)[:-1]} {a} {g.r.choice(g.words).lower()}. "
             f"{g.sentence(5, 12)[:-1]} {b} more and {c} fewer. How many {g.r.choice(g.words).lower()} are left?")
        steps = [f"{g.sentence(4, 10)[:-1]} {a} + {b} = {a + b}.", f"{g.sentence(4, 10)[:-1]} {a + b} - {c} = {a + b - c}."]
        rows.append({"question": q, "answer": "\n".join(steps) + f"\n#### {a + b - c}"})
    return rows


def write(tasks_dir, out_dir, n_mc=150, n_gen=30, seed=1234):
    """Writes the documents and wrapper YAMLs into out_dir; returns the
    runs ({"name", "tasks", "kind"}), as tasks.write does."""
    g = _Gen(seed)
    data = os.path.join(out_dir, "data")
    _dump(os.path.join(data, "arc_test.jsonl"), _arc(g, n_mc))
    _dump(os.path.join(data, "arc_train.jsonl"), _arc(g, 5))
    _dump(os.path.join(data, "arc_validation.jsonl"), _arc(g, 5))
    _dump(os.path.join(data, "hellaswag_validation.jsonl"), _hellaswag(g, n_mc))
    _dump(os.path.join(data, "hellaswag_train.jsonl"), _hellaswag(g, 5))
    _dump(os.path.join(data, "mmlu_anatomy_test.jsonl"), _mmlu(g, max(n_mc // 2, 1), "anatomy"))
    _dump(os.path.join(data, "mmlu_anatomy_dev.jsonl"), _mmlu(g, 5, "anatomy"))
    _dump(os.path.join(data, "gsm8k_test.jsonl"), _gsm8k(g, n_gen))
    _dump(os.path.join(data, "gsm8k_train.jsonl"), _gsm8k(g, 8))
    specs = [
        ("spd_arc_easy", "arc/arc_easy.yaml", {"test": "arc_test.jsonl", "train": "arc_train.jsonl", "validation": "arc_validation.jsonl"}, None, "mc"),
        ("spd_hellaswag", "hellaswag/hellaswag.yaml", {"validation": "hellaswag_validation.jsonl", "train": "hellaswag_train.jsonl"}, None, "mc"),
        ("spd_mmlu_anatomy", "mmlu/default/mmlu_anatomy.yaml", {"test": "mmlu_anatomy_test.jsonl", "validation": "mmlu_anatomy_test.jsonl", "dev": "mmlu_anatomy_dev.jsonl"}, 5, "mc"),
        ("spd_gsm8k", "gsm8k/gsm8k.yaml", {"test": "gsm8k_test.jsonl", "train": "gsm8k_train.jsonl"}, None, "gen"),
    ]
    runs = []
    for task, include, files, shots, kind in specs:
        lines = [f"include: {os.path.join(tasks_dir, include)}", f"task: {task}", "dataset_path: json",
                 "dataset_name: null", "dataset_kwargs:", "  data_files:"]
        lines += [f"    {split}: {json.dumps(os.path.join(data, f))}" for split, f in files.items()]
        if shots is not None:
            lines.append(f"num_fewshot: {shots}")
        open(os.path.join(out_dir, task + ".yaml"), "w").write("\n".join(lines) + "\n")
        runs.append({"name": task, "tasks": [task], "kind": kind})
    return runs
