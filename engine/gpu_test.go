package engine

import (
	"context"
	"math"
	"os"
	"testing"
)

// gpuTolerance is how far a GPU backend's log-likelihoods may lie from the
// CPU's for the same requests (per request, in nats): the backends do the
// same arithmetic in other orders and precisions (the Vulkan shaders
// accumulate matrix products in f16/f32 tiles, the CPU in its own blocks).
// Measured on lavapipe (Mesa's software Vulkan device, the CI's) with
// stories260K over mcRequests(48), f16 KV cache: see docs/engine.md.
const gpuTolerance = 2e-3

// gpuDevices returns the GPU devices the engine can offload to, skipping
// the test when there are none, or failing it when LMEVAL_REQUIRE_GPU is
// set (CI sets it for the Vulkan build, so that a build that silently
// runs on the CPU fails there).
func gpuDevices(t *testing.T) []Device {
	t.Helper()
	var gpus []Device
	for _, d := range Devices() {
		if d.Type == "gpu" || d.Type == "igpu" {
			gpus = append(gpus, d)
		}
	}
	if len(gpus) == 0 {
		if os.Getenv("LMEVAL_REQUIRE_GPU") != "" {
			t.Fatalf("LMEVAL_REQUIRE_GPU is set but no GPU device was found (devices: %+v; on lavapipe set GGML_VK_VISIBLE_DEVICES=0)", Devices())
		}
		t.Skip("no GPU device (a CPU build, or no device found)")
	}
	return gpus
}

// TestGPUMatchesCPU loads the model with every layer on the GPU, with a
// part of them, and on the CPU alone (n_gpu_layers 0, which gives
// llama.cpp no device at all), and checks that the log-likelihoods agree
// within gpuTolerance, that greedy generations are the same text, and
// that Info names the device used.
func TestGPUMatchesCPU(t *testing.T) {
	gpus := gpuDevices(t)
	path := storiesPath(t)
	ctx := context.Background()
	reqs := mcRequests(48)
	gen := []GenerateRequest{{Context: "Once upon a time", MaxGenToks: 40}, {Context: "Lily and Tom went to the park.", MaxGenToks: 24, Until: []string{"\n"}}}

	cpu := load(t, path, Options{CPUOnly: true, Threads: 2})
	if in := cpu.Info(); in.Backend != "cpu" || len(in.Devices) != 0 || in.GPULayers != 0 {
		t.Fatalf("CPU-only load: backend %q, devices %v, %d GPU layers; want cpu, none, 0", in.Backend, in.Devices, in.GPULayers)
	}
	want, err := cpu.Loglikelihood(ctx, reqs)
	if err != nil {
		t.Fatal(err)
	}
	wantGen, err := cpu.GenerateUntil(ctx, gen)
	if err != nil {
		t.Fatal(err)
	}

	for _, tc := range []struct {
		name   string
		layers int // 0: all
	}{{"all layers", 0}, {"2 layers", 2}} {
		m := load(t, path, Options{NGPULayers: tc.layers, Threads: 2})
		in := m.Info()
		if len(in.Devices) == 0 || in.Devices[0].Name != gpus[0].Name || in.Backend == "cpu" {
			t.Fatalf("%s: backend %q, devices %+v; want %s", tc.name, in.Backend, in.Devices, gpus[0].Name)
		}
		if wantLayers := map[int]int{0: in.NLayer + 1, 2: 2}[tc.layers]; in.GPULayers != wantLayers {
			t.Errorf("%s: %d GPU layers, want %d", tc.name, in.GPULayers, wantLayers)
		}
		got, err := m.Loglikelihood(ctx, reqs)
		if err != nil {
			t.Fatal(err)
		}
		worst := 0.0
		for i := range reqs {
			d := math.Abs(got[i].LogProb - want[i].LogProb)
			worst = max(worst, d)
			if d > gpuTolerance || got[i].NumTokens != want[i].NumTokens {
				t.Errorf("%s: request %d: %+v, CPU %+v", tc.name, i, got[i], want[i])
			}
		}
		t.Logf("%s on %s (%s): largest log-likelihood difference from the CPU %.3g", tc.name, in.Devices[0].Name, in.Devices[0].Description, worst)
		out, err := m.GenerateUntil(ctx, gen)
		if err != nil {
			t.Fatal(err)
		}
		for i := range gen {
			if out[i] != wantGen[i] {
				t.Errorf("%s: generation %d: %q, CPU %q", tc.name, i, out[i], wantGen[i])
			}
		}
	}
}

// TestGPUAutoSizing checks that --batch_size auto sizes the cache from the
// GPU's reported free memory when every layer is there, not from the
// system's.
func TestGPUAutoSizing(t *testing.T) {
	gpus := gpuDevices(t)
	m := load(t, storiesPath(t), Options{AutoBatch: true, MaxLength: 512})
	in := m.Info()
	if in.FreeMemory <= 0 || in.FreeMemory > int64(gpus[0].Total) {
		t.Fatalf("free memory %d: want the GPU's (%s: %d free of %d)", in.FreeMemory, gpus[0].Name, gpus[0].Free, gpus[0].Total)
	}
	if avail, ok := memAvailable(); ok && avail != int64(gpus[0].Free) && in.FreeMemory == avail {
		t.Errorf("free memory %d is the system's MemAvailable, not the GPU's %d", in.FreeMemory, gpus[0].Free)
	}
	t.Logf("auto: n_ctx %d (max %d) from %d bytes free on %s", in.NCtx, in.NCtxMax, in.FreeMemory, gpus[0].Name)
}
