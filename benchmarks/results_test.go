package benchmarks

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/lmeval/lmeval/benchmarks/fixtures"
	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/harness/task"
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
	docs, err := fixtures.Read(p)
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

// TestTruthfulQAProcessResultsGen scores made-up answers against the
// fixture references (after process_docs_gen) and compares with the Python
// model of sacrebleu and rouge_score in gen_expected.py.
func TestTruthfulQAProcessResultsGen(t *testing.T) {
	e := readExpected(t, "truthfulqa_gen.0shot.json")
	docs, err := TruthfulQAProcessDocsGen(readDocs(t, "testdata/truthfulqa_gen/validation.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for i, doc := range docs {
		want := e.ProcessResults[i]
		got, err := TruthfulQAProcessResultsGen(doc, []any{want["completion"]})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 12 {
			t.Errorf("doc %d: %d metrics, want 12", i, len(got))
		}
		for k, v := range got {
			w, ok := want[k].(float64)
			if !ok {
				t.Errorf("doc %d: unexpected metric %s", i, k)
				continue
			}
			f, _ := v.(float64)
			if n, isInt := v.(int64); isInt {
				f = float64(n)
			}
			if math.Abs(f-w) > 1e-9 {
				t.Errorf("doc %d: %s = %.17g, want %.17g", i, k, f, w)
			}
		}
	}
}

func TestSentenceBLEU(t *testing.T) {
	tests := []struct {
		ref, pred string
		want      float64
	}{
		{"The cat sat on the mat.", "The cat sat on the mat.", 100},
		// precisions 6/7, 4/6, 2/5, 1/4; same length, no brevity penalty
		{"The cat is on the mat.", "The cat sat on the mat.", 100 * math.Pow(6.0/7*4/6*2/5*1/4, 0.25)},
		// no 4-gram matches: exp smoothing gives 100/(2*4)
		{"a b c d e", "a b c x e", math.Pow(100*4.0/5*100*2/4*100/3*100/(2*2), 0.25) * 1},
		// nothing in common
		{"alpha beta", "gamma delta", 0},
		// brevity penalty exp(1 - 5/4), all of the hypothesis matches
		{"one two three four five", "one two three four", math.Exp(1-5.0/4) * 100},
		// under four tokens there are no 4-grams: without effective order
		// the missing precision is log(0) and BLEU is 0
		{"one two three four", "one two", 0},
	}
	for _, tt := range tests {
		if got := SentenceBLEU(tt.ref, tt.pred); math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("BLEU(%q, %q) = %.12g, want %.12g", tt.ref, tt.pred, got, tt.want)
		}
	}
}

func TestTokenizeIntl(t *testing.T) {
	tests := []struct{ in, want string }{
		{"The cat sat on the mat.", "The cat sat on the mat ."},
		{"It costs $1,000.50 (approx.)", "It costs $ 1,000.50 ( approx . )"},
		{"e.g. x", "e . g . x"},
		{"3.5-4", "3.5-4"},
		{"a+b", "a + b"},
	}
	for _, tt := range tests {
		if got := tokenizeIntl(tt.in); got != tt.want {
			t.Errorf("tokenizeIntl(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestRouge(t *testing.T) {
	tests := []struct {
		ref, pred     string
		r1, r2, rLsum float64
	}{
		{"The cat is on the mat.", "The cat sat on the mat.", 500.0 / 6, 60, 500.0 / 6},
		{"Same text here", "same TEXT, here!", 100, 100, 100},
		{"no overlap", "completely different", 0, 0, 0},
		// " . " splits sentences for rougeLsum only: LCS of [a b] and
		// [c d] with the candidate [b a c d] is 1 + 2 hits of 4.
		{"a b . c d", "b a c d", 100, 2 * (1.0 / 3) * (1.0 / 3) / (2.0 / 3) * 100, 75},
	}
	for _, tt := range tests {
		r1, r2, rl := rougeScores(tt.ref, tt.pred)
		if math.Abs(r1-tt.r1) > 1e-9 || math.Abs(r2-tt.r2) > 1e-9 || math.Abs(rl-tt.rLsum) > 1e-9 {
			t.Errorf("rouge(%q, %q) = %.6g %.6g %.6g, want %.6g %.6g %.6g", tt.ref, tt.pred, r1, r2, rl, tt.r1, tt.r2, tt.rLsum)
		}
	}
}
