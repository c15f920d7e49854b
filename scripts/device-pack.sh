#!/usr/bin/env bash
# Writes the device check's pack: everything `scripts/device-check.sh --pack`
# needs on a GPU machine that has a C++ compiler, CMake and the GPU SDK but
# no Go and no network (the H200 this project is sometimes lent: docs/build.md,
# "The GPU machine"), in one file that travels with the working tree:
#
#   scripts/device-pack.sh [OUT]     (default .device/lmeval-device-pack.tar.xz; make device-pack)
#
# pack/ in the file:
#   bin/        lmeval, lmeval-bench, engine.test and lmeval.test (the engine's
#               and cmd/lmeval's tests), built here against build/dl
#               (scripts/native.sh dl: ggml's backends are modules loaded at
#               run time), stripped, with libggml.so.0 and libggml-base.so.0;
#               the GPU backend module (and a CPU module for that machine's
#               processor) is compiled there
#   src/ggml, src/llama   the pinned ggml and llama.cpp sources (scripts/fetch-llama.sh)
#   src/peer    llama.cpp from the llama-cpp-python sdist (PEER_VERSION below),
#               pruned to what cmake/peer needs for llama-perplexity,
#               llama-bench and llama-batched-bench, which are built there;
#               `pip download --no-deps --no-binary :all:` fetches the sdist
#               into build/peer-sdist (git-ignored; nothing of it is committed)
#   models/     stories260K.gguf and vocab/ggml-vocab-llama-spm.gguf, from ../shared/models
#   PACK        what was packed
#
# The file goes where .gitignore ignores it (.device/), so the device tool
# carries it by name (carry: [".device"]). Its size is checked against what
# may travel: 64 MiB less the working tree that travels anyway.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-.device/lmeval-device-pack.tar.xz}
# llama-cpp-python 0.3.17 vendors llama.cpp 49bfddeca (2026-03), the first
# release after the pinned ec98e2002 (2025-12-16): its ggml is at least as
# fast, so ratios against it do not flatter lmeval.
PEER_VERSION=${PEER_VERSION:-0.3.17}
PEER_LLAMA_COMMIT=${PEER_LLAMA_COMMIT:-49bfddeca}
shared=../shared/models
for f in stories260K.gguf vocab/ggml-vocab-llama-spm.gguf; do
	if [ ! -f "$shared/$f" ]; then
		echo "device-pack: $shared/$f is missing (the check's models come from ../shared)" >&2
		exit 1
	fi
done

stage=$(mktemp -d "${TMPDIR:-/tmp}/lmeval-pack.XXXXXX")
trap 'chmod -R u+w "$stage" 2>/dev/null; rm -rf "$stage"' EXIT
p=$stage/pack
mkdir -p "$p/bin" "$p/src" "$p/models/vocab"

# The binaries, against the build with loadable backends.
echo "device-pack: building build/dl and the binaries" >&2
make -s BACKEND=dl native
eval "$(make -s BACKEND=dl env)"
commit=$(sed -n "s/^LMEVAL_LLAMA_COMMIT='\(.*\)'/\1/p" build/dl/cgo.env)
ld="-s -w -X github.com/lmeval/lmeval/engine.LlamaCppCommit=$commit"
go build -trimpath -ldflags "$ld" -o "$p/bin/lmeval" ./cmd/lmeval
go build -trimpath -ldflags "$ld" -o "$p/bin/lmeval-bench" ./cmd/lmeval-bench
go test -c -trimpath -ldflags "$ld" -o "$p/bin/engine.test" ./engine
go test -c -trimpath -ldflags "$ld" -o "$p/bin/lmeval.test" ./cmd/lmeval
cp -P build/dl/bin/libggml.so* build/dl/bin/libggml-base.so* "$p/bin/"

# The pinned sources (read-only in the module cache).
eval "$(scripts/fetch-llama.sh)"
mkdir -p "$p/src/llama" "$p/src/ggml"
cp -r "$LLAMA_SRC/include" "$LLAMA_SRC/src" "$p/src/llama/"
cp -r "$GGML_SRC/include" "$GGML_SRC/src" "$GGML_SRC/cmake" "$p/src/ggml/"
chmod -R u+w "$p/src"

# The peers' llama.cpp.
sdist=build/peer-sdist/llama_cpp_python-$PEER_VERSION.tar.gz
if [ ! -f "$sdist" ]; then
	echo "device-pack: fetching the llama-cpp-python $PEER_VERSION sdist (its vendored llama.cpp)" >&2
	python3 -m pip download --disable-pip-version-check --no-deps --no-binary :all: -d build/peer-sdist "llama-cpp-python==$PEER_VERSION" >&2
fi
top=llama_cpp_python-$PEER_VERSION/vendor/llama.cpp
mkdir -p "$stage/sdist"
tar -xzf "$sdist" -C "$stage/sdist" "$top"
src=$stage/sdist/$top
mkdir -p "$p/src/peer/tools" "$p/src/peer/ggml/src" "$p/src/peer/vendor"
cp -r "$src/CMakeLists.txt" "$src/LICENSE" "$src/cmake" "$src/common" "$src/include" "$src/src" "$p/src/peer/"
cp -r "$src/tools/perplexity" "$src/tools/llama-bench" "$src/tools/batched-bench" "$p/src/peer/tools/"
cp -r "$src/ggml/CMakeLists.txt" "$src/ggml/cmake" "$src/ggml/include" "$p/src/peer/ggml/"
# ggml's sources less the backends the check never builds.
for d in "$src"/ggml/src/*; do
	case $(basename "$d") in
	ggml-sycl | ggml-cann | ggml-opencl | ggml-webgpu | ggml-hexagon | ggml-musa | ggml-zdnn | ggml-zendnn | ggml-openvino | ggml-virtgpu | ggml-metal | ggml-rpc) ;;
	*) cp -r "$d" "$p/src/peer/ggml/src/" ;;
	esac
done
for d in "$src"/vendor/*; do
	case $(basename "$d") in
	miniaudio | stb) ;; # multimodal only
	*) cp -r "$d" "$p/src/peer/vendor/" ;;
	esac
done

cp "$shared/stories260K.gguf" "$p/models/"
cp "$shared/vocab/ggml-vocab-llama-spm.gguf" "$p/models/vocab/"
{
	echo "lmeval device pack"
	echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "lmeval: $(git rev-parse HEAD)$(git diff --quiet HEAD 2>/dev/null || echo ' (with uncommitted changes)')"
	echo "llama.cpp: $commit (pinned; src/ggml, src/llama)"
	echo "peer llama.cpp: $PEER_LLAMA_COMMIT, from llama-cpp-python $PEER_VERSION's sdist (src/peer)"
	go version
	echo "built on: $(uname -srm), $(ldd --version 2>&1 | sed -n 1p)"
	(cd "$p" && find bin models -type f -exec sha256sum {} +)
} >"$p/PACK"

mkdir -p "$(dirname "$out")"
echo "device-pack: compressing" >&2
tar -C "$stage" -cf - pack | xz -9 -T0 >"$out.tmp"
mv "$out.tmp" "$out"
size=$(stat -c %s "$out")
# What travels besides: tracked and untracked, not ignored, files.
tree=$(git ls-files -co --exclude-standard -z | xargs -0 stat -c %s 2>/dev/null | awk '{s += $1} END {print s + 0}')
budget=$((64 * 1024 * 1024 - tree - 1024 * 1024))
echo "device-pack: $out: $((size >> 20)) MiB ($size bytes); the working tree that travels with it: $((tree >> 20)) MiB; room: $((budget >> 20)) MiB" >&2
if [ "$size" -gt "$budget" ]; then
	echo "device-pack: $out is over the 64 MiB that may travel (less the working tree and 1 MiB)" >&2
	exit 1
fi
