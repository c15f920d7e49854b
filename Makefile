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
# Read by scripts/native.sh (see docs/build.md).
export LLAMA_CPP_DIR JOBS CMAKE_ARGS

# Loads cgo.env, and folds a checksum of the native archives into
# CGO_CFLAGS: Go's build cache does not see C archives named in
# CGO_LDFLAGS, so without it a rebuilt shim would not be relinked.
GOENV = set -a && . ./$(BUILD)/cgo.env && set +a && \
	CGO_CFLAGS="$$CGO_CFLAGS -DLMEVAL_NATIVE_STAMP=$$(cat $$LMEVAL_NATIVE_LIBS | cksum | cut -d' ' -f1)" && \
	export CGO_CFLAGS CGO_ENABLED=1 &&
LDFLAGS = -X lmeval/engine.LlamaCppCommit=$$LMEVAL_LLAMA_COMMIT

.PHONY: all lmeval native test bench cuda metal vulkan env clean

all: lmeval

native:
	scripts/native.sh $(BACKEND)

lmeval: native
	$(GOENV) $(GO) build -ldflags "$(LDFLAGS)" -o lmeval ./cmd/lmeval

test: native
	$(GOENV) $(GO) test -ldflags "$(LDFLAGS)" ./...

# BENCH_ARGS are passed to the benchmark program (see docs/engine.md).
bench: native
	$(GOENV) $(GO) run -ldflags "$(LDFLAGS)" ./cmd/lmeval-bench $(BENCH_ARGS)
	$(GOENV) $(GO) test -ldflags "$(LDFLAGS)" -run '^$$' -bench RegistryCorpus -benchtime 5x ./cmd/lmeval

cuda metal vulkan:
	$(MAKE) BACKEND=$@ lmeval

# Prints the environment for running go commands by hand:
#   eval "$(make -s env)" && go test ./engine
env: native
	@$(GOENV) printf 'export CGO_CFLAGS=%q CGO_LDFLAGS=%q CGO_ENABLED=1\n' "$$CGO_CFLAGS" "$$CGO_LDFLAGS"

clean:
	rm -rf build lmeval
