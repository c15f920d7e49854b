package config

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

func TestParseShard(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Shard
		err  string
	}{
		{"0/1", Shard{Index: 0, Count: 1}, ""},
		{" 3 / 8 ", Shard{Index: 3, Count: 8}, ""},
		{"8/8", Shard{}, "invalid shard"},
		{"-1/4", Shard{}, "invalid shard"},
		{"1/0", Shard{}, "invalid shard"},
		{"3", Shard{}, "I/N"},
		{"a/b", Shard{}, "I/N"},
	} {
		got, err := ParseShard(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: error %v, want %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%q: %+v, %v", c.in, got, err)
		}
	}
}

// TestShardFromEnv: --shard auto in a Slurm array (from 0, from 1, with a
// step, rerun alone with LMEVAL_SHARD_COUNT) and a Kubernetes Indexed
// Job; wrong environments are errors naming the variables.
func TestShardFromEnv(t *testing.T) {
	vars := []string{"SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_STEP", "JOB_COMPLETION_INDEX", "LMEVAL_SHARD_COUNT"}
	for _, c := range []struct {
		name  string
		env   map[string]string
		index int
		count int
		err   string
	}{
		{"slurm 0-7", map[string]string{"SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_COUNT": "8", "SLURM_ARRAY_TASK_MIN": "0"}, 5, 8, ""},
		{"slurm 1-8", map[string]string{"SLURM_ARRAY_TASK_ID": "8", "SLURM_ARRAY_TASK_COUNT": "8", "SLURM_ARRAY_TASK_MIN": "1"}, 7, 8, ""},
		{"slurm 0-14:2", map[string]string{"SLURM_ARRAY_TASK_ID": "6", "SLURM_ARRAY_TASK_COUNT": "8", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_STEP": "2"}, 3, 8, ""},
		{"slurm rerun of task 3", map[string]string{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "1", "SLURM_ARRAY_TASK_MIN": "3", "LMEVAL_SHARD_COUNT": "8"}, 3, 8, ""},
		{"slurm irregular", map[string]string{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "3", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_STEP": "2"}, 0, 0, "not a regular array"},
		{"slurm old", map[string]string{"SLURM_ARRAY_TASK_ID": "3"}, 0, 0, "SLURM_ARRAY_TASK_COUNT"},
		{"kubernetes", map[string]string{"JOB_COMPLETION_INDEX": "2", "LMEVAL_SHARD_COUNT": "4"}, 2, 4, ""},
		{"kubernetes without count", map[string]string{"JOB_COMPLETION_INDEX": "2"}, 0, 0, "LMEVAL_SHARD_COUNT"},
		{"kubernetes out of range", map[string]string{"JOB_COMPLETION_INDEX": "4", "LMEVAL_SHARD_COUNT": "4"}, 0, 0, "out of range"},
		{"not a number", map[string]string{"JOB_COMPLETION_INDEX": "x", "LMEVAL_SHARD_COUNT": "4"}, 0, 0, `JOB_COMPLETION_INDEX="x"`},
		{"nothing", nil, 0, 0, "no scheduler"},
	} {
		for _, v := range vars {
			t.Setenv(v, c.env[v])
		}
		got, err := ParseShard("auto")
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: error %v, want %q", c.name, err, c.err)
			}
			continue
		}
		if err != nil || got.Index != c.index || got.Count != c.count || !got.Auto || got.Source == "" {
			t.Errorf("%s: %+v, %v; want %d/%d", c.name, got, err, c.index, c.count)
		}
	}
}

// TestShardNeedsOutputPath: a shard's answers go under --output_path.
func TestShardNeedsOutputPath(t *testing.T) {
	_, err := Resolve(Layer{Source: "test", Flags: true, Values: map[string]any{"tasks": "x", "shard": "0/2"}})
	if err == nil || !strings.Contains(err.Error(), "--shard needs --output_path") {
		t.Errorf("error %v", err)
	}
	cfg, err := Resolve(Layer{Source: "test", Flags: true, Values: map[string]any{"tasks": "x", "shard": "1/2", "output_path": "o"}})
	if err != nil || cfg.Shard.String() != "1/2" {
		t.Fatalf("%+v, %v", cfg.Shard, err)
	}
	js, _ := json.Marshal(cfg)
	if !strings.Contains(string(js), `"shard":"1/2"`) {
		t.Errorf("JSON %s", js)
	}
}

// TestLayersRoundTrip: layers recorded and read back resolve to the same
// settings, with each value's type kept (a whole float stays a float,
// a command line's lists stay lists of strings).
func TestLayersRoundTrip(t *testing.T) {
	var file map[string]any
	err := yaml.Unmarshal([]byte(`
model: dummy
num_fewshot: 3
limit: 0.5
bootstrap_iters: 1000
gen_kwargs: {temperature: 0.0, top_p: 1.0, max_gen_toks: 64, until: ["\n\n", "Q:"]}
metadata: {max_seq_lengths: [4096, 8192], name: "yes"}
seed: [1, 2, null, 4]
apply_chat_template: true
`), &file)
	if err != nil {
		t.Fatal(err)
	}
	layers := []Layer{
		{Source: "config file c.yaml", Values: file},
		{Source: "command line", Flags: true, Values: map[string]any{
			"tasks": []string{"a|5", "b"}, "model_args": []string{`pretrained="/m/a,b.gguf",n_ctx=512`}, "log_samples": "true",
			"output_path": "out", "system_instruction": "Be <brief> & \"exact\"\nplease: é",
		}},
	}
	data, err := EncodeLayers(layers)
	if err != nil {
		t.Fatal(err)
	}
	back, err := DecodeLayers(data)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, layers) {
		t.Errorf("layers read back\n%#v\nwant\n%#v", back, layers)
	}
	a, err := Resolve(layers...)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Resolve(back...)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Errorf("settings differ:\n%+v\n%+v", a, b)
	}
	if _, ok := b.GenKwargs["temperature"].(float64); !ok {
		t.Errorf("temperature %T, want float64", b.GenKwargs["temperature"])
	}
}
