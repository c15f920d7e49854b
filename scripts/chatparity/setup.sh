#!/usr/bin/env bash
# Builds build/chatparity-venv: lm-eval (../shared/lm-eval) with its hf extra
# and torch for the CPU, for compare.sh. Needs PyPI; never run by make or make test.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
venv=$root/build/chatparity-venv
lmeval_src=${LMEVAL_SRC:-$root/../shared/lm-eval}
[ -d "$lmeval_src" ] || { echo "setup.sh: lm-eval sources not found at $lmeval_src (set LMEVAL_SRC)" >&2; exit 1; }
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
pip=("$venv/bin/pip" install -q)
# torch's PyPI wheel lists the CUDA runtime as requirements; the CPU has no
# use for them, so torch goes in alone and its other requirements follow.
"${pip[@]}" --no-deps torch==2.15.0
"${pip[@]}" -r "$root/scripts/chatparity/requirements.txt"
# lm-eval at the pinned commit, without re-resolving torch.
"${pip[@]}" --no-deps "$lmeval_src"
echo "setup.sh: $venv ready"
