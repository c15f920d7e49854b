#!/usr/bin/python3
"""Writes harness/testdata/lmeval_ref/: what the real lm-eval writes with
--output_path and --log_samples for built-in tasks over their fixture
documents (benchmarks/testdata), every request answered with run_ref.py's
constant dummy answers (loglikelihood (-1.0, False), rolling -1.0,
generate_until "").

  samples_<task>.jsonl   lm-eval's samples_<task>_<date>.jsonl, unchanged
  gen_kwargs/samples_gsm8k.jsonl   the same for gsm8k run with
                         --gen_kwargs GEN_KWARGS (new keys join the task's)
  results.json           its results_<date>.json without what depends on the
                         machine or the clock (configs, date, times, env,
                         the runner's own block); the top-level key order is
                         kept in "keys"
  tables.md              lm_eval.utils.make_table of those results (tasks,
                         then groups), rendered by the runner's pytablewriter
                         stand-in: the rows and cells, not the padding, are
                         lm-eval's

The evaluator's tests run the same tasks on the same documents with the
same answers and compare the lines byte for byte. Needs lm-eval set up by
../shared/lm-eval-runner/setup.sh; run from anywhere:

    /usr/bin/python3 harness/testdata/lmeval_ref/gen.py
"""
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
FIX = os.path.join(REPO, "benchmarks", "testdata")
RUNNER = os.path.normpath(os.path.join(REPO, "..", "shared", "lm-eval-runner", "run_ref.py"))
SRC = os.environ.get("LMEVALREF_SRC", "/tmp/lmevalref/src")
LT = os.path.join(SRC, "lm_eval", "tasks")

# task -> (lm-eval YAML, fixture directory, splits)
TASKS = {
    "hellaswag": ("hellaswag/hellaswag.yaml", "hellaswag", ["train", "validation"]),
    "wikitext": ("wikitext/wikitext.yaml", "wikitext", ["train", "validation", "test"]),
    "arc_easy": ("arc/arc_easy.yaml", "arc_easy", ["train", "validation", "test"]),
    "mmlu_abstract_algebra": ("mmlu/default/mmlu_abstract_algebra.yaml", "mmlu/abstract_algebra", ["dev", "validation", "test"]),
    "gsm8k": ("gsm8k/gsm8k.yaml", "gsm8k", ["train", "test"]),
    "winogrande": ("winogrande/default.yaml", "winogrande", ["train", "validation"]),
}
# Groups, shared with the Go test: parity_outer holds parity_group
# (hellaswag, arc_easy) and winogrande.
GROUPS = [os.path.join(HERE, "tasks", g + ".yaml") for g in ("parity_group", "parity_outer")]
GEN_KWARGS = "top_k=3,max_gen_toks=7,do_sample=False"  # also in the Go test

# What depends on the machine or the clock.
DROP = {"configs", "config", "model_source", "lmevalref", "date", "pretty_env_info", "transformers_version", "lm_eval_version",
        "upper_git_hash", "git_hash", "model_name", "model_name_sanitized",
        "total_evaluation_time_seconds"}


def main():
    tmp = tempfile.mkdtemp()
    try:
        inc = os.path.join(tmp, "inc")
        os.makedirs(inc)
        for name, (yaml, fix, splits) in TASKS.items():
            files = "".join(f"    {s}: {os.path.join(FIX, fix, s + '.jsonl')}\n" for s in splits)
            with open(os.path.join(inc, name + ".yaml"), "w") as f:
                f.write(f"include: {os.path.join(LT, yaml)}\ntask: {name}\ndataset_path: json\n"
                        f"dataset_name: null\ndataset_kwargs:\n  data_files:\n{files}")
        for g in GROUPS:
            shutil.copy(g, inc)
        out = os.path.join(tmp, "out")
        tasks = ",".join([t for t in TASKS if t not in ("hellaswag", "arc_easy", "winogrande")] + ["parity_outer"])
        subprocess.run([sys.executable, RUNNER, "--tasks", tasks, "--include_path", inc,
                        "--output", os.path.join(tmp, "ref.json"), "--samples-dir", out,
                        "--no-table", "--dummy", "const"], check=True)
        out2 = os.path.join(tmp, "out2")
        subprocess.run([sys.executable, RUNNER, "--tasks", "gsm8k", "--include_path", inc,
                        "--gen_kwargs", GEN_KWARGS, "--output", os.path.join(tmp, "ref2.json"),
                        "--samples-dir", out2, "--no-table", "--dummy", "const"], check=True)
        os.makedirs(os.path.join(HERE, "gen_kwargs"), exist_ok=True)
        [p] = glob.glob(os.path.join(out2, "samples_gsm8k_*.jsonl"))
        shutil.copy(p, os.path.join(HERE, "gen_kwargs", "samples_gsm8k.jsonl"))
        for p in glob.glob(os.path.join(HERE, "samples_*.jsonl")):
            os.remove(p)
        for p in glob.glob(os.path.join(out, "samples_*.jsonl")):
            task = os.path.basename(p)[len("samples_"):].rsplit("_", 1)[0]
            shutil.copy(p, os.path.join(HERE, f"samples_{task}.jsonl"))
        [res] = glob.glob(os.path.join(out, "results_*.json"))
        with open(res, encoding="utf-8") as f:
            r = json.load(f)
        kept = {"keys": [k for k in r if k != "lmevalref"]}
        kept.update({k: v for k, v in r.items() if k not in DROP})
        with open(os.path.join(HERE, "results.json"), "w", encoding="utf-8") as f:
            json.dump(kept, f, indent=2, ensure_ascii=False)
            f.write("\n")
        for p in (SRC, os.path.join(os.path.dirname(RUNNER), "stubs")):
            sys.path.insert(0, p)
        import lmevalref_compat  # noqa: F401  (the runner's typing shims)
        from lm_eval.utils import make_table
        with open(os.path.join(HERE, "tables.md"), "w", encoding="utf-8") as f:
            f.write(make_table(r) + "\n" + make_table(r, "groups"))
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
