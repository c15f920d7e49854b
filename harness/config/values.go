package config

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/lmeval/lmeval/harness/model"
)

// BatchSize is lm-eval's batch_size (model.BatchSize: one type and one
// parser for the command line, config files and the backends).
type BatchSize = model.BatchSize

// ParseBatchSize parses "8", "auto" or "auto:4".
func ParseBatchSize(s string) (BatchSize, error) { return model.ParseBatchSize(s) }

// Device is where the model runs, lm-eval's --device translated to
// llama.cpp terms.
type Device struct {
	Name string // as given: cpu, gpu, gpu:1, cuda:0, mps
	GPU  bool   // offload layers to a GPU
	// Index is the GPU to use (main_gpu); -1 when not given.
	Index int
}

const deviceForms = "cpu, gpu, gpu:N, cuda, cuda:N, vulkan, vulkan:N, mps or metal"

// ParseDevice parses lm-eval's device names.
func ParseDevice(s string) (Device, error) {
	name := strings.TrimSpace(strings.ToLower(s))
	base, idx, hasIdx := strings.Cut(name, ":")
	d := Device{Name: name, Index: -1}
	switch base {
	case "cpu":
		if hasIdx {
			return Device{}, fmt.Errorf("invalid device %q: want %s", s, deviceForms)
		}
		return d, nil
	case "gpu", "cuda", "mps", "metal", "vulkan":
		d.GPU = true
	default:
		return Device{}, fmt.Errorf("invalid device %q: want %s", s, deviceForms)
	}
	if hasIdx {
		n, err := strconv.Atoi(idx)
		if err != nil || n < 0 {
			return Device{}, fmt.Errorf("invalid device %q: want %s", s, deviceForms)
		}
		d.Index = n
	}
	return d, nil
}

// AllLayers is the n_gpu_layers value that offloads every layer (llama.cpp
// clamps it to the model's layer count).
const AllLayers = "999"

// ModelArgs returns the model_args the device implies: n_gpu_layers (0 on
// the CPU, all layers on a GPU) and main_gpu when an index is given.
func (d Device) ModelArgs() map[string]string {
	if d.Name == "" {
		return nil
	}
	if !d.GPU {
		return map[string]string{"n_gpu_layers": "0"}
	}
	m := map[string]string{"n_gpu_layers": AllLayers}
	if d.Index >= 0 {
		m["main_gpu"] = strconv.Itoa(d.Index)
	}
	return m
}

// Limit caps the documents evaluated per task: a count, or a fraction of
// the documents when below 1 (lm-eval's --limit). The zero Limit is no
// limit.
type Limit struct {
	Count    int
	Fraction float64
}

// IsSet reports whether a limit was given.
func (l Limit) IsSet() bool { return l.Count > 0 || l.Fraction > 0 }

// Apply returns how many of n documents to evaluate, as lm-eval's
// get_sample_size: ceil(fraction*n) for a fraction, else min(count, n).
func (l Limit) Apply(n int) int {
	switch {
	case l.Fraction > 0:
		return min(n, int(math.Ceil(l.Fraction*float64(n))))
	case l.Count > 0:
		return min(n, l.Count)
	}
	return n
}

func (l Limit) String() string {
	switch {
	case l.Fraction > 0:
		return strconv.FormatFloat(l.Fraction, 'g', -1, 64)
	case l.Count > 0:
		return strconv.Itoa(l.Count)
	}
	return ""
}

// MarshalJSON writes the limit as lm-eval records it: a number or null.
func (l Limit) MarshalJSON() ([]byte, error) {
	switch {
	case l.Fraction > 0:
		return json.Marshal(l.Fraction)
	case l.Count > 0:
		return json.Marshal(float64(l.Count))
	}
	return []byte("null"), nil
}

const limitForms = "a positive count (100) or a fraction below 1 (0.1)"

// ParseLimit parses "100", "100.0" or "0.05".
func ParseLimit(s string) (Limit, error) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return Limit{}, fmt.Errorf("invalid limit %q: want %s", s, limitForms)
	}
	return limitFromFloat(v, s)
}

func limitFromFloat(v float64, s string) (Limit, error) {
	switch {
	case v == 0:
		// lm-eval reads a limit of 0 as no limit; a user who typed it
		// meant something else.
		return Limit{}, fmt.Errorf("invalid limit %q: want %s; omit --limit to evaluate every document", s, limitForms)
	case v < 1:
		return Limit{Fraction: v}, nil
	case v != math.Trunc(v):
		return Limit{}, fmt.Errorf("invalid limit %q: a count must be whole; want %s", s, limitForms)
	}
	return Limit{Count: int(v)}, nil
}

// Seeds are lm-eval's four seeds: Python's random, NumPy, torch and the
// few-shot sampler. A nil seed is left unset.
type Seeds struct {
	Random, NumPy, Torch, Fewshot *int64
}

// DefaultSeeds is lm-eval's "0,1234,1234,1234".
func DefaultSeeds() Seeds {
	return Seeds{Random: ptr[int64](0), NumPy: ptr[int64](1234), Torch: ptr[int64](1234), Fewshot: ptr[int64](1234)}
}

func (s Seeds) list() []*int64 { return []*int64{s.Random, s.NumPy, s.Torch, s.Fewshot} }

// MarshalJSON writes the seeds as a list with nulls, in lm-eval's order.
func (s Seeds) MarshalJSON() ([]byte, error) { return json.Marshal(s.list()) }

func (s Seeds) String() string {
	var parts []string
	for _, p := range s.list() {
		if p == nil {
			parts = append(parts, "None")
		} else {
			parts = append(parts, strconv.FormatInt(*p, 10))
		}
	}
	return strings.Join(parts, ",")
}

const seedForms = "one integer for all four seeds, or 3-4 comma-separated integers or None (random,numpy,torch,fewshot)"

// ParseSeeds parses lm-eval's --seed: "42" sets all four; "0,None,8,52"
// sets each; three values leave the few-shot seed at its default.
func ParseSeeds(s string) (Seeds, error) {
	items := strings.Split(s, ",")
	vals := make([]*int64, len(items))
	for i, it := range items {
		it = strings.TrimSpace(it)
		if strings.EqualFold(it, "none") {
			continue
		}
		v, err := strconv.ParseInt(it, 10, 64)
		if err != nil {
			return Seeds{}, fmt.Errorf("invalid seed %q: %q is not an integer or None; want %s", s, it, seedForms)
		}
		vals[i] = &v
	}
	switch {
	case len(vals) == 1:
		vals = []*int64{vals[0], vals[0], vals[0], vals[0]}
	case len(vals) == 3:
		vals = append(vals, DefaultSeeds().Fewshot)
	case len(vals) != 4:
		return Seeds{}, fmt.Errorf("invalid seed %q: got %d values; want %s", s, len(vals), seedForms)
	}
	return Seeds{Random: vals[0], NumPy: vals[1], Torch: vals[2], Fewshot: vals[3]}, nil
}

// CacheRequests is lm-eval's --cache_requests: reuse built requests, rebuild
// and overwrite them, or delete them.
type CacheRequests string

const (
	CacheRequestsOff     CacheRequests = ""
	CacheRequestsTrue    CacheRequests = "true"
	CacheRequestsRefresh CacheRequests = "refresh"
	CacheRequestsDelete  CacheRequests = "delete"
)

// ParseCacheRequests parses true, refresh, delete (and false for off).
func ParseCacheRequests(s string) (CacheRequests, error) {
	switch v := strings.ToLower(strings.TrimSpace(s)); v {
	case "true", "refresh", "delete":
		return CacheRequests(v), nil
	case "false", "":
		return CacheRequestsOff, nil
	}
	return "", fmt.Errorf("invalid value %q: want true, refresh or delete", s)
}

// ChatTemplate says whether and how prompts are wrapped in a chat template.
type ChatTemplate struct {
	Enabled bool
	// Name selects a named template; empty means the model's own
	// (tokenizer.chat_template in the GGUF).
	Name string
}

// MarshalJSON writes false, true or the template name, as lm-eval does.
func (t ChatTemplate) MarshalJSON() ([]byte, error) {
	if t.Enabled && t.Name != "" {
		return json.Marshal(t.Name)
	}
	return json.Marshal(t.Enabled)
}

// ParseChatTemplate parses --apply_chat_template's value: true/false, or a
// template name.
func ParseChatTemplate(s string) ChatTemplate {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "false", "0", "no":
		return ChatTemplate{}
	case "true", "1", "yes":
		return ChatTemplate{Enabled: true}
	}
	return ChatTemplate{Enabled: true, Name: strings.TrimSpace(s)}
}

// ParseBool accepts the spellings lm-eval's flags accept.
func ParseBool(s string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "true", "1", "yes", "on":
		return true, nil
	case "false", "0", "no", "off":
		return false, nil
	}
	return false, fmt.Errorf("invalid boolean %q: want true or false", s)
}

// ParseSamples parses --samples: a JSON object mapping task names to
// document indices, or the path of a file holding one.
func ParseSamples(s string) (map[string][]int, error) {
	src := []byte(s)
	if !strings.HasPrefix(strings.TrimSpace(s), "{") {
		b, err := os.ReadFile(s)
		if err != nil {
			return nil, fmt.Errorf("want a JSON object like '{\"task\": [0, 1]}' or a file holding one: %w", err)
		}
		src = b
	}
	var m map[string][]int
	if err := json.Unmarshal(src, &m); err != nil {
		return nil, fmt.Errorf("want a JSON object mapping task names to lists of document indices (use double quotes): %w", err)
	}
	return m, nil
}

// ParseLogLevel maps lm-eval's (Python logging) level names to slog levels.
func ParseLogLevel(s string) (slog.Level, error) {
	switch strings.ToUpper(strings.TrimSpace(s)) {
	case "DEBUG":
		return slog.LevelDebug, nil
	case "INFO", "":
		return slog.LevelInfo, nil
	case "WARNING", "WARN":
		return slog.LevelWarn, nil
	case "ERROR", "CRITICAL", "FATAL":
		return slog.LevelError, nil
	}
	return 0, fmt.Errorf("invalid log level %q: want DEBUG, INFO, WARNING, ERROR or CRITICAL", s)
}

func ptr[T any](v T) *T { return &v }
