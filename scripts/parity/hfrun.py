"""The lm-eval side of make parity: lm-eval's Hugging Face backend on a GGUF.

usage (in the parity venv):
  python hfrun.py --gguf FILE --include_path DIR --out DIR --runs RUNS.json
                  [--threads N] [--batch_size B] [--max_length L] [--ggml_gelu]
                  [--dtype float32|float64]

The model is loaded once (HFLM with pretrained=DIR, gguf_file=FILE:
transformers dequantizes the GGUF and builds the tokenizer from it), then
each run of RUNS.json (a list of {"name", "tasks", "limit", "gen_kwargs",
"chat"}; "chat" is {"system_instruction": TEXT} for an instruct run with
--apply_chat_template --fewshot_as_multiturn) is evaluated with
lm_eval.simple_evaluate, as `lm-eval run --model hf` would, with its
default seeds. For each run it writes OUT/<name>/results.json (the results
dict, samples left out), OUT/<name>/samples_<task>.jsonl (lm-eval's logged
samples) and the wall time of the evaluation; OUT/tokenizer is the
tokenizer transformers built from the GGUF (save_pretrained); OUT/timings.json holds
every run's time and the model's load time. A run that fails is recorded
with its error, and the others still run.
"""
import argparse
import json
import os
import sys
import time
import traceback


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gguf", required=True)
    ap.add_argument("--include_path", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--runs", required=True)
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    ap.add_argument("--batch_size", type=int, default=8)
    ap.add_argument("--max_length", type=int, default=2048)
    ap.add_argument("--ggml_gelu", action="store_true",
                    help="compute the tanh GELU as ggml's CPU does (float16 input and table; hfpatch.ggml_gelu)")
    ap.add_argument("--dtype", default="float32", choices=["float32", "float64"],
                    help="transformers' compute type; float64 gives a reference for float32's rounding (docs/parity.md, \"Gemma 3 270M\")")
    a = ap.parse_args()

    t0 = time.time()
    import torch
    torch.set_num_threads(a.threads)
    import hfpatch  # (transformers reads GGUF special ids as llama.cpp does)
    if a.ggml_gelu:
        hfpatch.ggml_gelu()
    import lm_eval
    from lm_eval.models.huggingface import HFLM
    from lm_eval.tasks import TaskManager
    import_s = time.time() - t0

    os.makedirs(a.out, exist_ok=True)
    timings = {"import_s": import_s, "threads": a.threads, "torch": torch.__version__,
               "lm_eval": lm_eval.__version__, "runs": {}}
    import transformers
    timings["transformers"] = transformers.__version__
    t0 = time.time()
    try:
        lm = HFLM(pretrained=os.path.dirname(os.path.abspath(a.gguf)), gguf_file=os.path.basename(a.gguf),
                  dtype=a.dtype, device="cpu", batch_size=a.batch_size, max_length=a.max_length)
    except Exception as e:  # transformers cannot load this architecture or quantization
        timings["load_error"] = f"{type(e).__name__}: {e}"
        traceback.print_exc()
        json.dump(timings, open(os.path.join(a.out, "timings.json"), "w"), indent=1)
        return
    timings["load_s"] = time.time() - t0
    # The tokenizer transformers built from the GGUF, for make parity's
    # tokenizer check (parity.py): loading the saved one costs a fraction
    # of building it again.
    lm.tokenizer.save_pretrained(os.path.join(a.out, "tokenizer"))
    tm = TaskManager(include_path=a.include_path)
    for run in json.load(open(a.runs)):
        d = os.path.join(a.out, run["name"])
        os.makedirs(d, exist_ok=True)
        chat = run.get("chat")
        t0, c0 = time.time(), time.process_time()
        try:
            res = lm_eval.simple_evaluate(
                model=lm, tasks=run["tasks"], limit=run.get("limit"), task_manager=tm,
                log_samples=True, gen_kwargs=run.get("gen_kwargs"),
                apply_chat_template=bool(chat), fewshot_as_multiturn=bool(chat),
                system_instruction=(chat or {}).get("system_instruction"))
        except Exception as e:
            timings["runs"][run["name"]] = {"error": f"{type(e).__name__}: {e}"}
            traceback.print_exc()
            continue
        wall, cpu = time.time() - t0, time.process_time() - c0
        timings["runs"][run["name"]] = {"wall_s": wall, "cpu_s": cpu}
        for task, samples in res.pop("samples").items():
            with open(os.path.join(d, f"samples_{task}.jsonl"), "w") as f:
                for s in samples:
                    f.write(json.dumps(s, default=str, ensure_ascii=False) + "\n")
        json.dump(res, open(os.path.join(d, "results.json"), "w"), default=str, indent=1)
        print(f"hf: {run['name']}: {wall:.1f}s (cpu {cpu:.1f}s)", file=sys.stderr, flush=True)
        # After every run: a run cut short keeps the timings so far.
        json.dump(timings, open(os.path.join(a.out, "timings.json"), "w"), indent=1)
    json.dump(timings, open(os.path.join(a.out, "timings.json"), "w"), indent=1)


if __name__ == "__main__":
    main()
