package engine

import (
	"context"
	"math"
	"os"
	"testing"
)

// gpuTolerance is how far a GPU backend's log-likelihoods may lie from the
// CPU's for the same requests (per request, in nats), both with an f32 KV
// cache: the backends do the same arithmetic in other orders and
// precisions (ggml-vulkan converts activations to f16 for some matrix
// products). On lavapipe (one llvmpipe thread, see lavapipeThreads) the
// requests differ from the CPU by up to 3.6e-2 with the f32 KV cache
// (1.2e-3 for one request with f16 KV), so the bound is 5e-2: far below
// the 0.4-15 nat errors of a multithreaded llvmpipe, and to be narrowed
// from the device check's numbers on a real GPU.
const gpuTolerance = 5e-2

// gpuOpts are the options of the GPU-vs-CPU comparisons.
func gpuOpts(o Options) Options {
	o.TypeK, o.TypeV, o.Threads = "f32", "f32", 2
	return o
}

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
// llama.cpp no device at all), and checks that Settings names the device used
// and the layers on it and, one request per call,
// that the log-likelihoods agree within gpuTolerance and greedy
// generations are the same text.
func TestGPUMatchesCPU(t *testing.T) {
	gpus := gpuDevices(t)
	path := storiesPath(t)
	ctx := context.Background()
	reqs := mcRequests(16)
	gen := []GenerateRequest{{Context: "Once upon a time", MaxGenToks: 40}, {Context: "Lily and Tom went to the park.", MaxGenToks: 24, Until: []string{"\n"}}}
	one := func(m *Model) ([]LoglikelihoodResult, []string) {
		t.Helper()
		var lls []LoglikelihoodResult
		for _, r := range reqs {
			res, err := m.Loglikelihood(ctx, []LoglikelihoodRequest{r})
			if err != nil {
				t.Fatal(err)
			}
			lls = append(lls, res[0])
		}
		var outs []string
		for _, g := range gen {
			out, err := m.GenerateUntil(ctx, []GenerateRequest{g})
			if err != nil {
				t.Fatal(err)
			}
			outs = append(outs, out[0])
		}
		return lls, outs
	}

	cpu := load(t, path, gpuOpts(Options{CPUOnly: true}))
	if in := cpu.Settings(); in.Backend != "cpu" || len(in.Devices) != 0 || in.GPULayers != 0 {
		t.Fatalf("CPU-only load: backend %q, devices %v, %d GPU layers; want cpu, none, 0", in.Backend, in.Devices, in.GPULayers)
	}
	want, wantGen := one(cpu)
	for _, tc := range []struct {
		name   string
		layers int // 0: all
	}{{"all layers", 0}, {"2 layers", 2}} {
		m := load(t, path, gpuOpts(Options{NGPULayers: tc.layers}))
		in := m.Settings()
		if len(in.Devices) == 0 || in.Devices[0].Name != gpus[0].Name || in.Backend == "cpu" {
			t.Fatalf("%s: backend %q, devices %+v; want %s", tc.name, in.Backend, in.Devices, gpus[0].Name)
		}
		if wantLayers := map[int]int{0: in.NLayer + 1, 2: 2}[tc.layers]; in.GPULayers != wantLayers {
			t.Errorf("%s: %d GPU layers, want %d", tc.name, in.GPULayers, wantLayers)
		}
		got, out := one(m)
		worst := 0.0
		for i := range reqs {
			d := math.Abs(got[i].LogProb - want[i].LogProb)
			worst = max(worst, d)
			if d > gpuTolerance || got[i].NumTokens != want[i].NumTokens {
				t.Errorf("%s: request %d: %+v, CPU %+v", tc.name, i, got[i], want[i])
			}
		}
		t.Logf("%s on %s (%s): largest log-likelihood difference from the CPU %.3g", tc.name, in.Devices[0].Name, in.Devices[0].Description, worst)
		for i := range gen {
			if out[i] != wantGen[i] {
				t.Errorf("%s: generation %d: %q, CPU %q", tc.name, i, out[i], wantGen[i])
			}
		}
	}
}

// TestGPUBatchedMatchesCPU is TestGPUMatchesCPU with all 48 requests in
// one call (many sequences per batch, shared prefixes, cells reused as
// sequences finish).
func TestGPUBatchedMatchesCPU(t *testing.T) {
	gpus := gpuDevices(t)
	path := storiesPath(t)
	ctx := context.Background()
	reqs := mcRequests(48)
	want, err := load(t, path, gpuOpts(Options{CPUOnly: true})).Loglikelihood(ctx, reqs)
	if err != nil {
		t.Fatal(err)
	}
	got, err := load(t, path, gpuOpts(Options{})).Loglikelihood(ctx, reqs)
	if err != nil {
		t.Fatal(err)
	}
	worst := 0.0
	for i := range reqs {
		d := math.Abs(got[i].LogProb - want[i].LogProb)
		worst = max(worst, d)
		if d > gpuTolerance {
			t.Errorf("request %d: %+v, CPU %+v", i, got[i], want[i])
		}
	}
	t.Logf("48 requests in one call on %s: largest difference from the CPU %.3g", gpus[0].Name, worst)
}

// TestGPUAutoSizing checks that --batch_size auto sizes the cache from the
// GPU's reported free memory when every layer is there, not from the
// system's.
func TestGPUAutoSizing(t *testing.T) {
	gpus := gpuDevices(t)
	m := load(t, storiesPath(t), Options{AutoBatch: true, MaxLength: 512})
	in := m.Settings()
	if in.FreeMemory <= 0 || in.FreeMemory > int64(gpus[0].Total) {
		t.Fatalf("free memory %d: want the GPU's (%s: %d free of %d)", in.FreeMemory, gpus[0].Name, gpus[0].Free, gpus[0].Total)
	}
	if avail, ok := memAvailable(); ok && avail != int64(gpus[0].Free) && in.FreeMemory == avail {
		t.Errorf("free memory %d is the system's MemAvailable, not the GPU's %d", in.FreeMemory, gpus[0].Free)
	}
	t.Logf("auto: n_ctx %d (max %d) from %d bytes free on %s", in.NCtx, in.NCtxMax, in.FreeMemory, gpus[0].Name)
}

// TestBackends checks Backends against Devices, which lists the devices
// through ggml's device registry rather than its backend registry: every
// device's backend is listed, once, the CPU's among them.
func TestBackends(t *testing.T) {
	bs := Backends()
	seen := map[string]bool{}
	for _, b := range bs {
		if seen[b] {
			t.Errorf("backend %s listed twice: %v", b, bs)
		}
		seen[b] = true
	}
	for _, d := range Devices() {
		if !seen[d.Backend] {
			t.Errorf("device %s of backend %s, which Backends() does not list (%v)", d.Name, d.Backend, bs)
		}
	}
	if !seen["CPU"] {
		t.Errorf("no CPU backend in %v", bs)
	}
}
