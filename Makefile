# lmeval: make builds ./lmeval (CPU); make test runs every Go test.
#
# The native engine (llama.cpp, ggml, csrc/) is built by CMake into
# build/$(BACKEND)/, which also writes cgo.env: the cgo flags every Go
# command below uses. CMake rebuilds only what changed, so a second make
# does not rebuild llama.cpp.

SHELL := /bin/bash
BACKEND ?= cpu
BUILD := build/$(BACKEND)
GO ?= go
# Packages `make test` runs (CI runs the engine's and the end-to-end ones
# again against the Vulkan build).
TESTPKGS ?= ./...
# Extra go test flags, shell-quoted: TESTFLAGS="-run 'GPU|RunDevice' -v".
TESTFLAGS ?=
# Read by scripts/native.sh (see docs/build.md).
export LLAMA_CPP_DIR JOBS CMAKE_ARGS CUDA_TOOLKIT

# Loads cgo.env, and folds a checksum of the native archives into
# CGO_CFLAGS: Go's build cache does not see C archives named in
# CGO_LDFLAGS, so without it a rebuilt shim would not be relinked.
GOENV = set -a && . ./$(BUILD)/cgo.env && set +a && \
	CGO_CFLAGS="$$CGO_CFLAGS -DLMEVAL_NATIVE_STAMP=$$(cat $$LMEVAL_NATIVE_LIBS | cksum | cut -d' ' -f1)" && \
	export CGO_CFLAGS CGO_ENABLED=1 &&
LDFLAGS = -X github.com/lmeval/lmeval/engine.LlamaCppCommit=$$LMEVAL_LLAMA_COMMIT

.PHONY: all lmeval native test bench bench-engine parity bundle device-check device-pack cuda metal vulkan env clean chat-vectors

all: lmeval

native:
	scripts/native.sh $(BACKEND)

lmeval: native
	$(GOENV) $(GO) build -ldflags "$(LDFLAGS)" -o lmeval ./cmd/lmeval

test: native
	$(GOENV) $(GO) test -ldflags "$(LDFLAGS)" $(TESTFLAGS) $(TESTPKGS)

# BENCH_ARGS are passed to the benchmark program (see docs/engine.md).
# bench-engine is that program alone (scripts/device-check.sh runs it on a
# GPU); bench adds the task registry, the bootstrap and lm-eval's HF
# backend side by side.
bench: bench-engine
	$(GOENV) $(GO) test -ldflags "$(LDFLAGS)" -run '^$$' -bench RegistryCorpus -benchtime 5x ./cmd/lmeval
	$(GO) test -run '^$$' -bench Bootstrap -benchtime 3x ./stats
	scripts/parity/bench.sh ./lmeval

bench-engine: lmeval
	$(GOENV) $(GO) run -ldflags "$(LDFLAGS)" ./cmd/lmeval-bench $(BENCH_ARGS)

# lmeval beside lm-eval's Hugging Face backend on the same GGUF files
# (docs/parity.md): needs PyPI the first time (a venv under build/parity,
# wheels and models cached under ~/.cache/lmeval/parity); fails on a
# difference beyond the documented tolerances.
parity: lmeval
	scripts/parity/run.sh ./lmeval

# The offline bundle for a GPU machine (docs/build.md): the repository at
# HEAD and every module the build needs, in build/lmeval-bundle.tar.gz.
bundle:
	scripts/bundle.sh build/lmeval-bundle.tar.gz

# Builds BACKEND (default cuda here), runs the GPU tests and the bench
# side by side with the CPU, and writes build/device-check/report.md.
device-check:
	scripts/device-check.sh --backend $(if $(filter cpu,$(BACKEND)),cuda,$(BACKEND)) --out build/device-check

# The device check's pack for a GPU machine without Go or network
# (docs/build.md, "The GPU machine"): .device/lmeval-device-pack.tar.xz,
# run there as scripts/device-check.sh --pack <it>.
device-pack:
	scripts/device-pack.sh

cuda metal vulkan:
	$(MAKE) BACKEND=$@ lmeval

# Renders chat/testdata's templates with transformers (needs PyPI; never
# run by make or make test): chat/testdata/vectors, docs/chat.md.
chat-vectors:
	test -x build/chattemplates-venv/bin/python || (python3 -m venv build/chattemplates-venv && build/chattemplates-venv/bin/pip install -q -r scripts/chattemplates/requirements.txt)
	build/chattemplates-venv/bin/python scripts/chattemplates/gen_vectors.py

# Prints the environment for running go commands by hand:
#   eval "$(make -s env)" && go test ./engine
env: native
	@$(GOENV) printf 'export CGO_CFLAGS=%q CGO_LDFLAGS=%q CGO_ENABLED=1\n' "$$CGO_CFLAGS" "$$CGO_LDFLAGS"

clean:
	rm -rf build lmeval
