package main

import (
	"fmt"
	"strings"

	_ "github.com/lmeval/lmeval/backend/dummy" // registers the "dummy" model
	_ "github.com/lmeval/lmeval/backend/llama" // registers the "llama" and "gguf" models
	"github.com/lmeval/lmeval/engine"
	"github.com/lmeval/lmeval/harness/config"
	"github.com/lmeval/lmeval/internal/units"
)

func init() {
	engineInfo = func() (string, string) { return engine.LlamaCppCommit, engine.SystemInfo() }
	engineBackends = func() []string {
		devices := map[string]int{}
		for _, d := range engine.Devices() {
			devices[d.Backend]++
		}
		var out []string
		for _, b := range engine.Backends() {
			noun := "devices"
			if devices[b] == 1 {
				noun = "device"
			}
			out = append(out, fmt.Sprintf("%s: %d %s", b, devices[b], noun))
		}
		return out
	}
	engineDevices = func() []string {
		var out []string
		for _, d := range engine.Devices() {
			out = append(out, fmt.Sprintf("%s (%s, %s): %s, %s free of %s",
				d.Name, d.Backend, d.Type, d.Description, units.Bytes(int64(d.Free)), units.Bytes(int64(d.Total))))
		}
		return out
	}
	checkEngineDevice = func(d config.Device) error { return deviceError(d, engine.Backends(), engine.Devices()) }
}

// buildFor names, by --device name, the ggml backend and the make target
// that builds lmeval with it (docs/build.md).
var buildFor = map[string]struct{ backend, target string }{
	"cuda":   {"CUDA", "make cuda"},
	"vulkan": {"Vulkan", "make vulkan"},
	"metal":  {"Metal", "make metal"},
	"mps":    {"Metal", "make metal"},
}

// deviceError says why the native engine, built with backends and seeing
// devs, cannot run on d; nil when it can. A GPU device it lacks would
// otherwise leave the model on the CPU while the results say
// n_gpu_layers=999.
func deviceError(d config.Device, backends []string, devs []engine.Device) error {
	if !d.GPU {
		return nil
	}
	base, _, _ := strings.Cut(d.Name, ":")
	var seen []string // the devices of the backend asked for ("gpu": every GPU)
	for _, dv := range devs {
		if base == "gpu" && dv.Type != "cpu" || strings.EqualFold(dv.Backend, buildFor[base].backend) {
			seen = append(seen, fmt.Sprintf("%s (%s)", dv.Name, dv.Description))
		}
	}
	have := fmt.Sprintf("this lmeval was built with %s", strings.Join(backends, ", "))
	switch b := buildFor[base]; {
	case base == "gpu" && len(seen) == 0:
		return fmt.Errorf("--device %s: %s and sees no GPU, so it would run on the CPU; build it for the GPU (make cuda for NVIDIA, make vulkan for AMD, Intel and others, make metal on Apple silicon; docs/build.md), or run with --device cpu", d.Name, have)
	case base != "gpu" && !containsFold(backends, b.backend):
		return fmt.Errorf("--device %s: %s, not %s, so it would run on the CPU; build it with `%s` (docs/build.md), or run with --device cpu", d.Name, have, b.backend, b.target)
	case len(seen) == 0:
		return fmt.Errorf("--device %s: %s but %s found no device (is the driver loaded? are the devices hidden, e.g. by CUDA_VISIBLE_DEVICES?); run with --device cpu to use the CPU", d.Name, have, b.backend)
	case d.Index >= len(seen):
		return fmt.Errorf("--device %s: there is no device %d: this lmeval sees %s (numbered from 0, the CPU not counted)", d.Name, d.Index, strings.Join(seen, ", "))
	}
	return nil
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}
