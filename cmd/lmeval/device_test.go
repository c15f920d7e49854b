package main

import (
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/lmeval/lmeval/engine"
)

// TestRunDevice runs the binary on toy_mc with --device cpu and, when the
// build found a GPU, --device vulkan/cuda/metal (the one built): the
// results' lmeval.engine block names the devices used (none on the CPU),
// and the per-sample log-likelihoods agree within the engine's GPU
// tolerance (5e-2 with an f32 KV cache, docs/engine.md). Without a GPU only the CPU half runs,
// unless LMEVAL_REQUIRE_GPU is set (CI's Vulkan job), which makes that a
// failure.
func TestRunDevice(t *testing.T) {
	path := storiesPath(t)
	bin := buildBinary(t)
	var gpu *engine.Device
	for _, d := range engine.Devices() {
		if d.Type == "gpu" || d.Type == "igpu" {
			gpu = &d
			break
		}
	}
	run := func(device string) (map[string]any, []map[string]any) {
		t.Helper()
		outDir := t.TempDir()
		cmd := exec.Command(bin, "run", "--model_args", "pretrained="+path+",type_k=f32,type_v=f32", "--device", device,
			"--tasks", "toy_mc", "--include_path", "testdata/tasks", "--output_path", outDir, "--log_samples")
		cmd.Dir = harnessDir
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("lmeval run --device %s: %v\nstderr:\n%s", device, err, stderr.String())
		}
		files, _ := filepath.Glob(filepath.Join(outDir, "*", "results_*.json"))
		samples, _ := filepath.Glob(filepath.Join(outDir, "*", "samples_toy_mc_*.jsonl"))
		if len(files) != 1 || len(samples) != 1 {
			t.Fatalf("--device %s: results %v, samples %v", device, files, samples)
		}
		data, err := os.ReadFile(files[0])
		if err != nil {
			t.Fatal(err)
		}
		var top map[string]any
		if err := json.Unmarshal(data, &top); err != nil {
			t.Fatal(err)
		}
		return top["lmeval"].(map[string]any)["engine"].(map[string]any), readLines(t, samples[0])
	}
	cpuEngine, cpuSamples := run("cpu")
	if cpuEngine["device"] != "cpu" || len(cpuEngine["devices"].([]any)) != 0 {
		t.Errorf("--device cpu: engine block device %v, devices %v; want cpu and none", cpuEngine["device"], cpuEngine["devices"])
	}
	if gpu == nil {
		if os.Getenv("LMEVAL_REQUIRE_GPU") != "" {
			t.Fatalf("LMEVAL_REQUIRE_GPU is set but no GPU device was found: %+v", engine.Devices())
		}
		t.Skip("no GPU device: only --device cpu checked")
	}
	backend := strings.ToLower(gpu.Backend)
	gpuEngine, gpuSamples := run(backend)
	devs, _ := gpuEngine["devices"].([]any)
	if gpuEngine["device"] != backend || len(devs) == 0 || devs[0].(map[string]any)["name"] != gpu.Name {
		t.Fatalf("--device %s: engine block device %v, devices %v; want %s on %s", backend, gpuEngine["device"], devs, backend, gpu.Name)
	}
	if len(gpuSamples) != len(cpuSamples) {
		t.Fatalf("%d samples on the GPU, %d on the CPU", len(gpuSamples), len(cpuSamples))
	}
	for i := range cpuSamples {
		c, g := cpuSamples[i]["resps"].([]any), gpuSamples[i]["resps"].([]any)
		for k := range c {
			lc, lg := sampleLogLik(t, c[k]), sampleLogLik(t, g[k])
			if math.Abs(lc-lg) > 5e-2 {
				t.Errorf("sample %d, choice %d: log-likelihood %v on %s, %v on the CPU", i, k, lg, gpu.Name, lc)
			}
		}
	}
}

// sampleLogLik reads a loglikelihood response as the samples file writes
// it, lm-eval's way: [["-8.44", "False"]] (strings).
func sampleLogLik(t *testing.T, resp any) float64 {
	t.Helper()
	pair, _ := resp.([]any)
	if len(pair) == 1 {
		pair, _ = pair[0].([]any)
	}
	if len(pair) != 2 {
		t.Fatalf("response %v is not [[logprob, is_greedy]]", resp)
	}
	s, _ := pair[0].(string)
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("response %v: %v", resp, err)
	}
	return v
}

// TestRunDeviceNotBuilt: --device naming a backend this binary was built
// without (or a device it does not have) fails before the model loads,
// naming the backends it has and how to build the one asked for, instead
// of running on the CPU while the results say n_gpu_layers=999.
func TestRunDeviceNotBuilt(t *testing.T) {
	path := storiesPath(t)
	have := map[string]int{} // backend (lower case) -> devices
	for _, d := range engine.Devices() {
		have[strings.ToLower(d.Backend)]++
	}
	gpus := len(engine.Devices()) - have["cpu"]
	t.Chdir(harnessDir)
	cases := []struct{ device, backend, build string }{
		{"cuda", "cuda", "make cuda"},
		{"cuda:0", "cuda", "make cuda"},
		{"vulkan:3", "vulkan", "make vulkan"},
		{"metal", "metal", "make metal"},
		{"mps", "metal", "make metal"},
		{"gpu", "", "make cuda"},
		{"gpu:7", "", "make cuda"},
	}
	tested := 0
	for _, c := range cases {
		want := []string{"--device " + c.device, "cpu"}
		switch {
		case c.backend == "" && c.device == "gpu" && gpus > 0:
			continue // a GPU is there
		case c.backend == "" && c.device == "gpu:7" && gpus > 7:
			continue
		case c.backend == "" && c.device == "gpu:7" && gpus > 0:
			want = append(want, "device 7")
		case c.backend != "" && have[c.backend] > 0:
			if i := strings.Index(c.device, ":"); i < 0 || have[c.backend] > int(c.device[i+1]-'0') {
				continue // built and present
			}
			want = append(want, "device "+c.device[strings.Index(c.device, ":")+1:])
		default:
			want = append(want, c.build, "docs/build.md")
		}
		tested++
		out, err := runApp(t, "run", "--model_args", "pretrained="+path, "--device", c.device, "--tasks", "toy_mc",
			"--include_path", "testdata/tasks", "--no_progress")
		if err == nil {
			t.Errorf("--device %s: ran (on the CPU) on a build whose devices are %v:\n%s", c.device, engine.Devices(), out)
			continue
		}
		for _, w := range want {
			if !strings.Contains(strings.ToLower(err.Error()), strings.ToLower(w)) {
				t.Errorf("--device %s: error %q lacks %q", c.device, err, w)
			}
		}
	}
	if tested == 0 {
		t.Skip("this build has every backend asked for")
	}
}
