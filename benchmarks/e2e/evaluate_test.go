package e2e

import (
	"context"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/lmeval/lmeval/backend/llama"
	"github.com/lmeval/lmeval/benchmarks"
	"github.com/lmeval/lmeval/benchmarks/fixtures"
	"github.com/lmeval/lmeval/harness"
	"github.com/lmeval/lmeval/harness/config"
	"github.com/lmeval/lmeval/harness/dataset"
	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/wikitext"
	"github.com/lmeval/lmeval/ports/winogrande"
)

// fixtureJSON reads a task's fixture split through the dataset loader, as
// local JSON files (dataset_path json, data_files).
func fixtureJSON(ctx context.Context, spec task.DatasetSpec, split string) ([]task.Doc, error) {
	f, ok := fixtures.File(spec.Path, spec.Name, split)
	if !ok {
		return nil, fmt.Errorf("no fixture for dataset %s/%s", spec.Path, spec.Name)
	}
	return dataset.Load(ctx, dataset.Spec{Path: "json", Kwargs: map[string]any{"data_files": map[string]any{split: f}}}, split, dataset.Options{Offline: true})
}

// loadModel loads stories260K with an f32 KV cache: exact attention, so
// that answers do not depend on how the evaluator batches requests
// (llama.cpp's f16 attention moves log-likelihoods by ~1e-3 with the batch
// layout).
func loadModel(t *testing.T) model.LM {
	t.Helper()
	if _, err := os.Stat(modelPath); err != nil {
		t.Skipf("stories260K not available (%v); ../shared is absent", err)
	}
	lm, err := llama.New(context.Background(), model.Args{"pretrained": modelPath, "n_ctx": "2048", "type_k": "f32", "type_v": "f32"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lm.(model.Closer).Close() })
	return lm
}

func evaluate(t *testing.T, lm model.LM, values map[string]any) map[string]map[string]float64 {
	t.Helper()
	values["model"] = "llama"
	values["model_args"] = "pretrained=" + modelPath
	cfg, err := config.Resolve(config.Layer{Source: "test", Flags: true, Values: values})
	if err != nil {
		t.Fatal(err)
	}
	p, err := harness.NewPlan(cfg, harness.WithBuiltinTasks(benchmarks.FS()), harness.WithLoader(fixtureJSON))
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Evaluate(context.Background(), lm)
	if err != nil {
		t.Fatal(err)
	}
	if testing.Verbose() {
		t.Logf("\n%s", res.Tables())
	}
	return res.Summary()
}

// TestEvaluateScoredTasks evaluates every log-likelihood task (multiple
// choice, loglikelihood, rolling) on stories260K with harness.NewPlan and Plan.Evaluate and
// recomputes each number here from the model's raw answers to the same
// requests, with lm-eval's formulas.
func TestEvaluateScoredTasks(t *testing.T) {
	lm := loadModel(t)
	names := []string{
		"arc_easy", "arc_challenge", "hellaswag", "lambada_openai", "lambada_standard", "wikitext",
		"winogrande", "boolq", "openbookqa", "piqa", "sciq", "truthfulqa_mc1", "truthfulqa_mc2",
		"mmlu_abstract_algebra",
	}
	got := evaluate(t, lm, map[string]any{"tasks": names, "bootstrap_iters": "0"})

	reg := task.NewRegistry()
	if err := reg.AddFS("", benchmarks.FS()); err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		sel, err := reg.Load([]string{name})
		if err != nil {
			t.Fatal(err)
		}
		tk := sel.Tasks()[0]
		if err := tk.BuildRequests(context.Background(), task.BuildOptions{Loader: fixtureJSON}); err != nil {
			t.Fatal(err)
		}
		want := recompute(t, lm, tk)
		for k, w := range want {
			g, ok := got[name][k]
			if !ok {
				t.Errorf("%s: no %s in results %v", name, k, got[name])
				continue
			}
			// Exact attention still sums in a batch-dependent order:
			// log-likelihoods agree to ~1e-5.
			if math.Abs(g-w) > 2e-5*math.Max(1, math.Abs(w)) {
				t.Errorf("%s %s = %.10g, recomputed %.10g", name, k, g, w)
			}
		}
	}
}

// recompute scores a built task from the model's answers to its requests,
// one call per request, with lm-eval's per-document formulas and mean /
// perplexity / weighted aggregations.
func recompute(t *testing.T, lm model.LM, tk *task.Task) map[string]float64 {
	t.Helper()
	type res struct {
		ll     float64
		greedy bool
	}
	perDoc := map[int][]res{}
	var rollLL []float64
	for _, in := range tk.Instances {
		switch in.Type {
		case "loglikelihood":
			r, err := lm.Loglikelihood(context.Background(), []model.LoglikelihoodRequest{in.Loglikelihood})
			if err != nil {
				t.Fatal(err)
			}
			perDoc[in.DocID] = append(perDoc[in.DocID], res{r[0].LogProb, r[0].IsGreedy})
		case "loglikelihood_rolling":
			r, err := lm.LoglikelihoodRolling(context.Background(), []model.RollingRequest{in.Rolling})
			if err != nil {
				t.Fatal(err)
			}
			rollLL = append(rollLL, r[0].LogProb)
		}
	}
	out := map[string]float64{}
	n := float64(len(tk.Docs))
	switch tk.Config.OutputType {
	case task.OutputMultipleChoice:
		var acc, accNorm, mc2 float64
		for _, d := range tk.Docs {
			rs := perDoc[d.ID]
			pred, predNorm := 0, 0
			for i, r := range rs {
				if r.ll > rs[pred].ll {
					pred = i
				}
				if r.ll/float64(utf8.RuneCountInString(d.Choices[i])) > rs[predNorm].ll/float64(utf8.RuneCountInString(d.Choices[predNorm])) {
					predNorm = i
				}
			}
			gold := goldOf(t, tk, d)
			if pred == gold {
				acc++
			}
			if predNorm == gold {
				accNorm++
			}
			if tk.Name == "truthfulqa_mc2" {
				lls := make([]float64, len(rs))
				for i, r := range rs {
					lls[i] = r.ll
				}
				labels := d.Doc["mc2_targets"].(map[string]any)["labels"].([]any)
				split := 0
				for split < len(labels) && labels[split].(int64) != 0 {
					split++
				}
				var pt, pa float64
				for i, ll := range lls {
					if i < split {
						pt += math.Exp(ll)
					}
					pa += math.Exp(ll)
				}
				mc2 += pt / pa
			}
		}
		if tk.Name == "truthfulqa_mc2" {
			out["acc,none"] = mc2 / n
			break
		}
		out["acc,none"] = acc / n
		for _, m := range tk.Config.MetricNames() {
			if m == "acc_norm" {
				out["acc_norm,none"] = accNorm / n
			}
		}
	case task.OutputLoglikelihood:
		var acc, sum float64
		for _, d := range tk.Docs {
			r := perDoc[d.ID][0]
			sum += r.ll
			if r.greedy {
				acc++
			}
		}
		out["acc,none"] = acc / n
		out["perplexity,none"] = math.Exp(-sum / n)
	case task.OutputLoglikelihoodRolling:
		var ll, words, bytes float64
		for i, d := range tk.Docs {
			w, b := wikitext.Counts(d.Doc["page"].(string))
			ll += rollLL[i]
			words += float64(w)
			bytes += float64(b)
		}
		out["word_perplexity,none"] = math.Exp(-ll / words)
		out["byte_perplexity,none"] = math.Exp(-ll / bytes)
		out["bits_per_byte,none"] = -ll / bytes / math.Ln2
	}
	return out
}

// goldOf is the gold choice: the target as an index, or the target's place
// among the choices; for winogrande (multiple_input) doc_to_text's index.
func goldOf(t *testing.T, tk *task.Task, d *task.DocInfo) int {
	t.Helper()
	if tk.MultipleInput {
		g, err := winogrande.DocToText(d.Doc)
		if err != nil {
			t.Fatal(err)
		}
		return int(g)
	}
	switch x := d.Target.(type) {
	case int:
		return x
	case int64:
		return int(x)
	case string:
		for i, c := range d.Choices {
			if c == x {
				return i
			}
		}
	}
	t.Fatalf("%s doc %d: gold of target %#v", tk.Name, d.ID, d.Target)
	return -1
}

// TestEvaluateMMLUGroup evaluates the mmlu group (every subject on the
// abstract_algebra fixture, first document only) and checks the group
// rows: each category's acc is the size-weighted mean of its subjects',
// and mmlu's of the categories'.
func TestEvaluateMMLUGroup(t *testing.T) {
	lm := loadModel(t)
	got := evaluate(t, lm, map[string]any{"tasks": []string{"mmlu"}, "limit": "1", "bootstrap_iters": "0"})
	reg := task.NewRegistry()
	if err := reg.AddFS("", benchmarks.FS()); err != nil {
		t.Fatal(err)
	}
	sel, err := reg.Load([]string{"mmlu"})
	if err != nil {
		t.Fatal(err)
	}
	var all float64
	for _, sub := range sel.Members[0].Group.Members {
		var sum float64
		subjects := sub.Group.AllTasks(true)
		for _, tk := range subjects {
			acc, ok := got[tk.Name]["acc,none"]
			if !ok {
				t.Fatalf("no acc for %s", tk.Name)
			}
			sum += acc // one document each: size weights are all 1
		}
		if g, w := got[sub.Group.Name]["acc,none"], sum/float64(len(subjects)); math.Abs(g-w) > 1e-12 {
			t.Errorf("%s acc = %v, want %v", sub.Group.Name, g, w)
		}
		all += sum
	}
	if g, w := got["mmlu"]["acc,none"], all/57; math.Abs(g-w) > 1e-12 {
		t.Errorf("mmlu acc = %v, want %v", g, w)
	}
}

// TestEvaluateGenerationTasks runs the generate_until tasks on their first
// document (greedy, 32 new tokens at most) and checks every filter reports
// its metrics. gsm8k_cot_self_consistency (64 sampled answers of an 8-shot
// prompt, minutes on a CPU) is run once per request in
// TestBuiltinTasksOnStories260K instead.
func TestEvaluateGenerationTasks(t *testing.T) {
	lm := loadModel(t)
	names := []string{"gsm8k", "gsm8k_cot", "gsm8k_cot_zeroshot", "truthfulqa_gen"}
	got := evaluate(t, lm, map[string]any{
		"tasks": names, "limit": "1", "bootstrap_iters": "0",
		"gen_kwargs": map[string]any{"max_gen_toks": 32},
	})
	want := map[string][]string{
		"gsm8k":              {"exact_match,strict-match", "exact_match,flexible-extract"},
		"gsm8k_cot":          {"exact_match,strict-match", "exact_match,flexible-extract"},
		"gsm8k_cot_zeroshot": {"exact_match,strict-match", "exact_match,flexible-extract"},
		"truthfulqa_gen":     {"bleu_max,none", "bleu_acc,none", "rouge1_diff,none", "rougeL_acc,none"},
	}
	for name, keys := range want {
		for _, k := range keys {
			v, ok := got[name][k]
			if !ok || math.IsNaN(v) {
				t.Errorf("%s: %s = %v, %v (have %v)", name, k, v, ok, got[name])
			}
			if strings.HasPrefix(k, "exact_match") && (v < 0 || v > 1) {
				t.Errorf("%s: %s = %v", name, k, v)
			}
		}
	}
}
