"""Runs a vector generator against the real packages instead of the stand-ins.

usage (in make parity's venv, from the repository root):
  HF_HUB_OFFLINE=1 HF_DATASETS_OFFLINE=1 \
    build/parity/venv/bin/python scripts/parity/realgen.py ports/<dir>/testdata/gen_vectors.py [args...]

The generators put stand-ins (ports/internal/vectest/pystubs, fidelity/pystubs,
per-port pystubs/) first on sys.path because Debian's Python lacks the packages.
This imports the real packages first, so the later sys.path inserts find them
already in sys.modules and the generator's lm-eval helpers run over the real
code. A package the venv lacks is left to its stand-in and named on stderr.

evaluate.load("bleu") fetches the metric's script from the Hub, which this
machine cannot reach: set EVALUATE_METRICS to the metrics/ directory of a
checkout of github.com/huggingface/evaluate and load(name) reads
$EVALUATE_METRICS/<name>/<name>.py instead (the same script the Hub serves).
Without it, load raises and the generator records that as the helper's error.
"""
import importlib
import os
import runpy
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
REAL = [
    "sacrebleu",
    "rouge_score",
    "rouge_score.rouge_scorer",
    "rouge_score.scoring",
    "evaluate",
    "datasets",
    "math_verify",
    "nltk",
    "langdetect",
    "transformers",
    "transformers.data.metrics.squad_metrics",
    "torch",
    "bert_score",
    "word2number",
]


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    for name in REAL:
        try:
            importlib.import_module(name)
        except Exception as e:  # noqa: BLE001  (missing or broken: say which)
            print(f"realgen: {name}: not in this venv ({type(e).__name__}: {e}); its stand-in stays", file=sys.stderr)
    metrics = os.environ.get("EVALUATE_METRICS")
    if metrics and "evaluate" in sys.modules:
        evaluate = sys.modules["evaluate"]
        hub_load = evaluate.load

        def load(path, *args, **kwargs):
            local = os.path.join(metrics, path)
            if isinstance(path, str) and os.path.isfile(os.path.join(local, path + ".py")):
                path = local
            return hub_load(path, *args, **kwargs)

        evaluate.load = load
    # lmevalref_compat (typing shims the generators import) lives beside the
    # runner's stand-ins; put only that module's directory last on the path.
    runner = os.path.join(ROOT, "..", "shared", "lm-eval-runner", "stubs")
    if os.path.isdir(runner):
        sys.path.append(runner)
    # ports/internal/vectest (vectest.py, vecgen.py) for the generators that
    # import it by name.
    sys.path.append(os.path.join(ROOT, "ports", "internal", "vectest"))
    # fidelity/pystubs/datasets_ext adds to the datasets stand-in methods the
    # real datasets has; loaded over the real one it would replace them.
    if "datasets" in sys.modules:
        sys.modules["datasets_ext"] = type(sys)("datasets_ext")
    gen = sys.argv[1]
    sys.argv = sys.argv[1:]
    sys.path.insert(0, os.path.dirname(os.path.abspath(gen)))
    runpy.run_path(gen, run_name="__main__")


if __name__ == "__main__":
    main()
