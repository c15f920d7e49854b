package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lmeval/lmeval/engine"
)

// thinkTemplate is a synthetic reasoning template for stories260K, which
// has no reasoning tokens: like DeepSeek-R1's, its generation prompt opens
// the trace, so the model's first token is reasoning.
const thinkTemplate = "{{ bos_token }}{% for m in messages %}{{ m.content }}{% endfor %}{% if add_generation_prompt %} Once upon a time<think>{% endif %}"

// TestReasoningBudgetRun runs toy_gen on stories260K as a reasoning model
// (think_end_token, reasoning_budget, the template above) and checks the
// run end to end: every trace is cut after the budget with the message and
// the end marker forced; the samples keep the whole generations while
// resps, filters and metrics have the answer (what follows </think>,
// left-stripped, cut at the stop string); the results count each task's
// thinking and answer tokens as the samples do.
func TestReasoningBudgetRun(t *testing.T) {
	model := storiesPath(t)
	tmpl := filepath.Join(t.TempDir(), "think.jinja")
	if err := os.WriteFile(tmpl, []byte(thinkTemplate), 0o644); err != nil {
		t.Fatal(err)
	}
	const budget, message = 3, " Then"
	vocab, err := engine.Load(model, engine.Options{VocabOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	forced, err := vocab.Tokenize(message+"</think>", false, true)
	vocab.Close()
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(harnessDir)
	out := t.TempDir()
	if _, err := runApp(t, "run", "--model", "llama", "--model_args",
		"pretrained="+model+",threads=1,think_end_token=</think>,reasoning_budget=3,reasoning_budget_message="+message,
		"--tasks", "toy_gen", "--include_path", "testdata/tasks", "--apply_chat_template", tmpl,
		"--gen_kwargs", "max_gen_toks=24", "--log_samples", "--output_path", out, "--no_progress"); err != nil {
		t.Fatal(err)
	}
	samples, _ := filepath.Glob(filepath.Join(out, "*", "samples_toy_gen_*.jsonl"))
	resFiles, _ := filepath.Glob(filepath.Join(out, "*", "results_*.json"))
	if len(samples) != 1 || len(resFiles) != 1 {
		t.Fatalf("outputs: %v %v", samples, resFiles)
	}
	var thinking, tokens, n int
	seen := map[float64]bool{}
	for _, s := range readLines(t, samples[0]) {
		if seen[s["doc_id"].(float64)] {
			continue // one record per filter
		}
		seen[s["doc_id"].(float64)] = true
		g := s["generations"].([]any)[0].([]any)[0].(map[string]any)
		text := g["text"].(string)
		if !strings.Contains(text, message+"</think>") || g["budget_hit"] != true {
			t.Errorf("doc %v: generation %q: the budget did not force %q", s["doc_id"], text, message+"</think>")
		}
		if got := int(g["thinking_tokens"].(float64)); got != budget+len(forced) {
			t.Errorf("doc %v: %d thinking tokens, want %d", s["doc_id"], got, budget+len(forced))
		}
		// lm-eval's postprocess_generated_text on the whole generation.
		answer := strings.TrimLeft(text[strings.LastIndex(text, "</think>")+len("</think>"):], " \t\n\r\v\f")
		answer, _, _ = strings.Cut(answer, "\n")
		if got := s["resps"].([]any)[0].([]any)[0]; got != answer {
			t.Errorf("doc %v: resps %q, want the answer %q of %q", s["doc_id"], got, answer, text)
		}
		thinking += int(g["thinking_tokens"].(float64))
		tokens += int(g["tokens"].(float64))
		n++
	}
	if n != 4 {
		t.Fatalf("%d documents in the samples, want 4", n)
	}
	data, err := os.ReadFile(resFiles[0])
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		LMEval struct {
			Generation map[string]struct {
				Requests       int `json:"requests"`
				Counted        int `json:"counted"`
				Tokens         int `json:"tokens"`
				ThinkingTokens int `json:"thinking_tokens"`
				AnswerTokens   int `json:"answer_tokens"`
				BudgetHits     int `json:"budget_hits"`
			} `json:"generation"`
		} `json:"lmeval"`
	}
	if err := json.Unmarshal(data, &res); err != nil {
		t.Fatal(err)
	}
	st, ok := res.LMEval.Generation["toy_gen"]
	if !ok {
		t.Fatalf("no lmeval.generation.toy_gen in %s", data)
	}
	if st.Requests != 4 || st.Counted != 4 || st.BudgetHits != 4 || st.ThinkingTokens != thinking ||
		st.Tokens != tokens || st.AnswerTokens != tokens-thinking {
		t.Errorf("generation counts %+v; the samples say %d requests, %d tokens, %d thinking", st, n, tokens, thinking)
	}
}
