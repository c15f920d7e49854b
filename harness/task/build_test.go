package task

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"unicode/utf8"
)

func testTasks(t *testing.T) *Registry {
	t.Helper()
	r := NewRegistry()
	if err := r.AddDir("testdata/prompts/tasks"); err != nil {
		t.Fatal(err)
	}
	return r
}

func built(t *testing.T, r *Registry, name string, opts BuildOptions) *Task {
	t.Helper()
	tk := loadOne(t, r, name).Tasks()[0]
	if opts.Loader == nil {
		opts.Loader = memLoader("testdata/prompts/data")
	}
	if err := tk.BuildRequests(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	return tk
}

func intp(n int) *int { return &n }

func TestNumFewshotOverride(t *testing.T) {
	fsys := fstest.MapFS{
		"zero.yaml":  {Data: []byte("task: zero\ndataset_path: mem/qa\ntest_split: test\ntraining_split: train\ndoc_to_text: question\ndoc_to_target: answer\nnum_fewshot: 0\n")},
		"unset.yaml": {Data: []byte("task: unset\ndataset_path: mem/qa\ntest_split: test\ntraining_split: train\ndoc_to_text: question\ndoc_to_target: answer\n")},
	}
	r := NewRegistry()
	if err := r.AddFS("", fsys); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		task     string
		override *int
		want     int
	}{
		{"zero", intp(3), 0}, // a task that sets 0 keeps it, as in lm-eval
		{"unset", intp(3), 3},
		{"unset", nil, 0},
	} {
		tk := built(t, r, c.task, BuildOptions{NumFewshot: c.override, Limit: 1})
		if tk.NumFewshot != c.want || tk.Docs[0].Shots != c.want {
			t.Errorf("%s with override %v: %d shots, want %d", c.task, c.override, tk.NumFewshot, c.want)
		}
	}
}

// Rolling tasks take --num_fewshot without drawing shots (lm-eval builds a
// context it never uses).
func TestRollingFewshot(t *testing.T) {
	r := testTasks(t)
	tk := built(t, r, "text_rolling", BuildOptions{NumFewshot: intp(2)})
	if tk.NumFewshot != 2 || tk.Fewshot.Reduced != 0 || tk.Instances[0].Rolling.Text != " = Cats = \n\n Cats are small animals .\n" {
		t.Errorf("n-shot %d report %+v request %q", tk.NumFewshot, tk.Fewshot, tk.Instances[0].Rolling.Text)
	}
}

func TestGold(t *testing.T) {
	r := testTasks(t)
	for _, name := range []string{"qa_val_only", "qa_mc", "qa_same_split"} {
		tk := built(t, r, name, BuildOptions{})
		for _, d := range tk.Docs {
			want := int(d.Doc["answer"].(int64))
			if name == "qa_val_only" {
				// doc_to_target renders the gold choice's text, and lm-eval
				// reads a text of digits as an index (a quirk kept as is).
				text := d.Choices[want]
				if n, err := atoi(text); err == nil && pyIsDigit(text) {
					want = goldIndex(d.Choices, n)
				}
			}
			if d.Gold != want {
				t.Errorf("%s doc %d: gold %d, want %d (target %v)", name, d.ID, d.Gold, want, d.Target)
			}
		}
	}
	tk := built(t, r, "wino", BuildOptions{})
	if !tk.MultipleInput {
		t.Fatal("wino is not multiple_input")
	}
	for _, d := range tk.Docs {
		want := map[string]int{"1": 0, "2": 1}[d.Doc["answer"].(string)]
		if d.Gold != want || len(d.Contexts) != 2 {
			t.Errorf("wino doc %d: gold %d want %d, contexts %d", d.ID, d.Gold, want, len(d.Contexts))
		}
	}
	tk = built(t, r, "math_gen", BuildOptions{Limit: 1})
	if d := tk.Docs[0]; d.Gold != -1 || d.Target != "7" || d.Choices != nil {
		t.Errorf("math_gen doc 0: gold %d target %v choices %v", d.Gold, d.Target, d.Choices)
	}
	in := tk.Instances[0].Generate
	if strings.Join(in.Until, "|") != "Q:|</s>" || in.MaxGenToks != 256 || in.DoSample {
		t.Errorf("generate request %+v", in)
	}
	tk = built(t, r, "math_gen_default", BuildOptions{Limit: 1})
	if g := tk.Instances[0]; g.Repeats != 3 || strings.Join(g.Generate.Until, "|") != "\n\n" {
		t.Errorf("default generation: repeats %d until %q", g.Repeats, g.Generate.Until)
	}
}

func TestLimitCount(t *testing.T) {
	for _, c := range []struct {
		limit float64
		n     int
		want  int
	}{{0, 7, 7}, {0.5, 7, 4}, {0.01, 7, 1}, {3, 7, 3}, {20, 7, 7}, {1, 7, 1}} {
		if got := LimitCount(c.limit, c.n); got != c.want {
			t.Errorf("LimitCount(%v, %d) = %d, want %d", c.limit, c.n, got, c.want)
		}
	}
}

func TestBuildErrors(t *testing.T) {
	r := testTasks(t)
	tk := loadOne(t, r, "qa_mc").Tasks()[0]
	loader := memLoader("testdata/prompts/data")
	for _, c := range []struct {
		opts BuildOptions
		want string
	}{
		{BuildOptions{Loader: loader, Samples: []int{9}}, "--samples index 9 out of range [0, 7)"},
		{BuildOptions{Loader: loader, Samples: []int{1}, Limit: 2}, "exclusive"},
		{BuildOptions{Loader: loader, NumFewshot: intp(11)}, "drawing 11 few-shot examples from 10 documents"},
		{BuildOptions{}, "no document loader"},
	} {
		if c.opts.Loader == nil {
			tk = loadOne(t, r, "qa_mc").Tasks()[0]
		}
		err := tk.BuildRequests(context.Background(), c.opts)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "task qa_mc: ") {
			t.Errorf("err %v, want %q", err, c.want)
		}
	}
}

// Shots are cut from the end, so the random draws (and every other
// document's shots) stay lm-eval's.
func TestShotReduction(t *testing.T) {
	r := testTasks(t)
	full := built(t, r, "qa_mc", BuildOptions{NumFewshot: intp(4)})
	count := func(s string) (int, error) { return utf8.RuneCountInString(s), nil }
	const limit = 200
	cut := built(t, r, "qa_mc", BuildOptions{NumFewshot: intp(4), CountTokens: count, MaxTokens: limit})
	if cut.Fewshot.Reduced == 0 || cut.Fewshot.Requested != 4 || cut.Fewshot.MinShots >= 4 {
		t.Fatalf("report %+v: want some documents reduced", cut.Fewshot)
	}
	reduced := 0
	for i, d := range cut.Docs {
		f := full.Docs[i]
		q, _ := cut.DocToText(d.Doc, nil)
		question := q.(string)
		if !strings.HasSuffix(d.Context, question) || !strings.HasPrefix(f.Context, strings.TrimSuffix(d.Context, question)) {
			t.Errorf("doc %d: reduced context is not the full one with trailing shots dropped:\n%q\n%q", i, d.Context, f.Context)
		}
		longest := 0
		for _, c := range d.Choices {
			n, _ := count(d.Context + " " + c)
			longest = max(longest, n)
		}
		if longest > limit && d.Shots > 0 {
			t.Errorf("doc %d: %d runes with %d shots", i, longest, d.Shots)
		}
		if d.Shots < 4 {
			reduced++
			if d.Shots+1 <= 4 {
				// One more shot would not have fit.
				if d.Context == f.Context {
					t.Errorf("doc %d: reported reduced but identical", i)
				}
			}
		} else if d.Context != f.Context {
			t.Errorf("doc %d: not reduced but differs", i)
		}
	}
	if reduced != cut.Fewshot.Reduced {
		t.Errorf("reduced %d, report says %d", reduced, cut.Fewshot.Reduced)
	}
}

func TestWriteOut(t *testing.T) {
	r := testTasks(t)
	var b bytes.Buffer
	if err := WriteOut(&b, built(t, r, "text_ll", BuildOptions{NumFewshot: intp(0)}), 1); err != nil {
		t.Fatal(err)
	}
	want := "!!@@##@@!! -- Example 0\nthe cat sat on the\n!!@@##@@!! -- Target: ' mat'\n"
	if b.String() != want {
		t.Errorf("write-out:\n%q\nwant\n%q", b.String(), want)
	}
	b.Reset()
	if err := WriteOut(&b, built(t, r, "qa_mc", BuildOptions{NumFewshot: intp(0), Limit: 2}), 0); err != nil {
		t.Fatal(err)
	}
	want = "!!@@##@@!! -- Example 0\nThe following are questions about math.\n\nQuestion: What is 2+2?\nAnswer:\n" +
		"!!@@##@@!! -- Target: 3\n!!@@##@@!! -- Choices: ['1', '2', '3', '4']\n!!@@##@@!! -- Gold: 3\n" +
		"!!@@##@@!! -- Example 1\nThe following are questions about math.\n\nQuestion: What is 3+3?\nAnswer:\n" +
		"!!@@##@@!! -- Target: 2\n!!@@##@@!! -- Choices: ['4', '5', '6', '7']\n!!@@##@@!! -- Gold: 2\n"
	if b.String() != want {
		t.Errorf("write-out:\n%q\nwant\n%q", b.String(), want)
	}
}

func TestValidate(t *testing.T) {
	known := map[string]bool{"acc": true, "acc_norm": true, "exact_match": true, "word_perplexity": true, "byte_perplexity": true, "bits_per_byte": true, "acc_mutual_info": true}
	opts := ValidateOptions{
		Loader:      memLoader("testdata/prompts/data"),
		MetricKnown: func(m string) bool { return known[m] },
		FilterKnown: func(f string) bool { return f == "regex" || f == "take_first" },
	}
	r := testTasks(t)
	if probs := Validate(context.Background(), r, r.Tasks(), opts); len(probs) != 0 {
		t.Errorf("valid tasks gave problems: %v", probs)
	}

	fsys := fstest.MapFS{
		"bad.yaml": {Data: []byte("task: bad\ndataset_path: mem/qa\ntest_split: test\noutput_type: multiple_choice\n" +
			"doc_to_text: \"{{ question \"\ndoc_to_target: answer\ndoc_to_choice: choices\n" +
			"metric_list:\n  - metric: acc\n  - metric: acc_nrom\nfilter_list:\n  - name: f\n    filter:\n      - function: regexx\n")},
		"render.yaml": {Data: []byte("task: render\ndataset_path: mem/qa\ntest_split: test\noutput_type: multiple_choice\n" +
			"doc_to_text: \"{{ no_such_field }}\"\ndoc_to_target: answer\ndoc_to_choice: choices\n")},
		"grp.yaml": {Data: []byte("group: grp\ntask: [bad, render, missing_one]\naggregate_metric_list:\n  - metric: acc\n  - metric: nope\n")},
	}
	r = NewRegistry()
	if err := r.AddFS("", fsys); err != nil {
		t.Fatal(err)
	}
	probs := Validate(context.Background(), r, []string{"grp"}, opts)
	var lines []string
	for _, p := range probs {
		lines = append(lines, p.String())
	}
	all := strings.Join(lines, "\n")
	for _, want := range []string{
		"grp (grp.yaml): 1 member(s) not found: [missing_one]",
		`grp (grp.yaml): aggregate_metric_list: unknown metric "nope"`,
		"bad (bad.yaml): doc_to_text: jinja: parse",
		`bad (bad.yaml): metric_list[1]: unknown metric "acc_nrom"`,
		`bad (bad.yaml): filter_list f: unknown filter "regexx"`,
		"render (render.yaml): building the first 3 documents: doc_to_text on document 0:",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("problems lack %q:\n%s", want, all)
		}
	}
}

// TestValidateNotLocal checks that a loader error wrapping ErrNotLocal
// gives a note, not a problem, and any other loader error a problem.
func TestValidateNotLocal(t *testing.T) {
	fsys := fstest.MapFS{
		"remote.yaml": {Data: []byte("task: remote\ndataset_path: owner/remote\ntest_split: test\noutput_type: multiple_choice\n" +
			"doc_to_text: \"{{ no_such_field }}\"\ndoc_to_target: answer\ndoc_to_choice: choices\n")},
		"broken.yaml": {Data: []byte("task: broken\ndataset_path: owner/broken\ntest_split: test\noutput_type: multiple_choice\n" +
			"doc_to_text: q\ndoc_to_target: answer\ndoc_to_choice: choices\n")},
	}
	r := NewRegistry()
	if err := r.AddFS("", fsys); err != nil {
		t.Fatal(err)
	}
	loader := func(_ context.Context, spec DatasetSpec, split string) ([]Doc, error) {
		if spec.Path == "owner/remote" {
			return nil, fmt.Errorf("dataset %s split %s: not cached: %w", spec.Path, split, ErrNotLocal)
		}
		return nil, errors.New("corrupt parquet file")
	}
	probs := Validate(context.Background(), r, []string{"remote", "broken"}, ValidateOptions{Loader: loader})
	var got []string
	for _, p := range probs {
		got = append(got, fmt.Sprintf("%v %s", p.Note, p))
	}
	want := []string{
		"true remote (remote.yaml): note: " + NotLocalNote,
		"false broken (broken.yaml): building the first 3 documents: load split test: corrupt parquet file",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// BenchmarkBuild builds 5-shot prompts and requests for 2,000 documents of
// an MMLU-shaped task.
func BenchmarkBuild(b *testing.B) {
	docs := make([]Doc, 2000)
	for i := range docs {
		docs[i] = Doc{"question": fmt.Sprintf("Question number %d?", i), "choices": []any{"a", "b", "c", "d"}, "answer": int64(i % 4)}
	}
	loader := func(ctx context.Context, spec DatasetSpec, split string) ([]Doc, error) { return docs, nil }
	fsys := fstest.MapFS{"m.yaml": {Data: []byte("task: m\ndataset_path: x\ntest_split: test\nfewshot_split: dev\noutput_type: multiple_choice\n" +
		"doc_to_text: \"{{question.strip()}}\\nA. {{choices[0]}}\\nB. {{choices[1]}}\\nC. {{choices[2]}}\\nD. {{choices[3]}}\\nAnswer:\"\n" +
		"doc_to_choice: [\"A\", \"B\", \"C\", \"D\"]\ndoc_to_target: answer\nnum_fewshot: 5\n")}}
	r := NewRegistry()
	if err := r.AddFS("", fsys); err != nil {
		b.Fatal(err)
	}
	sel, err := r.Load([]string{"m"})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := sel.Tasks()[0].BuildRequests(context.Background(), BuildOptions{Loader: loader}); err != nil {
			b.Fatal(err)
		}
	}
}

func TestLoadYAMLPathAndProcessResults(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "base.yaml"), []byte("dataset_path: mem/qa\ntest_split: test\noutput_type: multiple_choice\ndoc_to_choice: choices\ndoc_to_target: answer\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "mine.yaml"), []byte("include: base.yaml\ntask: mine\ndoc_to_text: \"{{question}}\"\nprocess_results: !function scoring.score\n"), 0o644)
	RegisterProcessResults(helperAt(filepath.Base(dir), "scoring.score"), func(doc Doc, results []any) (map[string]any, error) {
		return map[string]any{"n": len(results), "q": doc["question"]}, nil
	})
	r := testTasks(t)
	path := filepath.Join(dir, "mine.yaml")
	sel, err := r.Load([]string{path})
	if err != nil {
		t.Fatal(err)
	}
	tk := sel.Tasks()[0]
	if tk.Name != "mine" || tk.Config.File != path {
		t.Fatalf("loaded %s from %s", tk.Name, tk.Config.File)
	}
	if err := tk.BuildRequests(context.Background(), BuildOptions{Loader: memLoader("testdata/prompts/data"), Limit: 1}); err != nil {
		t.Fatal(err)
	}
	sel, err = r.Load([]string{dir})
	if err != nil || len(sel.Tasks()) != 1 || sel.Tasks()[0].Name != "mine" {
		t.Errorf("directory of task files: %v %v", sel, err)
	}
	m, ok, err := tk.ProcessResults(tk.Docs[0].Doc, []any{1.0, 2.0})
	if err != nil || !ok || m["n"] != 2 || m["q"] != "What is 2+2?" {
		t.Errorf("process_results: %v %v %v", m, ok, err)
	}
	if _, ok, _ := loadOne(t, r, "qa_mc").Tasks()[0].ProcessResults(nil, nil); ok {
		t.Error("qa_mc has no process_results")
	}
}

// A task whose shots come from its own test split without naming it as
// fewshot_split draws n with no evaluated document to drop (lm-eval's
// sampler gets eval_doc only when fewshot_split is the test split), so a
// document that draws itself keeps it as a shot: n shots, none reported
// as cut to fit.
func TestShotsFromOwnSplitNotReported(t *testing.T) {
	dir := t.TempDir()
	yaml := "task: own_split\ndataset_path: mem/qa\noutput_type: multiple_choice\ntest_split: test\n" +
		"doc_to_text: \"{{question}}\"\ndoc_to_choice: \"{{choices}}\"\ndoc_to_target: answer\nnum_fewshot: 3\n"
	if err := os.WriteFile(filepath.Join(dir, "own_split.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	r := NewRegistry()
	if err := r.AddDir(dir); err != nil {
		t.Fatal(err)
	}
	tk := built(t, r, "own_split", BuildOptions{})
	for _, d := range tk.Docs {
		if d.Shots != 3 {
			t.Errorf("doc %d: %d shots, want 3", d.ID, d.Shots)
		}
		if d.Cut != 0 {
			t.Errorf("doc %d: %d shots reported cut with no context limit", d.ID, d.Cut)
		}
	}
	if tk.Fewshot.Reduced != 0 || tk.Fewshot.MinShots != 3 {
		t.Errorf("report %+v: want nothing reduced", tk.Fewshot)
	}
	var b bytes.Buffer
	if err := WriteOut(&b, tk, len(tk.Docs)); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "cut to fit") {
		t.Errorf("write-out claims a cut:\n%s", b.String())
	}
}
