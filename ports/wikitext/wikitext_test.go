package wikitext

import (
	"testing"

	"github.com/lmeval/lmeval/benchmarks/fixtures"
	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/harness/task"
)

func TestWikitextDetokenize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"a guest @-@ starring role", "a guest-starring role"},
		{"1 @,@ 250 mm", "1,250 mm"},
		{"$ 2 @.@ 5 million", "$ 2.5 million"},
		{" = = Career = = \n", " == Career ==\n"},
		{" = = = 2000 = = = \n", " === 2000 ===\n"},
		{" = = = = Aftermath = = = = \n", " ==== Aftermath ====\n"},
		{"end . Next , then : this ; that ! why ? so", "end. Next, then: this; that! why? so"},
		{"winds of 65 mph ( 105 km / h ) ,", "winds of 65 mph (105 km / h) ,"},
		{"by [ the end ] of { it }", "by [the end] of {it}"},
		{"called it \" the coldest day \" of", "called it \"the coldest day\" of"},
		// "s '" runs first: "has '" loses its space too.
		{"has ' single quotes ' here", "has'single quotes' here"},
		// "s '" closes a plural possessive before the quote pass runs.
		{"the players ' union", "the players' union"},
		{"the storm 's winds", "the storm's winds"},
		{"fell to 12 ° C", "fell to 12°C"},
		{"said N people", "said 1 people"},
		{" \n \n x", "\n\nx"},
		// lm-eval's literal replacement text, kept.
		{"a/' 5/b", "a/'[0-9]/b"},
		// Brackets may span lines; \s includes Python's Unicode spaces.
		{"(\u00a0x\n)", "(x)"},
		{"no change", "no change"},
	}
	for _, tt := range tests {
		if got := Detokenize(tt.in); got != tt.want {
			t.Errorf("Detokenize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestWikitextCounts(t *testing.T) {
	tests := []struct {
		in           string
		words, bytes int
	}{
		{"a b", 2, 3},
		{" a b ", 4, 5}, // re.split keeps the empty pieces at both ends
		{"a \n\t b", 2, 6},
		{"", 1, 0},
		{"a\u00a0b", 2, 4},
		{"a\x1cb", 2, 3},
		{"日本 語", 2, 10},
	}
	for _, tt := range tests {
		w, b := Counts(tt.in)
		if w != tt.words || b != tt.bytes {
			t.Errorf("Counts(%q) = %d, %d; want %d, %d", tt.in, w, b, tt.words, tt.bytes)
		}
	}
}

// TestWikitextProcessResults checks the native process_results on the
// fixture pages against Python's re.split / str.encode counts.
func TestWikitextProcessResults(t *testing.T) {
	results := fixtures.ProcessResults(t, "wikitext.0shot.json")
	docs := fixtures.Split(t, "wikitext/test.jsonl")
	if len(docs) != len(results) {
		t.Fatalf("%d docs, %d expected results", len(docs), len(results))
	}
	for i, doc := range docs {
		got, err := ProcessResults(doc, []any{model.RollingResult{LogProb: -1000.5, NumTokens: 7}})
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range []string{"word_perplexity", "byte_perplexity", "bits_per_byte"} {
			want := results[i][m].([]any)
			w, ok := got[m].(metrics.Weighted)
			if !ok || w.LogLik != want[0].(float64) || w.Weight != want[1].(float64) {
				t.Errorf("doc %d %s = %#v, want %v", i, m, got[m], want)
			}
		}
	}
	if _, err := ProcessResults(task.Doc{"page": "x"}, []any{"text"}); err == nil {
		t.Error("a string result was accepted")
	}
}
