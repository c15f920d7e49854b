package e2e

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/lmeval/lmeval/backend/llama"
	"github.com/lmeval/lmeval/benchmarks"
	"github.com/lmeval/lmeval/harness/dataset"
	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/harness/task"
)

const modelPath = "../../../shared/models/stories260K.gguf"

// taskFixtures maps each task to its fixture directory under benchmarks/testdata.
var taskFixtures = map[string]string{
	"arc_easy": "arc_easy", "arc_challenge": "arc_challenge", "hellaswag": "hellaswag",
	"lambada_openai": "lambada_openai", "lambada_standard": "lambada_standard",
	"wikitext": "wikitext", "winogrande": "winogrande", "boolq": "boolq",
	"openbookqa": "openbookqa", "piqa": "piqa", "sciq": "sciq",
	"mmlu_abstract_algebra": "mmlu/abstract_algebra", "mmlu_anatomy": "mmlu/anatomy",
	"truthfulqa_mc1": "truthfulqa", "truthfulqa_mc2": "truthfulqa", "truthfulqa_gen": "truthfulqa_gen",
	"gsm8k": "gsm8k", "gsm8k_cot": "gsm8k", "gsm8k_cot_zeroshot": "gsm8k",
	"gsm8k_cot_self_consistency": "gsm8k",
}

// localData points a task at its fixture files: dataset_path json with one
// data_files entry per split, as a user would for local data.
func localData(t *testing.T, dir string) map[string]any {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "testdata", dir, "*.jsonl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixture files in %s (%v)", dir, err)
	}
	df := map[string]any{}
	for _, f := range files {
		abs, _ := filepath.Abs(f)
		df[strings.TrimSuffix(filepath.Base(f), ".jsonl")] = abs
	}
	return map[string]any{"dataset_path": "json", "dataset_name": nil, "dataset_kwargs": map[string]any{"data_files": df}}
}

func loader(ctx context.Context, spec task.DatasetSpec, split string) ([]task.Doc, error) {
	return dataset.Load(ctx, dataset.Spec{Path: spec.Path, Name: spec.Name, Kwargs: spec.Kwargs}, split, dataset.Options{Offline: true})
}

// TestBuiltinTasksOnStories260K runs every built-in task with fixture data
// (all but 55 MMLU subjects) through the model and checks what comes back.
func TestBuiltinTasksOnStories260K(t *testing.T) {
	if _, err := os.Stat(modelPath); err != nil {
		t.Skipf("stories260K not available (%v); ../shared is absent", err)
	}
	ctx := context.Background()
	lm, err := llama.New(ctx, model.Args{"pretrained": modelPath, "n_ctx": "2048", "seed": "1234"})
	if err != nil {
		t.Fatal(err)
	}
	defer lm.(model.Closer).Close()

	reg := task.NewRegistry()
	if err := reg.AddFS("", benchmarks.FS()); err != nil {
		t.Fatal(err)
	}
	var names []string
	for n := range taskFixtures {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			sel, err := reg.LoadWith(name, localData(t, taskFixtures[name]))
			if err != nil {
				t.Fatal(err)
			}
			tk := sel.Tasks()[0]
			opts := task.BuildOptions{Loader: loader}
			if tk.Config.OutputType == task.OutputGenerateUntil {
				// Long few-shot prompts: one document is enough here.
				opts.Limit = 1
			}
			if err := tk.BuildRequests(ctx, opts); err != nil {
				t.Fatal(err)
			}
			if want := map[string]int{"gsm8k_cot_self_consistency": 64}[name]; want > 0 && tk.Instances[0].Repeats != want {
				t.Errorf("repeats %d, want %d", tk.Instances[0].Repeats, want)
			}
			runTask(ctx, t, lm, tk)
		})
	}
}

func runTask(ctx context.Context, t *testing.T, lm model.LM, tk *task.Task) {
	var ll []model.LoglikelihoodRequest
	var roll []model.RollingRequest
	var gen []model.GenerateRequest
	for _, in := range tk.Instances {
		switch in.Type {
		case "loglikelihood":
			ll = append(ll, in.Loglikelihood)
		case "loglikelihood_rolling":
			roll = append(roll, in.Rolling)
		case "generate_until":
			// Once, not 64 times: the sampled repeats are the evaluator's.
			g := in.Generate
			if g.MaxGenToks == 0 || g.MaxGenToks > 32 {
				g.MaxGenToks = 32 // stories260K rambles; the stop strings are what is checked
			}
			gen = append(gen, g)
		}
	}
	llRes, err := lm.Loglikelihood(ctx, ll)
	if err != nil {
		t.Fatal(err)
	}
	rollRes, err := lm.LoglikelihoodRolling(ctx, roll)
	if err != nil {
		t.Fatal(err)
	}
	genRes, err := lm.GenerateUntil(ctx, gen)
	if err != nil {
		t.Fatal(err)
	}
	if len(llRes) != len(ll) || len(rollRes) != len(roll) || len(genRes) != len(gen) {
		t.Fatalf("answers %d/%d/%d for requests %d/%d/%d", len(llRes), len(rollRes), len(genRes), len(ll), len(roll), len(gen))
	}

	// Per document, its results in request order, as process_results
	// receives them.
	perDoc := map[int][]any{}
	var li, ri, gi int
	for _, in := range tk.Instances {
		switch in.Type {
		case "loglikelihood":
			r := llRes[li]
			li++
			if !(r.LogProb <= 0) || math.IsInf(r.LogProb, 0) || r.NumTokens <= 0 {
				t.Errorf("doc %d: loglikelihood %+v of %q", in.DocID, r, in.Loglikelihood.Continuation)
			}
			perDoc[in.DocID] = append(perDoc[in.DocID], r)
		case "loglikelihood_rolling":
			r := rollRes[ri]
			ri++
			if !(r.LogProb < 0) || math.IsInf(r.LogProb, 0) || r.NumTokens <= 0 {
				t.Errorf("doc %d: rolling %+v", in.DocID, r)
			}
			perDoc[in.DocID] = append(perDoc[in.DocID], r)
		case "generate_until":
			s := genRes[gi]
			for _, stop := range gen[gi].Until {
				if stop != "" && strings.Contains(s, stop) {
					t.Errorf("doc %d: generation %q contains stop string %q", in.DocID, s, stop)
				}
			}
			gi++
			perDoc[in.DocID] = append(perDoc[in.DocID], s)
		}
	}
	if len(perDoc) != len(tk.Docs) {
		t.Errorf("results for %d documents, want %d", len(perDoc), len(tk.Docs))
	}
	for _, d := range tk.Docs {
		m, ok, err := tk.ProcessResults(d.Doc, perDoc[d.ID])
		if err != nil {
			t.Errorf("doc %d: process_results: %v", d.ID, err)
			continue
		}
		if !ok {
			continue // scored by the evaluator's built-in metrics
		}
		checkNative(t, tk.Name, d.ID, m, perDoc[d.ID])
	}
}

// checkNative checks the native process_results against values computed
// here from the raw results.
func checkNative(t *testing.T, name string, id int, m map[string]any, res []any) {
	t.Helper()
	switch name {
	case "truthfulqa_mc2":
		acc := m["acc"].(float64)
		if !(acc >= 0 && acc <= 1) {
			t.Errorf("doc %d: mc2 acc %v outside [0, 1]", id, acc)
		}
	case "wikitext":
		for _, k := range []string{"word_perplexity", "byte_perplexity", "bits_per_byte"} {
			if _, ok := m[k]; !ok {
				t.Errorf("doc %d: no %s", id, k)
			}
		}
	case "truthfulqa_gen":
		for k, v := range m {
			f, isF := v.(float64)
			if strings.HasSuffix(k, "_max") && (!isF || f < 0 || f > 100+1e-9) {
				t.Errorf("doc %d: %s = %v", id, k, v)
			}
		}
		if len(m) != 12 {
			t.Errorf("doc %d: %d metrics, want 12", id, len(m))
		}
	default:
		t.Errorf("doc %d: unexpected native process_results for %s", id, name)
	}
}
