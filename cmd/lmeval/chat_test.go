package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lmeval/lmeval/backend/llama"
	"github.com/lmeval/lmeval/benchmarks"
	"github.com/lmeval/lmeval/engine"
	"github.com/lmeval/lmeval/gguf/ggufwrite"
	"github.com/lmeval/lmeval/harness"
	"github.com/lmeval/lmeval/harness/config"
	"github.com/lmeval/lmeval/harness/results"
)

// The chat tests run from testdata/chat: chat_mc.yaml, its data, the
// templates, and expected.json, which gen_expected.py writes with Python's
// jinja2 (transformers' settings) and lm-eval's prompt assembly.
const chatDir = "testdata/chat"

// chatGGUF writes a small model whose default chat template is ChatML and
// which carries named templates "llama3", "gemma" and "broken". It runs
// in chatDir.
func chatGGUF(t *testing.T) string {
	t.Helper()
	read := func(name string) string {
		data, err := os.ReadFile(filepath.Join("templates", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	path := filepath.Join(t.TempDir(), "chat.gguf")
	f := ggufwrite.Llama(ggufwrite.LlamaSpec{ChatTemplate: read("chatml.jinja"), AddBOS: true, NCtx: 1024})
	f.SetKV("tokenizer.chat_template.llama3", read("llama3.jinja"))
	f.SetKV("tokenizer.chat_template.gemma", read("gemma.jinja"))
	f.SetKV("tokenizer.chat_template.broken", read("broken.jinja"))
	if err := f.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	return path
}

type chatExpected struct {
	BOSToken   string `json:"bos_token"`
	EOSToken   string `json:"eos_token"`
	NumFewshot int    `json:"num_fewshot"`
	Cases      []struct {
		Name      string
		Multiturn bool
		System    string
		Docs      []struct {
			Context       string
			Continuations []string
		}
	}
}

// samplesArgs reads the one samples file under dir: per document (by
// doc_id), its requests' (context, continuation) pairs.
func samplesArgs(t *testing.T, dir, taskName string) map[int][][2]string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*", "samples_"+taskName+"_*.jsonl"))
	if len(files) != 1 {
		t.Fatalf("samples files under %s: %v", dir, files)
	}
	out := map[int][][2]string{}
	for _, s := range readLines(t, files[0]) {
		args := s["arguments"].(map[string]any)
		pairs := make([][2]string, len(args))
		for i := range pairs {
			a := args[fmt.Sprintf("gen_args_%d", i)].(map[string]any)
			pairs[i] = [2]string{a["arg_0"].(string), a["arg_1"].(string)}
		}
		out[int(s["doc_id"].(float64))] = pairs
	}
	return out
}

// TestChatTemplatePrompts runs 'lmeval run --apply_chat_template' on a GGUF
// with embedded templates and checks every request's context against
// Python's rendering: the default template, a named one and a .jinja file,
// with and without --fewshot_as_multiturn, with --system_instruction.
func TestChatTemplatePrompts(t *testing.T) {
	t.Chdir(chatDir)
	model := chatGGUF(t)
	data, err := os.ReadFile("expected.json")
	if err != nil {
		t.Fatal(err)
	}
	var exp chatExpected
	if err := json.Unmarshal(data, &exp); err != nil {
		t.Fatal(err)
	}
	if len(exp.Cases) == 0 {
		t.Fatal("no cases in expected.json")
	}
	for _, c := range exp.Cases {
		t.Run(fmt.Sprintf("%s/multiturn=%v", c.Name, c.Multiturn), func(t *testing.T) {
			out := t.TempDir()
			apply := "--apply_chat_template"
			if c.Name != "" {
				apply += "=" + c.Name
			}
			line := []string{"run", "--model", "llama", "--model_args", "pretrained=" + model + ",threads=1",
				"--tasks", fmt.Sprintf("chat_mc|%d", exp.NumFewshot), "--include_path", ".", apply,
				fmt.Sprintf("--fewshot_as_multiturn=%v", c.Multiturn), "--output_path", out, "--log_samples", "--no_progress"}
			if c.System != "" {
				line = append(line, "--system_instruction", c.System)
			}
			if _, err := runApp(t, line...); err != nil {
				t.Fatal(err)
			}
			got := samplesArgs(t, out, "chat_mc")
			if len(got) != len(c.Docs) {
				t.Fatalf("%d documents, want %d", len(got), len(c.Docs))
			}
			for i, d := range c.Docs {
				reqs := got[i]
				if len(reqs) != len(d.Continuations) {
					t.Errorf("doc %d: %d requests, want %d", i, len(reqs), len(d.Continuations))
					continue
				}
				for j, r := range reqs {
					if r[0] != d.Context || r[1] != d.Continuations[j] {
						t.Errorf("doc %d request %d:\ngot  %q + %q\nwant %q + %q", i, j, r[0], r[1], d.Context, d.Continuations[j])
					}
				}
			}
		})
	}
}

// TestChatTemplateErrors: a missing template name or file and a template
// that does not compile fail the run with errors that say so; a template
// that refuses the system role gets the prompts without it, as lm-eval's
// HF backend renders them.
func TestChatTemplateErrors(t *testing.T) {
	t.Chdir(chatDir)
	model := chatGGUF(t)
	for _, tc := range []struct {
		apply, system string
		want          []string
	}{
		{"tool_use", "", []string{"--apply_chat_template", `no chat template named "tool_use"`, "default, broken, gemma, llama3"}},
		{"missing.jinja", "", []string{"--apply_chat_template", "missing.jinja", "no such file"}},
		{"broken", "", []string{"--apply_chat_template", "chat.gguf", `template "broken"`, "endfor"}},
	} {
		line := []string{"run", "--model", "llama", "--model_args", "pretrained=" + model + ",threads=1",
			"--tasks", "chat_mc|1", "--include_path", ".", "--apply_chat_template=" + tc.apply, "--no_progress"}
		if tc.system != "" {
			line = append(line, "--system_instruction", tc.system)
		}
		_, err := runApp(t, line...)
		if err == nil {
			t.Errorf("--apply_chat_template=%s: no error", tc.apply)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("--apply_chat_template=%s: error %q lacks %q", tc.apply, err, w)
			}
		}
	}
	out := t.TempDir()
	if _, err := runApp(t, "run", "--model", "llama", "--model_args", "pretrained="+model+",threads=1",
		"--tasks", "chat_mc|1", "--include_path", ".", "--apply_chat_template=gemma", "--system_instruction", "Be brief.",
		"--output_path", out, "--log_samples", "--no_progress"); err != nil {
		t.Fatalf("gemma's template with a system instruction: %v", err)
	}
	for doc, reqs := range samplesArgs(t, out, "chat_mc") {
		if ctx := reqs[0][0]; strings.Contains(ctx, "Be brief.") || !strings.HasPrefix(ctx, "<s><start_of_turn>user\n") {
			t.Errorf("doc %d: gemma prompt %q: want it rendered without the system message", doc, ctx)
		}
	}
}

// sampleSink collects a task's samples in memory.
type sampleSink struct{ samples []*results.Sample }

func (s *sampleSink) Write(v any) error {
	s.samples = append(s.samples, v.(*results.Sample))
	return nil
}
func (s *sampleSink) Close() error { return nil }

// TestTruncateFewshots: with a small max_length, chat_mc|5 given as
// suite|task|shots|1 keeps for each document the most shots whose requests
// still fit (one more shot would not), and the run reports the cut for the
// task.
func TestTruncateFewshots(t *testing.T) {
	t.Chdir(chatDir)
	model := chatGGUF(t)
	train := readLines(t, "train.jsonl")
	test := readLines(t, "test.jsonl")

	// max_length leaves room for some shots but not all five, and for more
	// in some documents than in others.
	for _, tc := range []struct {
		chat      bool
		maxLength int
	}{{false, 210}, {true, 560}} {
		chat, maxLength := tc.chat, tc.maxLength
		t.Run(fmt.Sprintf("chat=%v", chat), func(t *testing.T) {
			m, err := engine.Load(model, engine.Options{MaxLength: maxLength, Threads: 1})
			if err != nil {
				t.Fatal(err)
			}
			defer m.Close()
			lm := llama.Wrap(m)
			var log bytes.Buffer
			old := slog.Default()
			slog.SetDefault(slog.New(slog.NewTextHandler(&log, nil)))
			defer slog.SetDefault(old)
			cfg, err := config.Resolve(config.Layer{Source: "test", Flags: true, Values: map[string]any{
				"model": "llama", "tasks": []string{"lighteval|chat_mc|5|1"}, "bootstrap_iters": "0",
				"apply_chat_template": chat,
			}})
			if err != nil {
				t.Fatal(err)
			}
			reg, _, err := harness.NewRegistry(context.Background(), harness.RegistryOptions{Builtin: benchmarks.FS(), Include: []string{"."}, NoTree: true})
			if err != nil {
				t.Fatal(err)
			}
			sink := &sampleSink{}
			open := func(string) (harness.SampleWriter, error) { return sink, nil }
			p, err := harness.NewPlan(cfg, harness.WithRegistry(reg), harness.WithSamples(open))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := p.Evaluate(context.Background(), lm); err != nil {
				t.Fatal(err)
			}
			if len(sink.samples) != len(test) {
				t.Fatalf("%d samples, want %d", len(sink.samples), len(test))
			}
			// shot renders one few-shot example as the context holds it.
			shot := func(d map[string]any) string {
				target := d["choices"].([]any)[int(d["label"].(float64))].(string)
				if chat { // ChatML, one turn pair per shot
					return fmt.Sprintf("<|im_start|>user\nQ: %s\nA:<|im_end|>\n<|im_start|>assistant\n%s<|im_end|>\n", d["question"], target)
				}
				return fmt.Sprintf("Q: %s\nA: %s\n\n", d["question"], target)
			}
			fits := func(ctx string, args [][]any) bool {
				for _, a := range args {
					n, err := lm.CountTokens(ctx + a[1].(string))
					if err != nil {
						t.Fatal(err)
					}
					if n > maxLength {
						return false
					}
				}
				return true
			}
			reduced, minShots := 0, 5
			counts := map[int]bool{}
			for _, s := range sink.samples {
				ctx := s.Arguments[0][0].(string)
				shots := strings.Count(ctx, "Q: ") - 1
				counts[shots] = true
				for i := range shots {
					if !strings.Contains(ctx, shot(train[i])) {
						t.Fatalf("doc %d: shot %d %q not in %q", s.DocID, i, shot(train[i]), ctx)
					}
				}
				if shots < 5 {
					reduced++
					minShots = min(minShots, shots)
				}
				if !fits(ctx, s.Arguments) && shots > 0 {
					t.Errorf("doc %d: %d shots do not fit %d tokens", s.DocID, shots, maxLength)
				}
				if shots == 5 {
					continue
				}
				// One more shot, inserted before the question, would not fit.
				q := "Q: " + test[s.DocID]["question"].(string)
				if chat {
					q = "<|im_start|>user\n" + q
				}
				at := strings.LastIndex(ctx, q)
				if at < 0 {
					t.Fatalf("doc %d: question %q not in %q", s.DocID, q, ctx)
				}
				more := ctx[:at] + shot(train[shots]) + ctx[at:]
				if fits(more, s.Arguments) {
					t.Errorf("doc %d: %d shots, but %d fit:\n%s", s.DocID, shots, shots+1, more)
				}
			}
			if reduced == 0 || minShots == 0 || len(counts) < 2 {
				t.Fatalf("max_length %d: shot counts %v; the test needs documents cut to different, non-zero counts", maxLength, counts)
			}
			want := fmt.Sprintf("task=chat_mc documents=%d min_shots=%d requested=5", reduced, minShots)
			if !strings.Contains(log.String(), "few-shot examples cut to fit the context") || !strings.Contains(log.String(), want) {
				t.Errorf("log lacks the cut (%s):\n%s", want, log.String())
			}
		})
	}
}
