package config

import (
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestParseBatchSize(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    BatchSize
		wantErr bool
	}{
		{"1", BatchSize{Size: 1}, false},
		{"64", BatchSize{Size: 64}, false},
		{"auto", BatchSize{Auto: true}, false},
		{"AUTO:4", BatchSize{Auto: true, Retunes: 4}, false},
		{"0", BatchSize{}, true},
		{"-2", BatchSize{}, true},
		{"auto:", BatchSize{}, true},
		{"auto:x", BatchSize{}, true},
		{"big", BatchSize{}, true},
	} {
		got, err := ParseBatchSize(tc.in)
		if (err != nil) != tc.wantErr || got != tc.want {
			t.Errorf("ParseBatchSize(%q) = %+v, %v; want %+v, err=%v", tc.in, got, err, tc.want, tc.wantErr)
		}
		if err != nil && !strings.Contains(err.Error(), "auto:N") {
			t.Errorf("ParseBatchSize(%q) error %q does not list the accepted forms", tc.in, err)
		}
	}
}

func TestParseDevice(t *testing.T) {
	for _, tc := range []struct {
		in      string
		args    map[string]string
		wantErr bool
	}{
		{"cpu", map[string]string{"n_gpu_layers": "0"}, false},
		{"cuda", map[string]string{"n_gpu_layers": AllLayers}, false},
		{"cuda:1", map[string]string{"n_gpu_layers": AllLayers, "main_gpu": "1"}, false},
		{"gpu:0", map[string]string{"n_gpu_layers": AllLayers, "main_gpu": "0"}, false},
		{"mps", map[string]string{"n_gpu_layers": AllLayers}, false},
		{"tpu", nil, true},
		{"cuda:x", nil, true},
		{"cpu:1", nil, true},
	} {
		d, err := ParseDevice(tc.in)
		if (err != nil) != tc.wantErr {
			t.Errorf("ParseDevice(%q) err = %v, want err=%v", tc.in, err, tc.wantErr)
			continue
		}
		if err == nil && !reflect.DeepEqual(d.ModelArgs(), tc.args) {
			t.Errorf("ParseDevice(%q).ModelArgs() = %v, want %v", tc.in, d.ModelArgs(), tc.args)
		}
	}
}

func TestLimit(t *testing.T) {
	for _, tc := range []struct {
		in      string
		n, want int
		wantErr bool
	}{
		{"10", 100, 10, false},
		{"10.0", 100, 10, false},
		{"500", 100, 100, false},
		{"0.1", 95, 10, false}, // ceil(9.5)
		{"0.5", 3, 2, false},   // ceil(1.5)
		{"0", 0, 0, true},      // not a count nor a fraction: omit --limit for every document
		{"0.0", 0, 0, true},
		{"10.5", 0, 0, true},
		{"-1", 0, 0, true},
		{"ten", 0, 0, true},
	} {
		l, err := ParseLimit(tc.in)
		if (err != nil) != tc.wantErr {
			t.Errorf("ParseLimit(%q) err = %v, want err=%v", tc.in, err, tc.wantErr)
			continue
		}
		if err == nil && l.Apply(tc.n) != tc.want {
			t.Errorf("ParseLimit(%q).Apply(%d) = %d, want %d", tc.in, tc.n, l.Apply(tc.n), tc.want)
		}
	}
}

func TestParseSeeds(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		wantErr  bool
	}{
		{"42", "42,42,42,42", false},
		{"0,1234,1234,1234", "0,1234,1234,1234", false},
		{"0,None,8,52", "0,None,8,52", false},
		{"1,2,3", "1,2,3,1234", false},
		{"none", "None,None,None,None", false},
		{"1,2", "", true},
		{"1,2,3,4,5", "", true},
		{"x", "", true},
	} {
		s, err := ParseSeeds(tc.in)
		if (err != nil) != tc.wantErr || (err == nil && s.String() != tc.want) {
			t.Errorf("ParseSeeds(%q) = %v, %v; want %q, err=%v", tc.in, s, err, tc.want, tc.wantErr)
		}
	}
	b, _ := json.Marshal(mustSeeds(t, "0,None,8,52"))
	if string(b) != "[0,null,8,52]" {
		t.Errorf("seeds JSON = %s", b)
	}
}

func mustSeeds(t *testing.T, s string) Seeds {
	v, err := ParseSeeds(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestParseTaskSpec(t *testing.T) {
	n := func(v int) *int { return &v }
	for _, tc := range []struct {
		in      string
		want    TaskSpec
		wantErr bool
	}{
		{"hellaswag", TaskSpec{Name: "hellaswag"}, false},
		{"hellaswag|10", TaskSpec{Name: "hellaswag", NumFewshot: n(10)}, false},
		{"mmlu_*|0", TaskSpec{Name: "mmlu_*", NumFewshot: n(0)}, false},
		{"leaderboard|arc:challenge|25|0", TaskSpec{Suite: "leaderboard", Name: "arc:challenge", NumFewshot: n(25)}, false},
		{"lighteval|gsm8k|5|1", TaskSpec{Suite: "lighteval", Name: "gsm8k", NumFewshot: n(5), TruncateFewshots: true}, false},
		{"path/to/task.yaml", TaskSpec{Name: "path/to/task.yaml"}, false},
		{"hellaswag|x", TaskSpec{}, true},
		{"hellaswag|-1", TaskSpec{}, true},
		{"a|b|c", TaskSpec{}, true},
		{"s|t|5|2", TaskSpec{}, true},
		{"|5", TaskSpec{}, true},
	} {
		got, err := ParseTaskSpec(tc.in)
		if (err != nil) != tc.wantErr || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseTaskSpec(%q) = %+v, %v; want %+v, err=%v", tc.in, got, err, tc.want, tc.wantErr)
		}
		if err == nil && got.String() != tc.in {
			t.Errorf("TaskSpec(%q).String() = %q", tc.in, got.String())
		}
	}
	got, err := ParseTaskList("arc_easy,hellaswag|10 winogrande", "gsm8k")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, t := range got {
		names = append(names, t.String())
	}
	if strings.Join(names, " ") != "arc_easy hellaswag|10 winogrande gsm8k" {
		t.Errorf("ParseTaskList = %v", names)
	}
}

func TestSplitTopLevel(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"a=1,b=2", []string{"a=1", "b=2"}},
		{"a=1,,b=2,", []string{"a=1", "b=2"}},
		{`stop=["a,b", "c"],t=0`, []string{`stop=["a,b", "c"]`, "t=0"}},
		{`p="x,y",q=1`, []string{`p="x,y"`, "q=1"}},
		{`msg=don't,x=1`, []string{"msg=don't", "x=1"}},
		{`d={"k": 1, "j": 2},z=(1,2)`, []string{`d={"k": 1, "j": 2}`, "z=(1,2)"}},
		{`a='unterminated,b=2`, []string{"a='unterminated", "b=2"}},
	} {
		if got := SplitTopLevel(tc.in); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("SplitTopLevel(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestParseKeyValues(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    map[string]any
		wantErr bool
	}{
		{"temperature=0,top_p=0.95,do_sample=True", map[string]any{"temperature": int64(0), "top_p": 0.95, "do_sample": true}, false},
		{`until=["\n\n", "Q:"],max_gen_toks=64`, map[string]any{"until": []any{"\n\n", "Q:"}, "max_gen_toks": int64(64)}, false},
		{`name='a,b',x=None`, map[string]any{"name": "a,b", "x": nil}, false},
		{`tokenizer=gpt2,max_seq_lengths=[4096,8192]`, map[string]any{"tokenizer": "gpt2", "max_seq_lengths": []any{int64(4096), int64(8192)}}, false},
		{`{"a": 1, "b": [true]}`, map[string]any{"a": int64(1), "b": []any{true}}, false},
		// JSON numbers keep json.loads's types, nested too.
		{`{"n": [4096, 8192], "t": 0.5, "e": 1e3, "m": {"k": -2}}`, map[string]any{"n": []any{int64(4096), int64(8192)}, "t": 0.5, "e": 1000.0, "m": map[string]any{"k": int64(-2)}}, false},
		{`{"a": 1} x`, nil, true},
		{`t=1e-3,n=-2,h=0x10,s=(1, 'x')`, map[string]any{"t": 0.001, "n": int64(-2), "h": int64(16), "s": []any{int64(1), "x"}}, false},
		{`d={'k': "v\tw"}`, map[string]any{"d": map[string]any{"k": "v\tw"}}, false},
		{"novalue", nil, true},
		{"=1", nil, true},
		{`{"a": 'x'}`, nil, true},
	} {
		got, err := ParseKeyValues(tc.in)
		if (err != nil) != tc.wantErr || (!tc.wantErr && !reflect.DeepEqual(got, tc.want)) {
			t.Errorf("ParseKeyValues(%q) = %#v, %v; want %#v, err=%v", tc.in, got, err, tc.want, tc.wantErr)
		}
	}
}

func TestParseModelArgs(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want map[string]string
	}{
		{"pretrained=m.gguf,n_ctx=2048", map[string]string{"pretrained": "m.gguf", "n_ctx": "2048"}},
		{`pretrained="/models/a,b.gguf",add_bos_token=True`, map[string]string{"pretrained": "/models/a,b.gguf", "add_bos_token": "True"}},
		// a fleet of servers: the commas between URLs do not split arguments
		{"base_url=http://127.0.0.1:8000/v1,http://127.0.0.1:8001/v1,model=m,num_concurrent=4",
			map[string]string{"base_url": "http://127.0.0.1:8000/v1,http://127.0.0.1:8001/v1", "model": "m", "num_concurrent": "4"}},
		{"model=m,base_url=https://a/v1/completions,https://b/v1/completions",
			map[string]string{"base_url": "https://a/v1/completions,https://b/v1/completions", "model": "m"}},
		{`{"pretrained": "x.gguf", "n_ctx": 512, "flash_attn": true}`, map[string]string{"pretrained": "x.gguf", "n_ctx": "512", "flash_attn": "true"}},
	} {
		got, err := ParseModelArgs(tc.in)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseModelArgs(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}

func flags(kv ...any) Layer {
	m := map[string]any{}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	return Layer{Source: "command line", Flags: true, Values: m}
}

func TestResolveErrorsNameTheFlag(t *testing.T) {
	for _, tc := range []struct {
		layer Layer
		want  []string // substrings of the error
	}{
		{flags("batch_size", "huge"), []string{"--batch_size", "auto:N"}},
		{flags("device", "tpu"), []string{"--device", "cuda:N"}},
		{flags("limit", "x"), []string{"--limit", "fraction"}},
		{flags("limit", "0"), []string{"--limit", "positive count", "omit --limit"}},
		{flags("limit", "0.0"), []string{"--limit", "positive count", "omit --limit"}},
		{Layer{Source: "config file c.yaml", Values: map[string]any{"limit": 0}}, []string{"config file c.yaml: limit", "positive count"}},
		{Layer{Source: "config file c.yaml", Values: map[string]any{"limit": 0.0}}, []string{"config file c.yaml: limit", "positive count"}},
		{flags("seed", "1,2"), []string{"--seed", "None"}},
		{flags("num_fewshot", "five"), []string{"--num_fewshot", "non-negative integer"}},
		{flags("tasks", []string{"a|b"}), []string{"--tasks", "NAME|SHOTS"}},
		{flags("cache_requests", "maybe"), []string{"--cache_requests", "true, refresh or delete"}},
		{flags("log_samples", "perhaps"), []string{"--log_samples", "true or false"}},
		{flags("model_args", []string{"pretrained"}), []string{"--model_args", "key=value"}},
		{flags("gen_kwargs", []string{`{"a": 'x'}`}), []string{"--gen_kwargs", "JSON"}},
		{flags("verbosity", "loud"), []string{"--verbosity", "DEBUG"}},
		{flags("samples", `{"t": [0, "x"]}`), []string{"--samples", "indices"}},
		{flags("batch_size", []string{"1", "2"}), []string{"--batch_size", "given 2 times"}},
		{Layer{Source: "config file c.yaml", Values: map[string]any{"batch_sise": 4}}, []string{"config file c.yaml: batch_sise", "unknown setting"}},
		{flags("log_samples", "true"), []string{"--log_samples needs --output_path"}},
		{flags("predict_only", "true"), []string{"--predict_only needs --output_path"}},
		{flags("limit", "5", "samples", `{"t": [1]}`), []string{"--samples and --limit"}},
		{flags("fewshot_as_multiturn", "true"), []string{"--fewshot_as_multiturn needs --apply_chat_template"}},
	} {
		_, err := Resolve(tc.layer)
		if err == nil {
			t.Errorf("Resolve(%v): no error", tc.layer.Values)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("Resolve(%v) error %q lacks %q", tc.layer.Values, err, w)
			}
		}
	}
}

func TestResolveRules(t *testing.T) {
	c, err := Resolve(flags(
		"model_args", []string{"pretrained=m.gguf,n_gpu_layers=10", "n_ctx=512"},
		"device", "cuda:1",
		"apply_chat_template", "true",
		"predict_only", "true",
		"output_path", "out",
		"metadata", []string{"max_seq_lengths=[64]"},
	))
	if err != nil {
		t.Fatal(err)
	}
	wantArgs := map[string]string{"pretrained": "m.gguf", "n_gpu_layers": "10", "n_ctx": "512", "main_gpu": "1"}
	if !reflect.DeepEqual(c.ModelArgs, wantArgs) {
		t.Errorf("ModelArgs = %v, want %v (explicit n_gpu_layers kept, main_gpu from device)", c.ModelArgs, wantArgs)
	}
	if !c.LogSamples || !c.FewshotAsMultiturn {
		t.Errorf("predict_only should imply log_samples, chat template fewshot_as_multiturn: %+v", c)
	}
	wantMeta := map[string]any{"pretrained": "m.gguf", "n_gpu_layers": int64(10), "n_ctx": int64(512), "main_gpu": int64(1), "max_seq_lengths": []any{int64(64)}}
	if !reflect.DeepEqual(c.Metadata, wantMeta) {
		t.Errorf("Metadata = %#v, want %#v", c.Metadata, wantMeta)
	}
	if c.ModelArgsString() != "main_gpu=1,n_ctx=512,n_gpu_layers=10,pretrained=m.gguf" {
		t.Errorf("ModelArgsString = %q", c.ModelArgsString())
	}

	c, err = Resolve(flags("apply_chat_template", "chatml", "fewshot_as_multiturn", "false"))
	if err != nil {
		t.Fatal(err)
	}
	if c.ChatTemplate != (ChatTemplate{Enabled: true, Name: "chatml"}) || c.FewshotAsMultiturn {
		t.Errorf("explicit fewshot_as_multiturn=false with named template: %+v", c)
	}
}

func TestDefaults(t *testing.T) {
	c, err := Resolve()
	if err != nil {
		t.Fatal(err)
	}
	if c.Model != "llama" || c.BatchSize != (BatchSize{Auto: true}) || c.BootstrapIters != 100000 ||
		c.Seeds.String() != "0,1234,1234,1234" || c.NumFewshot != nil || c.LogLevel != slog.LevelInfo {
		t.Errorf("defaults = %+v", c)
	}
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "--tasks") {
		t.Errorf("Validate without tasks = %v", err)
	}
}

func write(t *testing.T, path, content string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestLoadPrecedence checks preset < config file < command line, setting
// by setting, and the merge of dictionary settings.
func TestLoadPrecedence(t *testing.T) {
	dir := t.TempDir()
	inc := filepath.Join(dir, "tasks")
	write(t, filepath.Join(inc, "sub", "mine.yaml"), `preset: mine
description: a user preset
tasks: [arc_easy|3, piqa]
num_fewshot: 1
batch_size: 4
limit: 50
gen_kwargs: {max_gen_toks: 10}
`)
	write(t, filepath.Join(inc, "task.yaml"), "task: not_a_preset\ndataset_path: x\n")
	cfgFile := write(t, filepath.Join(dir, "run.yaml"), `model: dummy
model_args:
  pretrained: from-file.gguf
  n_ctx: 256
preset: mine
include_path: `+inc+`
batch_size: auto
limit: 20
seed: [1, 2, 3, null]
gen_kwargs: "temperature=0.5"
log_samples: true
output_path: from-file
wandb_args: {project: x}
`)
	c, err := Load(flags(
		"config", cfgFile,
		"limit", "7",
		"model_args", []string{"n_ctx=1024"},
	))
	if err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		name      string
		got, want any
	}{
		{"model (file)", c.Model, "dummy"},
		{"model_args (file merged with flags)", c.ModelArgs, map[string]string{"pretrained": "from-file.gguf", "n_ctx": "1024"}},
		{"tasks (preset)", len(c.Tasks), 2},
		{"task shots (preset)", c.Tasks[0].String(), "arc_easy|3"},
		{"num_fewshot (preset)", *c.NumFewshot, 1},
		{"batch_size (file over preset)", c.BatchSize, BatchSize{Auto: true}},
		{"limit (flag over file over preset)", c.Limit, Limit{Count: 7}},
		{"seed (file)", c.Seeds.String(), "1,2,3,None"},
		{"gen_kwargs (preset merged with file)", c.GenKwargs, map[string]any{"max_gen_toks": 10, "temperature": 0.5}},
		{"log_samples (file)", c.LogSamples, true},
		{"output_path (file)", c.OutputPath, "from-file"},
		{"preset", c.Preset, "mine"},
	}
	for _, ch := range checks {
		if !reflect.DeepEqual(ch.got, ch.want) {
			t.Errorf("%s = %#v, want %#v", ch.name, ch.got, ch.want)
		}
	}

	// A flag naming another preset switches presets.
	c, err = Load(flags("config", cfgFile, "preset", "ppl"))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Tasks) != 1 || c.Tasks[0].Name != "wikitext" {
		t.Errorf("--preset ppl over the file's preset: tasks = %v", c.Tasks)
	}

	if _, err := Load(flags("config", filepath.Join(dir, "missing.yaml"))); err == nil || !strings.Contains(err.Error(), "missing.yaml") {
		t.Errorf("missing config file: %v", err)
	}
	if _, err := Load(flags("preset", "nope")); err == nil || !strings.Contains(err.Error(), "leaderboard-v1") {
		t.Errorf("unknown preset error should list the known ones: %v", err)
	}
}

func TestLogLevelEnv(t *testing.T) {
	t.Setenv("LMEVAL_LOG_LEVEL", "debug")
	c, err := Load(flags())
	if err != nil {
		t.Fatal(err)
	}
	if c.LogLevel != slog.LevelDebug {
		t.Errorf("LMEVAL_LOG_LEVEL=debug gave %v", c.LogLevel)
	}
	c, err = Load(flags("verbosity", "ERROR"))
	if err != nil {
		t.Fatal(err)
	}
	if c.LogLevel != slog.LevelError {
		t.Errorf("--verbosity should override LMEVAL_LOG_LEVEL: %v", c.LogLevel)
	}
	t.Setenv("LMEVAL_LOG_LEVEL", "chatty")
	if _, err := Load(flags()); err == nil || !strings.Contains(err.Error(), "LMEVAL_LOG_LEVEL") {
		t.Errorf("bad LMEVAL_LOG_LEVEL: %v", err)
	}
}

func TestBuiltinPresets(t *testing.T) {
	ps, err := Presets(nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, p := range ps {
		c, err := Resolve(p.Layer())
		if err != nil {
			t.Fatalf("preset %s: %v", p.Name, err)
		}
		if p.Description == "" {
			t.Errorf("preset %s has no description", p.Name)
		}
		var tasks []string
		for _, t := range c.Tasks {
			tasks = append(tasks, t.String())
		}
		got[p.Name] = strings.Join(tasks, " ")
	}
	want := map[string]string{
		"european":       "arc_multilingual arc_challenge_mt hellaswag_multilingual m_mmlu belebele",
		"indic":          "arc_multilingual hellaswag_multilingual m_mmlu boolqa_bn",
		"leaderboard-v1": "arc_challenge|25 hellaswag|10 mmlu|5 truthfulqa_mc2|0 winogrande|5 gsm8k|5",
		"ppl":            "wikitext|0",
		"quick":          "arc_easy|0 hellaswag|0 piqa|0 winogrande|0",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("built-in presets = %v, want %v", got, want)
	}
}

func TestConfigJSON(t *testing.T) {
	c, err := Resolve(flags("tasks", []string{"a|2,b"}, "device", "cuda:1", "batch_size", "auto", "limit", "0.5", "seed", "1,None,2,3", "apply_chat_template", "chatml"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"tasks": []any{"a|2", "b"}, "device": "cuda:1", "batch_size": "auto", "limit": 0.5,
		"seed": []any{1.0, nil, 2.0, 3.0}, "apply_chat_template": "chatml", "verbosity": "INFO", "model": "llama",
	}
	for k, v := range want {
		if !reflect.DeepEqual(m[k], v) {
			t.Errorf("JSON %s = %#v, want %#v", k, m[k], v)
		}
	}
}

// confirm_run_unsafe_code and tasks_source are settings (no longer
// ignored lm-eval keys), from flags and config files alike.
func TestUnsafeCodeAndTasksSource(t *testing.T) {
	cfg, err := Resolve(Layer{Source: "config file x.yaml", Values: map[string]any{
		"tasks": []any{"humaneval"}, "confirm_run_unsafe_code": true, "tasks_source": "/opt/lm-eval",
	}})
	if err != nil {
		t.Fatal(err)
	}
	if !cfg.ConfirmRunUnsafeCode || cfg.TasksSource != "/opt/lm-eval" {
		t.Errorf("ConfirmRunUnsafeCode %v, TasksSource %q", cfg.ConfirmRunUnsafeCode, cfg.TasksSource)
	}
	cfg, err = Resolve(Layer{Source: "command line", Flags: true, Values: map[string]any{"tasks": []string{"mbpp"}}})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.ConfirmRunUnsafeCode {
		t.Error("confirm_run_unsafe_code defaults to true")
	}
	if _, err := Resolve(Layer{Source: "command line", Flags: true, Values: map[string]any{"tasks": []string{"mbpp"}, "confirm_run_unsafe_code": "maybe"}}); err == nil || !strings.Contains(err.Error(), "--confirm_run_unsafe_code") {
		t.Errorf("bad value: %v", err)
	}
}
