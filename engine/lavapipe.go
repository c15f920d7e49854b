package engine

import "os"

// lavapipeThreads keeps Mesa's software Vulkan device (lavapipe, llvmpipe)
// to one worker thread unless the user chose otherwise. With its default
// of one thread per core, ggml-vulkan's log-likelihoods come out 0.4 to 15
// nats wrong for a few requests in every 16, different ones from run to
// run; with LP_NUM_THREADS=1 (or 0) every request agrees with the CPU
// build within gpuTolerance, and clearing the KV cache between requests
// changed nothing, so the fault lies in how llvmpipe runs ggml-vulkan's
// shaders across threads, not in the engine's cell reuse (measured on
// Debian 12's Mesa 22.3, LLVM 15; docs/engine.md, "GPU backends"). Mesa
// reads the variable when the Vulkan instance is created, which is after
// this runs (nativeInit comes before any ggml call); it has no effect on
// any other driver.
func lavapipeThreads() {
	if _, set := os.LookupEnv("LP_NUM_THREADS"); !set {
		os.Setenv("LP_NUM_THREADS", "1")
	}
}
