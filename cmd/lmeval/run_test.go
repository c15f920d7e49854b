package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/lmeval/lmeval/harness/config"
)

// parseRun parses a command line as main does and returns the run's
// configuration.
func parseRun(t *testing.T, line ...string) (*config.Config, error) {
	t.Helper()
	app := newApp()
	var got *config.Config
	for _, cmd := range app.Commands {
		if cmd.Name == "run" {
			cmd.Action = func(c *cli.Context) error {
				var err error
				got, err = loadRunConfig(c)
				return err
			}
		}
	}
	app.Writer, app.ErrWriter = &strings.Builder{}, &strings.Builder{}
	err := app.Run(prepareArgs(append([]string{"lmeval"}, line...)))
	return got, err
}

func TestRunFlags(t *testing.T) {
	dir := t.TempDir()
	cfgFile := filepath.Join(dir, "c.yaml")
	if err := os.WriteFile(cfgFile, []byte("model: dummy\nnum_fewshot: 3\nbatch_size: 8\nlimit: 10\nmodel_args: {pretrained: file.gguf, n_ctx: 128}\ntasks: [from_file]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	type check func(c *config.Config) (got, want any)
	for _, tc := range []struct {
		line   string
		checks []check
	}{
		{"run --model dummy --tasks arc_easy hellaswag|10 -f 2 -b auto:3", []check{
			func(c *config.Config) (any, any) { return c.Model, "dummy" },
			func(c *config.Config) (any, any) { return taskNames(c), "arc_easy hellaswag|10" },
			func(c *config.Config) (any, any) { return *c.NumFewshot, 2 },
			func(c *config.Config) (any, any) { return c.BatchSize.String(), "auto:3" },
		}},
		// legacy form, short flags, repeated and comma-separated model_args
		{"-M dummy -t a,b -a pretrained=m.gguf n_ctx=64 -a seed=5 -L 0.25 -c cache.db -o out -s -x -w --device cuda:1", []check{
			func(c *config.Config) (any, any) { return taskNames(c), "a b" },
			func(c *config.Config) (any, any) {
				return c.ModelArgs, map[string]string{"pretrained": "m.gguf", "n_ctx": "64", "seed": "5", "n_gpu_layers": config.AllLayers, "main_gpu": "1"}
			},
			func(c *config.Config) (any, any) { return c.Limit, config.Limit{Fraction: 0.25} },
			func(c *config.Config) (any, any) { return c.UseCache + "|" + c.OutputPath, "cache.db|out" },
			func(c *config.Config) (any, any) {
				return []bool{c.LogSamples, c.PredictOnly, c.WriteOut}, []bool{true, true, true}
			},
		}},
		{`run -t x --gen_kwargs temperature=0 until=["\n\n"] --seed 0,None,8,52 --apply_chat_template --system_instruction hi`, []check{
			func(c *config.Config) (any, any) {
				return c.GenKwargs, map[string]any{"temperature": int64(0), "until": []any{"\n\n"}}
			},
			func(c *config.Config) (any, any) { return c.Seeds.String(), "0,None,8,52" },
			func(c *config.Config) (any, any) { return c.ChatTemplate, config.ChatTemplate{Enabled: true} },
			func(c *config.Config) (any, any) { return c.FewshotAsMultiturn, true },
			func(c *config.Config) (any, any) { return c.SystemInstruction, "hi" },
		}},
		{"run -t x --apply_chat_template chatml --fewshot_as_multiturn false --cache_requests refresh --bootstrap_iters 0 --samples {\"x\":[1,2]}", []check{
			func(c *config.Config) (any, any) {
				return c.ChatTemplate, config.ChatTemplate{Enabled: true, Name: "chatml"}
			},
			func(c *config.Config) (any, any) { return c.FewshotAsMultiturn, false },
			func(c *config.Config) (any, any) { return c.CacheRequests, config.CacheRequestsRefresh },
			func(c *config.Config) (any, any) { return c.BootstrapIters, 0 },
			func(c *config.Config) (any, any) { return c.Samples, map[string][]int{"x": {1, 2}} },
		}},
		// config file under flags
		{"run -C " + cfgFile + " -f 0 -a n_ctx=256", []check{
			func(c *config.Config) (any, any) { return c.Model, "dummy" },
			func(c *config.Config) (any, any) { return *c.NumFewshot, 0 },
			func(c *config.Config) (any, any) { return c.BatchSize.String(), "8" },
			func(c *config.Config) (any, any) { return c.Limit, config.Limit{Count: 10} },
			func(c *config.Config) (any, any) {
				return c.ModelArgs, map[string]string{"pretrained": "file.gguf", "n_ctx": "256"}
			},
			func(c *config.Config) (any, any) { return taskNames(c), "from_file" },
		}},
		// preset under config file under flags
		{"run --preset leaderboard-v1 -C " + cfgFile + " -b 2", []check{
			func(c *config.Config) (any, any) { return taskNames(c), "from_file" },
			func(c *config.Config) (any, any) { return c.BatchSize.String(), "2" },
		}},
		{"run --preset leaderboard-v1 -L 5", []check{
			func(c *config.Config) (any, any) {
				return taskNames(c), "arc_challenge|25 hellaswag|10 mmlu|5 truthfulqa_mc2|0 winogrande|5 gsm8k|5"
			},
			func(c *config.Config) (any, any) { return c.BatchSize.String(), "auto" },
			func(c *config.Config) (any, any) { return c.Limit, config.Limit{Count: 5} },
		}},
	} {
		c, err := parseRun(t, strings.Fields(tc.line)...)
		if err != nil {
			t.Errorf("%s: %v", tc.line, err)
			continue
		}
		for i, ch := range tc.checks {
			got, want := ch(c)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s: check %d: got %#v, want %#v", tc.line, i, got, want)
			}
		}
	}
}

func taskNames(c *config.Config) string {
	var s []string
	for _, t := range c.Tasks {
		s = append(s, t.String())
	}
	return strings.Join(s, " ")
}

func TestRunFlagErrors(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{"run -t x -b huge", "--batch_size: invalid batch size \"huge\": want a positive integer, auto, or auto:N"},
		{"run -t x --device tpu", "--device: invalid device \"tpu\": want cpu, gpu, gpu:N, cuda, cuda:N, vulkan, vulkan:N, mps or metal"},
		{"run -t x -f many", "--num_fewshot: invalid value \"many\": want a non-negative integer"},
		{"run -t x|y", "--tasks: invalid task \"x|y\""},
		{"run -t x -L -3", "--limit"},
		{"run -t x --seed 1,2", "--seed"},
		{"run -t x -a pretrained", "--model_args: expected key=value"},
		{"run -t x -s", "--log_samples needs --output_path"},
		{"run --model dummy", "no tasks"},
		{"run -b 1 stray -t x", "unexpected arguments"},
		{"run -t x --preset nope", "unknown preset \"nope\""},
		{"run -t x -C /nonexistent.yaml", "nonexistent.yaml"},
	} {
		_, err := parseRun(t, strings.Fields(tc.line)...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want it to contain %q", tc.line, err, tc.want)
		}
	}
}

// The chat model_args are the harness's: the backend never sees them (the
// llama backend refuses unknown arguments).
func TestBackendArgsChatOptions(t *testing.T) {
	cfg := &config.Config{ModelArgs: map[string]string{"pretrained": "m.gguf", "think_end_token": "</think>",
		"enable_thinking": "true", "chat_template_args": `{"reasoning_effort":"low"}`}}
	args := backendArgs(cfg)
	for _, k := range []string{"think_end_token", "enable_thinking", "chat_template_args"} {
		if _, ok := args[k]; ok {
			t.Errorf("backend args carry %s", k)
		}
	}
	if args["pretrained"] != "m.gguf" || cfg.ModelArgs["think_end_token"] != "</think>" {
		t.Errorf("args %v, model_args %v", args, cfg.ModelArgs)
	}
}
