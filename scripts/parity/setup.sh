#!/usr/bin/env bash
# setup.sh: the virtual environment of make parity, build/parity/venv.
#
# Every package is pinned in scripts/parity/requirements.txt, the whole
# resolved set, installed with --no-deps: torch's wheel on PyPI is its CUDA
# build, and pip would otherwise add triton, cuSOLVER, NVTX and the CUDA
# Python bindings (about 530 MB) that a CPU run never loads. The nvidia-*
# libraries listed are the ones torch's shared objects link (DT_NEEDED of
# libtorch_cuda.so, libtorch_python.so and libc10_cuda.so): without them
# `import torch` fails (docs/parity.md, "The environment").
#
# --no-compile: pip would byte-compile every module of every package (43
# CPU seconds here, more than unpacking the 2.7 GB of wheels, 26 s);
# Python compiles the few it imports when it imports them.
#
# Wheels are downloaded once into the user's cache
# (${XDG_CACHE_HOME:-~/.cache}/lmeval/parity/wheels) and installed from
# there with --no-index. lm-eval itself is ../shared/lm-eval (the commit
# lmeval follows), copied to build/parity/lm-eval (../shared is read-only)
# and installed editable; without ../shared, PyPI's lm-eval release in
# requirements-fallback.txt, and make parity says so.
#
# usage: scripts/parity/setup.sh          (prints the venv's python on stdout)
#        scripts/parity/setup.sh --fetch  (only downloads the wheels into the
#        cache: CI runs it in the background while it compiles)
set -euo pipefail
fetch_only=0
[ "${1:-}" = --fetch ] && fetch_only=1
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
HERE=$ROOT/scripts/parity
VENV=$ROOT/build/parity/venv
CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/lmeval/parity
WHEELS=$CACHE/wheels
SHARED_LMEVAL=$ROOT/../shared/lm-eval
PY=${PYTHON:-python3}
mkdir -p "$WHEELS" "$ROOT/build/parity"

reqs=("$HERE/requirements.txt")
if [ -d "$SHARED_LMEVAL/lm_eval" ]; then
	lmeval_src="commit $(cat "$SHARED_LMEVAL/COMMIT" 2>/dev/null || echo unknown) (../shared/lm-eval)"
else
	reqs+=("$HERE/requirements-fallback.txt")
	lmeval_src="PyPI $(grep -o 'lm-eval==[^ ]*' "$HERE/requirements-fallback.txt") (no ../shared/lm-eval)"
fi
# The venv is rebuilt when the pins, lm-eval's source or Python change.
stamp=$(cat "${reqs[@]}" <(echo "$lmeval_src") <("$PY" --version 2>&1) | sha256sum | cut -c1-16)
if [ $fetch_only = 0 ] && [ -f "$VENV/.stamp" ] && [ "$(cat "$VENV/.stamp")" = "$stamp" ]; then
	echo "$VENV/bin/python"
	exit 0
fi

t0=$(date +%s)
# pip download skips the files already in $WHEELS, but still asks the index
# about each of them (about a minute); a marker per set of pins says the
# cache holds them all (CI's --fetch, in the background, leaves it).
fetched=$WHEELS/.fetched-$(cat "${reqs[@]}" <("$PY" --version 2>&1) | sha256sum | cut -c1-16)
if [ ! -f "$fetched" ]; then
	"$PY" -m pip download --quiet --no-deps --dest "$WHEELS" "${reqs[@]/#/-r}" >&2
	# Source-only packages (langdetect) become wheels once, so the offline
	# install below needs no build dependencies.
	for sdist in "$WHEELS"/*.tar.gz "$WHEELS"/*.zip; do
		[ -e "$sdist" ] && [ ! -e "$sdist.built" ] || continue
		"$PY" -m pip wheel --quiet --no-deps --wheel-dir "$WHEELS" "$sdist" >&2
		touch "$sdist.built"
	done
	touch "$fetched"
fi
t1=$(date +%s)
if [ $fetch_only = 1 ]; then
	echo "parity wheels: downloads $((t1 - t0)) s, in $WHEELS" >&2
	exit 0
fi
rm -rf "$VENV"
"$PY" -m venv "$VENV"
"$VENV/bin/pip" install --quiet --no-deps --no-index --no-compile --find-links "$WHEELS" "${reqs[@]/#/-r}" >&2
if [ -d "$SHARED_LMEVAL/lm_eval" ]; then
	rm -rf "$ROOT/build/parity/lm-eval"
	mkdir -p "$ROOT/build/parity/lm-eval"
	cp -r "$SHARED_LMEVAL"/{lm_eval,pyproject.toml,README.md,LICENSE.md,COMMIT} "$ROOT/build/parity/lm-eval/"
	chmod -R u+w "$ROOT/build/parity/lm-eval"
	"$VENV/bin/pip" install --quiet --no-deps --no-index --no-compile --no-build-isolation -e "$ROOT/build/parity/lm-eval" >&2
fi
# Fails here, not in the middle of a run, when a pin is missing.
"$VENV/bin/pip" check >&2 || true
"$VENV/bin/python" -c 'import torch, transformers, lm_eval, gguf, datasets' >&2
echo "$lmeval_src" >"$VENV/lm-eval-source"
echo "$stamp" >"$VENV/.stamp"
echo "parity venv: downloads $((t1 - t0)) s, install $(($(date +%s) - t1)) s; lm-eval $lmeval_src" >&2
echo "$VENV/bin/python"
