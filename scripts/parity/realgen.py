"""Runs a vector generator against the real packages instead of the stand-ins.

usage (in make parity's venv, from the repository root):
  HF_HUB_OFFLINE=1 HF_DATASETS_OFFLINE=1 \
    build/parity/venv/bin/python scripts/parity/realgen.py GENERATOR [ARGS...]

The generators put stand-ins (ports/internal/vectest/pystubs, fidelity/pystubs,
per-port pystubs/) first on sys.path because Debian's Python lacks the
packages. This runs GENERATOR with this Python and realgen_site/ first on
PYTHONPATH: its sitecustomize.py imports the real packages before the
generator starts, in the generator's process and in every Python process it
starts (realgen_site/realgen_setup.py says how, and what else it sets up).
Packages the venv lacks (a transformers 4.x, longbench's jieba, ...) come
from directories put after realgen_site on PYTHONPATH, e.g. a
`pip install --target` directory (scripts/parity/realgen_all.py).

Environment:
  EVALUATE_METRICS  the metrics/ directory of a checkout of
                    github.com/huggingface/evaluate: evaluate.load(name)
                    reads <name>/<name>.py there, the script the Hub serves
                    (the Hub is unreachable here)
  REALGEN_GITHUB    OWNER/NAME=GITDIR[:...]: local bare clones that answer
                    a metric script's downloads from GitHub (bleu.py's
                    nmt_bleu.py from tensorflow/nmt)
"""
import os
import sys

SITE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "realgen_site")


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    path = [os.path.abspath(p) for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([SITE] + path), REALGEN_SITES=os.pathsep.join(path))
    os.execve(sys.executable, [sys.executable] + sys.argv[1:], env)


if __name__ == "__main__":
    main()
