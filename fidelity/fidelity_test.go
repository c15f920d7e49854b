package fidelity_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/lmeval/lmeval/benchmarks"
	"github.com/lmeval/lmeval/harness"
	"github.com/lmeval/lmeval/harness/config"
	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/harness/results"
	"github.com/lmeval/lmeval/harness/task"
	_ "github.com/lmeval/lmeval/ports/all"
)

const lmevalTasks = "../../shared/lm-eval/lm_eval/tasks"

// refCase is one case of testdata/<family>/cases.json (README.md).
type refCase struct {
	Task       string            `json:"task"`
	Include    string            `json:"include"`
	DataFiles  map[string]string `json:"data_files"`
	NumFewshot *int              `json:"num_fewshot"`
	Answers    []string          `json:"answers"`
	YAML       string            `json:"yaml"`
	Alone      bool              `json:"alone"`
	// KnownDiff, when set, is a difference from lm-eval that is known and
	// reported (or a task lmeval cannot run yet): the case is skipped with
	// this reason, so the list stays visible in `go test -v`.
	KnownDiff string `json:"known_diff"`
}

// expected is what gen.py wrote for a case from the real lm-eval.
type expected struct {
	Requests []struct {
		DocID       int             `json:"doc_id"`
		Idx         int             `json:"idx"`
		RequestType string          `json:"request_type"`
		Arguments   []any           `json:"arguments"`
		Answer      json.RawMessage `json:"answer"`
	} `json:"requests"`
	Results        map[string]any `json:"results"`
	NShot          any            `json:"n-shot"`
	HigherIsBetter map[string]any `json:"higher_is_better"`
	Samples        []struct {
		DocID   int            `json:"doc_id"`
		Filter  string         `json:"filter"`
		Metrics map[string]any `json:"metrics"`
	} `json:"samples"`
}

type family struct {
	name  string
	cases []refCase
}

func families(t *testing.T) []family {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "*", "cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	var out []family
	for _, f := range files {
		var cs []refCase
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &cs); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out = append(out, family{filepath.Base(filepath.Dir(f)), cs})
	}
	return out
}

// TestFidelity runs every case through lmeval's evaluator with the answers
// lm-eval got (a replaying LM) and compares the requests, each sample's
// metrics and the task's results entry with the real lm-eval's.
func TestFidelity(t *testing.T) {
	tasksDir, err := filepath.Abs(lmevalTasks)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(tasksDir); err != nil {
		t.Skip("../shared/lm-eval not present")
	}
	for _, fam := range families(t) {
		t.Run(fam.name, func(t *testing.T) {
			for _, c := range fam.cases {
				t.Run(c.Task, func(t *testing.T) { runCase(t, tasksDir, fam.name, c) })
			}
		})
	}
}

func wrapperYAML(tasksDir, dataDir string, c refCase) string {
	var y strings.Builder
	fmt.Fprintf(&y, "include: %s\ntask: %s\ndataset_path: json\ndataset_name: null\ndataset_kwargs:\n  data_files:\n",
		filepath.Join(tasksDir, c.Include), c.Task)
	splits := make([]string, 0, len(c.DataFiles))
	for s := range c.DataFiles {
		splits = append(splits, s)
	}
	sort.Strings(splits)
	for _, s := range splits {
		fmt.Fprintf(&y, "    %s: %q\n", s, filepath.Join(dataDir, c.DataFiles[s]))
	}
	if c.YAML != "" {
		y.WriteString(strings.TrimRight(c.YAML, "\n") + "\n")
	}
	return y.String()
}

func runCase(t *testing.T, tasksDir, fam string, c refCase) {
	if c.KnownDiff != "" {
		t.Skip("known difference: " + c.KnownDiff)
	}
	var want expected
	b, err := os.ReadFile(filepath.Join("testdata", fam, "expected", c.Task+".json"))
	if err != nil {
		t.Fatalf("%v (run fidelity/gen.py)", err)
	}
	if err := json.Unmarshal(quoteNonFinite(b), &want); err != nil {
		t.Fatal(err)
	}
	dataDir, err := filepath.Abs(filepath.Join("testdata", fam, "data"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, c.Task+".yaml"), []byte(wrapperYAML(tasksDir, dataDir, c)), 0o644); err != nil {
		t.Fatal(err)
	}
	lm := newReplayLM(t, &want)
	vals := map[string]any{"model": "dummy", "tasks": []string{c.Task}, "include_path": []string{dir}, "log_samples": true, "output_path": filepath.Join(dir, "out")}
	if c.NumFewshot != nil {
		vals["num_fewshot"] = fmt.Sprint(*c.NumFewshot)
	}
	cfg, err := config.Resolve(config.Layer{Source: "test", Flags: true, Values: vals})
	if err != nil {
		t.Fatal(err)
	}
	samples := &memSamples{}
	p, err := harness.NewPlan(cfg, harness.WithBuiltinTasks(benchmarks.FS()), harness.WithWriteOut(io.Discard),
		harness.WithSamples(func(string) (harness.SampleWriter, error) { return samples, nil }))
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Evaluate(context.Background(), lm)
	if err != nil {
		t.Fatal(err)
	}
	if len(lm.missing) > 0 {
		t.Errorf("%d requests lm-eval did not make; first: %s", len(lm.missing), lm.missing[0])
	}
	compareRequests(t, &want, samples.all)
	compareSamples(t, &want, samples.all)
	compareResults(t, c.Task, &want, res)
}

// compareRequests checks each document's requests (order and arguments)
// against lm-eval's, through the samples' arguments.
func compareRequests(t *testing.T, want *expected, got []*results.Sample) {
	t.Helper()
	// The dump has one line per repeat of a request (repeats: N); lmeval's
	// sample lists the request once. (A class task's requests can share
	// an idx: squadv2's generation and log-likelihood are both 0.)
	type reqKey struct {
		doc, idx int
		typ      string
	}
	wantBy := map[int][]any{}
	seen := map[reqKey]bool{}
	for _, r := range want.Requests {
		if k := (reqKey{r.DocID, r.Idx, r.RequestType}); !seen[k] {
			seen[k] = true
			wantBy[r.DocID] = append(wantBy[r.DocID], r.Arguments)
		}
	}
	gotBy := map[int][]any{}
	for _, s := range got {
		if _, seen := gotBy[s.DocID]; seen {
			continue // one sample per filter: the requests are the same
		}
		var args []any
		for _, a := range s.Arguments {
			args = append(args, normal(t, a))
		}
		gotBy[s.DocID] = args
	}
	if len(gotBy) != len(wantBy) {
		t.Errorf("%d documents, lm-eval has %d", len(gotBy), len(wantBy))
	}
	for id, w := range wantBy {
		g := gotBy[id]
		if len(g) != len(w) {
			t.Errorf("doc %d: %d requests, lm-eval made %d", id, len(g), len(w))
			continue
		}
		for i := range w {
			if !reflect.DeepEqual(g[i], w[i]) {
				t.Errorf("doc %d request %d:\n got %q\nwant %q", id, i, g[i], w[i])
			}
		}
	}
}

func compareSamples(t *testing.T, want *expected, got []*results.Sample) {
	t.Helper()
	type key struct {
		filter string
		doc    int
	}
	gotBy := map[key]*results.Sample{}
	for _, s := range got {
		gotBy[key{s.Filter, s.DocID}] = s
	}
	if len(got) != len(want.Samples) {
		t.Errorf("%d samples, lm-eval has %d", len(got), len(want.Samples))
	}
	bad := 0
	for _, w := range want.Samples {
		s := gotBy[key{w.Filter, w.DocID}]
		if s == nil {
			t.Errorf("no sample for doc %d, filter %s", w.DocID, w.Filter)
			continue
		}
		for m, wv := range w.Metrics {
			gv, ok := s.Metrics.Get(m)
			if !ok {
				t.Errorf("doc %d filter %s: no metric %s", w.DocID, w.Filter, m)
				continue
			}
			if !sameValue(normal(t, gv), wv) {
				if bad++; bad <= 10 {
					t.Errorf("doc %d filter %s metric %s: got %v, lm-eval %v", w.DocID, w.Filter, m, normal(t, gv), wv)
				}
			}
		}
	}
}

func compareResults(t *testing.T, name string, want *expected, res *results.Results) {
	t.Helper()
	data, err := res.JSON()
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Results        map[string]map[string]any `json:"results"`
		NShot          map[string]any            `json:"n-shot"`
		HigherIsBetter map[string]map[string]any `json:"higher_is_better"`
	}
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	entry := got.Results[name]
	for k, wv := range want.Results {
		gv, ok := entry[k]
		if !ok {
			t.Errorf("results: no %q (lm-eval: %v)", k, wv)
			continue
		}
		if !sameValue(gv, wv) {
			t.Errorf("results %q: got %v, lm-eval %v", k, gv, wv)
		}
	}
	for k := range entry {
		if _, ok := want.Results[k]; !ok {
			t.Errorf("results: %q, which lm-eval does not report", k)
		}
	}
	if !sameValue(got.NShot[name], want.NShot) {
		t.Errorf("n-shot %v, lm-eval %v", got.NShot[name], want.NShot)
	}
	if !reflect.DeepEqual(got.HigherIsBetter[name], want.HigherIsBetter) {
		t.Errorf("higher_is_better %v, lm-eval %v", got.HigherIsBetter[name], want.HigherIsBetter)
	}
}

// sameValue compares JSON values, numbers to 1e-9 relative (lm-eval's
// sums run in another order), NaN equal to NaN.
func sameValue(got, want any) bool {
	g, gok := number(got)
	w, wok := number(want)
	if got == nil && wok && (math.IsNaN(w) || math.IsInf(w, 0)) {
		return true // lmeval's results JSON writes NaN and infinities as null
	}
	if gok && wok {
		if math.IsNaN(g) || math.IsNaN(w) {
			return math.IsNaN(g) && math.IsNaN(w)
		}
		return g == w || math.Abs(g-w) <= 1e-9*math.Max(math.Abs(g), math.Abs(w))
	}
	switch w := want.(type) {
	case []any:
		gl, ok := got.([]any)
		if !ok || len(gl) != len(w) {
			return false
		}
		for i := range w {
			if !sameValue(gl[i], w[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		gm, ok := got.(map[string]any)
		if !ok || len(gm) != len(w) {
			return false
		}
		for k := range w {
			if !sameValue(gm[k], w[k]) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(got, want)
}

func number(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case bool:
		if x {
			return 1, true
		}
		return 0, true
	case string: // json.dump writes NaN as NaN; lmeval may too
		switch x {
		case "NaN", "nan":
			return math.NaN(), true
		case "Infinity", "inf":
			return math.Inf(1), true
		case "-Infinity", "-inf":
			return math.Inf(-1), true
		}
	}
	return 0, false
}

// quoteNonFinite makes the NaN, Infinity and -Infinity that Python's
// json.dump writes (outside strings) JSON strings, which number reads.
func quoteNonFinite(b []byte) []byte {
	var out []byte
	inStr, esc := false, false
	for i := 0; i < len(b); i++ {
		c := b[i]
		if inStr {
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				inStr = false
			}
			out = append(out, c)
			continue
		}
		if c == '"' {
			inStr = true
			out = append(out, c)
			continue
		}
		matched := false
		for _, tok := range []string{"-Infinity", "Infinity", "NaN"} {
			if strings.HasPrefix(string(b[i:min(len(b), i+len(tok))]), tok) {
				out = append(out, '"')
				out = append(out, tok...)
				out = append(out, '"')
				i += len(tok) - 1
				matched = true
				break
			}
		}
		if !matched {
			out = append(out, c)
		}
	}
	return out
}

// finite replaces non-finite floats by the strings number reads, so the
// value can be written as JSON.
func finite(v any) any {
	switch x := v.(type) {
	case float64:
		switch {
		case math.IsNaN(x):
			return "NaN"
		case math.IsInf(x, 1):
			return "Infinity"
		case math.IsInf(x, -1):
			return "-Infinity"
		}
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = finite(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = finite(e)
		}
		return out
	}
	return v
}

func normal(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(finite(v))
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// memSamples collects every task's samples.
type memSamples struct {
	mu  sync.Mutex
	all []*results.Sample
}

func (m *memSamples) Write(s any) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.all = append(m.all, s.(*results.Sample))
	return nil
}

func (m *memSamples) Close() error { return nil }

// replayLM answers each request with the answer gen.py gave lm-eval for
// the same arguments.
type replayLM struct {
	ll      map[[2]string][2]any
	rolling map[string]float64
	gen     map[string]string
	mu      sync.Mutex
	missing []string
}

var _ model.LM = (*replayLM)(nil)

func newReplayLM(t *testing.T, e *expected) *replayLM {
	lm := &replayLM{ll: map[[2]string][2]any{}, rolling: map[string]float64{}, gen: map[string]string{}}
	for _, r := range e.Requests {
		str := func(i int) string { s, _ := r.Arguments[i].(string); return s }
		switch task.OutputType(r.RequestType) {
		case task.OutputLoglikelihood, task.OutputMultipleChoice:
			var a [2]any
			if err := json.Unmarshal(r.Answer, &a); err != nil {
				t.Fatal(err)
			}
			lm.ll[[2]string{str(0), str(1)}] = a
		case task.OutputLoglikelihoodRolling:
			var a float64
			if err := json.Unmarshal(r.Answer, &a); err != nil {
				t.Fatal(err)
			}
			lm.rolling[str(0)] = a
		default:
			var a string
			if err := json.Unmarshal(r.Answer, &a); err != nil {
				t.Fatal(err)
			}
			lm.gen[str(0)] = a
		}
	}
	return lm
}

func (lm *replayLM) miss(format string, args ...any) {
	lm.mu.Lock()
	defer lm.mu.Unlock()
	lm.missing = append(lm.missing, fmt.Sprintf(format, args...))
}

func (lm *replayLM) Loglikelihood(_ context.Context, reqs []model.LoglikelihoodRequest) ([]model.LoglikelihoodResult, error) {
	out := make([]model.LoglikelihoodResult, len(reqs))
	for i, r := range reqs {
		a, ok := lm.ll[[2]string{r.Context, r.Continuation}]
		if !ok {
			lm.miss("loglikelihood %q %q", r.Context, r.Continuation)
			continue
		}
		lp, _ := a[0].(float64)
		g, _ := a[1].(bool)
		out[i] = model.LoglikelihoodResult{LogProb: lp, IsGreedy: g, NumTokens: 1}
	}
	return out, nil
}

func (lm *replayLM) LoglikelihoodRolling(_ context.Context, reqs []model.RollingRequest) ([]model.RollingResult, error) {
	out := make([]model.RollingResult, len(reqs))
	for i, r := range reqs {
		a, ok := lm.rolling[r.Text]
		if !ok {
			lm.miss("loglikelihood_rolling %q", r.Text)
		}
		out[i] = model.RollingResult{LogProb: a, NumTokens: 1}
	}
	return out, nil
}

func (lm *replayLM) GenerateUntil(_ context.Context, reqs []model.GenerateRequest) ([]string, error) {
	out := make([]string, len(reqs))
	for i, r := range reqs {
		a, ok := lm.gen[r.Context]
		if !ok {
			lm.miss("generate_until %q", r.Context)
		}
		out[i] = a
	}
	return out, nil
}
