package harness

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lmeval/lmeval/benchmarks"
	"github.com/lmeval/lmeval/benchmarks/fixtures"
	"github.com/lmeval/lmeval/harness/config"
	"github.com/lmeval/lmeval/harness/dataset"
	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/harness/results"
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/internal/output"
	"github.com/lmeval/lmeval/python/pyval"
)

// constLM gives run_ref.py's constant dummy answers: loglikelihood
// (-1.0, False), rolling -1.0, generate_until "".
type constLM struct{}

func (constLM) Loglikelihood(_ context.Context, reqs []model.LoglikelihoodRequest) ([]model.LoglikelihoodResult, error) {
	out := make([]model.LoglikelihoodResult, len(reqs))
	for i := range out {
		out[i] = model.LoglikelihoodResult{LogProb: -1}
	}
	return out, nil
}

func (constLM) LoglikelihoodRolling(_ context.Context, reqs []model.RollingRequest) ([]model.RollingResult, error) {
	out := make([]model.RollingResult, len(reqs))
	for i := range out {
		out[i] = model.RollingResult{LogProb: -1}
	}
	return out, nil
}

func (constLM) GenerateUntil(_ context.Context, reqs []model.GenerateRequest) ([]string, error) {
	return make([]string, len(reqs)), nil
}

// datasetFixtures serves the fixture documents, and their column order,
// through the dataset package's JSON loader, as `dataset_path: json` with
// data_files would.
func datasetFixtures() (task.DocLoader, task.ColumnLoader) {
	l := dataset.NewLoader(dataset.Options{Offline: true})
	spec := func(s task.DatasetSpec, split string) (dataset.Spec, error) {
		file, ok := fixtures.File(s.Path, s.Name, split)
		if !ok {
			return dataset.Spec{}, fmt.Errorf("no fixture for dataset %s/%s split %s", s.Path, s.Name, split)
		}
		return dataset.Spec{Path: "json", Kwargs: map[string]any{"data_files": map[string]any{split: file}}}, nil
	}
	docs := func(ctx context.Context, s task.DatasetSpec, split string) ([]task.Doc, error) {
		ds, err := spec(s, split)
		if err != nil {
			return nil, err
		}
		return l.Load(ctx, ds, split)
	}
	cols := func(ctx context.Context, s task.DatasetSpec, split string) (*pyval.Columns, error) {
		ds, err := spec(s, split)
		if err != nil {
			return nil, err
		}
		return l.Columns(ctx, ds, split)
	}
	return docs, cols
}

// firstDiff shows where got and want part.
func firstDiff(got, want []byte) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	from := max(0, i-80)
	return fmt.Sprintf(" got ...%s\nwant ...%s", got[from:min(len(got), i+80)], want[from:min(len(want), i+80)])
}

// orderedKeys returns the keys of a JSON object in their order.
func orderedKeys(t *testing.T, data []byte) []string {
	t.Helper()
	var o results.OrderedMap[json.RawMessage]
	if err := json.Unmarshal(data, &o); err != nil {
		t.Fatal(err)
	}
	return o.Keys()
}

// TestLMEvalReference runs built-in tasks and a group over their fixture
// documents with the answers lm-eval's runner gave them
// (testdata/lmeval_ref/gen.py) and compares the samples files byte for
// byte, the results file key for key and the tables row for row with what
// lm-eval wrote.
func TestLMEvalReference(t *testing.T) {
	dir := filepath.Join("testdata", "lmeval_ref")
	reg, _, err := NewRegistry(context.Background(), RegistryOptions{Builtin: benchmarks.FS(), Include: []string{filepath.Join(dir, "tasks")}, NoTree: true})
	if err != nil {
		t.Fatal(err)
	}
	cfg := testConfig(t, "wikitext", "mmlu_abstract_algebra", "gsm8k", "parity_outer")
	cfg.LogSamples = true
	out := t.TempDir()
	layout := output.NewLayout(out, "ref", time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	open := func(name string) (SampleWriter, error) { return layout.OpenSamples(name) }
	docs, cols := datasetFixtures()
	res, err := evaluate(context.Background(), cfg, constLM{}, WithRegistry(reg), WithLoader(docs), WithColumns(cols), WithSamples(open))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"arc_easy", "gsm8k", "hellaswag", "mmlu_abstract_algebra", "wikitext", "winogrande"} {
		want, err := os.ReadFile(filepath.Join(dir, "samples_"+name+".jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(layout.SamplesFile(name) + output.PartialSuffix) // not committed: read as written
		if err != nil {
			t.Fatal(err)
		}
		wl, gl := bytes.Split(want, []byte("\n")), bytes.Split(got, []byte("\n"))
		if len(wl) != len(gl) {
			t.Errorf("%s: %d sample lines, lm-eval has %d", name, len(gl), len(wl))
			continue
		}
		for i := range wl {
			if !bytes.Equal(wl[i], gl[i]) {
				t.Errorf("%s line %d differs from lm-eval's:\n%s", name, i+1, firstDiff(gl[i], wl[i]))
			}
		}
	}

	data, err := res.JSON()
	if err != nil {
		t.Fatal(err)
	}
	wantData, err := os.ReadFile(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var want map[string]json.RawMessage
	if err := json.Unmarshal(wantData, &want); err != nil {
		t.Fatal(err)
	}
	var wantKeys []string
	if err := json.Unmarshal(want["keys"], &wantKeys); err != nil {
		t.Fatal(err)
	}
	// Left out (Python's environment, see results.Results), and added:
	// lmeval's own block.
	omitted := map[string]bool{"pretty_env_info": true, "transformers_version": true, "lm_eval_version": true, "upper_git_hash": true}
	var keep []string
	for _, k := range wantKeys {
		if !omitted[k] {
			keep = append(keep, k)
		}
	}
	gotKeys := orderedKeys(t, data)
	if g, w := strings.Join(gotKeys, " "), strings.Join(append(keep, "lmeval"), " "); g != w {
		t.Errorf("results keys:\n got %s\nwant %s", g, w)
	}
	var got map[string]json.RawMessage
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	// The tables, byte for byte as lm-eval printed them through the real
	// pytablewriter (gen.py run by scripts/parity/realgen_all.py).
	tables, err := os.ReadFile(filepath.Join(dir, "tables.md"))
	if err != nil {
		t.Fatal(err)
	}
	wantTables := strings.SplitN(string(tables), "\n\n", 2)
	for i, column := range []string{"results", "groups"} {
		if got, want := res.Table(column, false), strings.TrimSuffix(wantTables[i], "\n")+"\n"; got != want {
			t.Errorf("%s table:\n%s\nlm-eval printed:\n%s", column, got, want)
		}
	}
	if res.ModelSource != cfg.Model {
		t.Errorf("model_source = %q, want the --model %q", res.ModelSource, cfg.Model)
	}
	for k, w := range want {
		if k == "keys" {
			continue
		}
		var wi, gi bytes.Buffer
		json.Indent(&wi, w, "", " ")
		json.Indent(&gi, got[k], "", " ")
		if wi.String() != gi.String() {
			t.Errorf("%s:\n got %s\nwant %s", k, gi.String(), wi.String())
		}
	}
}

// TestLMEvalReferenceGenKwargs: with --gen_kwargs, the requests' kwargs are
// the task's updated in place, new keys after them in the order given, as
// lm-eval's dict.update leaves them.
func TestLMEvalReferenceGenKwargs(t *testing.T) {
	dir := filepath.Join("testdata", "lmeval_ref")
	cfg, err := config.Resolve(config.Layer{Source: "test", Flags: true, Values: map[string]any{
		"model": "dummy", "tasks": []string{"gsm8k"}, "bootstrap_iters": "0",
		"gen_kwargs": []string{"top_k=3,max_gen_toks=7,do_sample=False"}, // gen.py's GEN_KWARGS
	}})
	if err != nil {
		t.Fatal(err)
	}
	layout := output.NewLayout(t.TempDir(), "ref", time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	open := func(name string) (SampleWriter, error) { return layout.OpenSamples(name) }
	docs, cols := datasetFixtures()
	if _, err := evaluate(context.Background(), cfg, constLM{}, WithBuiltinTasks(benchmarks.FS()), WithLoader(docs), WithColumns(cols), WithSamples(open)); err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join(dir, "gen_kwargs", "samples_gsm8k.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(layout.SamplesFile("gsm8k") + output.PartialSuffix)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("samples differ from lm-eval's:\n%s", firstDiff(got, want))
	}
}
