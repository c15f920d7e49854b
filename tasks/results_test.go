package tasks

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"lmeval/harness/metrics"
	"lmeval/harness/model"
	"lmeval/harness/task"
)

// expected is one file of testdata/expected, written by gen_expected.py.
type expected struct {
	Task       string `json:"task"`
	NumFewshot int    `json:"num_fewshot"`
	Docs       []struct {
		DocID    int   `json:"doc_id"`
		Prompt   any   `json:"prompt"`
		Target   any   `json:"target"`
		Choices  []any `json:"choices"`
		Repeats  int   `json:"repeats"`
		Requests []struct {
			Type string `json:"type"`
			Args []any  `json:"args"`
		} `json:"requests"`
	} `json:"docs"`
	ProcessResults []map[string]any `json:"process_results"`
}

func readExpected(t *testing.T, name string) *expected {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "expected", name))
	if err != nil {
		t.Fatal(err)
	}
	var e expected
	if err := json.Unmarshal(data, &e); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return &e
}

// readDocs reads a fixture split with the numbers typed as the dataset
// loader types them (int64 or float64).
func readDocs(t *testing.T, p string) []map[string]any {
	t.Helper()
	docs, err := readJSONLFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return docs
}

// TestWikitextProcessResults checks the native process_results on the
// fixture pages against Python's re.split / str.encode counts.
func TestWikitextProcessResults(t *testing.T) {
	e := readExpected(t, "wikitext.0shot.json")
	docs := readDocs(t, "testdata/wikitext/test.jsonl")
	if len(docs) != len(e.ProcessResults) {
		t.Fatalf("%d docs, %d expected results", len(docs), len(e.ProcessResults))
	}
	for i, doc := range docs {
		got, err := WikitextProcessResults(doc, []any{model.RollingResult{LogProb: -1000.5, NumTokens: 7}})
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range []string{"word_perplexity", "byte_perplexity", "bits_per_byte"} {
			want := e.ProcessResults[i][m].([]any)
			w, ok := got[m].(metrics.Weighted)
			if !ok || w.LogLik != want[0].(float64) || w.Weight != want[1].(float64) {
				t.Errorf("doc %d %s = %#v, want %v", i, m, got[m], want)
			}
		}
	}
	if _, err := WikitextProcessResults(task.Doc{"page": "x"}, []any{"text"}); err == nil {
		t.Error("a string result was accepted")
	}
}

// TestTruthfulQAProcessResultsMC2 checks the native process_results_mc2 on
// the fixture documents against the Python computation.
func TestTruthfulQAProcessResultsMC2(t *testing.T) {
	e := readExpected(t, "truthfulqa_mc2.0shot.json")
	docs := readDocs(t, "testdata/truthfulqa/validation.jsonl")
	for i, doc := range docs {
		pr := e.ProcessResults[i]
		var results []any
		for _, ll := range pr["lls"].([]any) {
			results = append(results, model.LoglikelihoodResult{LogProb: ll.(float64)})
		}
		got, err := TruthfulQAProcessResultsMC2(doc, results)
		if err != nil {
			t.Fatal(err)
		}
		want := pr["acc"].(float64)
		if acc := got["acc"].(float64); math.Abs(acc-want) > 1e-15 {
			t.Errorf("doc %d: acc = %.17g, want %.17g", i, acc, want)
		}
	}
}

func TestTruthfulQAProcessDocsGen(t *testing.T) {
	in := []map[string]any{{
		"question":          "  Why is the sky blue?\n",
		"correct_answers":   []any{"Rayleigh scattering", " Light scatters. ", ""},
		"incorrect_answers": []any{"It reflects the ocean", "   "},
		"source":            "https://example.org",
	}, {
		"question":          "Q",
		"correct_answers":   []any{"I have no comment."},
		"incorrect_answers": []any{},
	}}
	got, err := TruthfulQAProcessDocsGen(in)
	if err != nil {
		t.Fatal(err)
	}
	want := []map[string]any{{
		"question":          "Why is the sky blue?",
		"correct_answers":   []any{"Rayleigh scattering.", "Light scatters.", "I have no comment."},
		"incorrect_answers": []any{"It reflects the ocean."},
		"source":            "https://example.org",
	}, {
		"question":          "Q",
		"correct_answers":   []any{"I have no comment."},
		"incorrect_answers": []any{},
	}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %#v\nwant %#v", got, want)
	}
}
