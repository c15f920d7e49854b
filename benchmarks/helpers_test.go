package benchmarks

import (
	"math"
	"reflect"
	"strings"
	"testing"
)

func TestHellaswagPreprocess(t *testing.T) {
	tests := []struct{ in, want string }{
		// " [title]" becomes ". ", the other markers vanish, and the double
		// space left behind is halved; the strip came first, so the space
		// before "How" stays.
		{"[header] How to clean a pan [title] Rinse it.", " How to clean a pan. Rinse it."},
		{"x [title]y", "x. y"},
		{"[step] one [substeps] two", " one two"},
		{"[a][b]c", "c"},
		// Each "  " is replaced once, left to right: three spaces become two.
		{"a  b   c", "a b  c"},
		{"a    b", "a  b"},
		{"  padded \n", "padded"},
		// Python's strip also removes U+001C..U+001F and NBSP.
		{"\x1c\u00a0word\u2003", "word"},
		// "." does not cross a newline, and an unclosed bracket stays.
		{"a [x\ny] b", "a [x\ny] b"},
		{"[unclosed text", "[unclosed text"},
		// Non-greedy: the shortest bracketed run goes.
		{"keep [drop] keep] [drop]", "keep keep] "},
		{"", ""},
	}
	for _, tt := range tests {
		if got := HellaswagPreprocess(tt.in); got != tt.want {
			t.Errorf("HellaswagPreprocess(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestPyCapitalize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"he", "He"},
		{"the Lady", "The lady"},
		{"fill it up whenever it is EMPTY.", "Fill it up whenever it is empty."},
		{"", ""},
		{" x", " x"},
		{"éCOLE", "École"},
		{"ßa", "Ssa"},
		{"ǆx", "ǅx"}, // title case, not upper case
		{"aİ", "Ai\u0307"},
		{"xΣ", "Xς"},
		{"xΣy", "Xσy"},
	}
	for _, tt := range tests {
		if got := pyCapitalize(tt.in); got != tt.want {
			t.Errorf("pyCapitalize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestHellaswagProcessDocs(t *testing.T) {
	doc := map[string]any{
		"ind":            int64(211),
		"activity_label": "Health",
		"ctx_a":          "[header] How to stay hydrated [title] Carry a water bottle. [step] Keep a bottle with you.",
		"ctx_b":          "fill it up whenever it is EMPTY.",
		"endings":        []any{" Drink often. [substeps] Set reminders.", "Never  drink.", "[title] Skip it.", "x"},
		"label":          "2",
	}
	got, err := HellaswagProcessDocs([]map[string]any{doc})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"ind":            int64(211),
		"activity_label": "Health",
		"ctx_a":          doc["ctx_a"],
		"ctx_b":          doc["ctx_b"],
		"endings":        doc["endings"],
		"label":          "2",
		// "Health: [header] How ... [title] Carry ... [step] Keep ... Fill ... empty."
		"query":   "Health: How to stay hydrated. Carry a water bottle. Keep a bottle with you. Fill it up whenever it is empty.",
		"choices": []any{"Drink often. Set reminders.", "Never drink.", " Skip it.", "x"},
		"gold":    int64(2),
	}
	if !reflect.DeepEqual(got[0], want) {
		t.Errorf("process_docs:\n got %#v\nwant %#v", got[0], want)
	}
	if _, ok := doc["query"]; ok {
		t.Error("process_docs modified its input document")
	}

	bad := map[string]any{"activity_label": "a", "ctx_a": "b", "ctx_b": "c", "endings": []any{"d"}, "label": ""}
	if _, err := HellaswagProcessDocs([]map[string]any{doc, bad}); err == nil || !strings.Contains(err.Error(), "document 1") {
		t.Errorf("empty label: err = %v, want an error naming document 1", err)
	}
}

func TestHellaswagDocToChoice(t *testing.T) {
	got, err := HellaswagDocToChoice(map[string]any{"choices": []any{"x", "y z"}})
	if err != nil {
		t.Fatal(err)
	}
	if want := []any{"A. x", "B. y z"}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

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
		if got := WikitextDetokenize(tt.in); got != tt.want {
			t.Errorf("WikitextDetokenize(%q) = %q, want %q", tt.in, got, tt.want)
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
		w, b := WikitextCounts(tt.in)
		if w != tt.words || b != tt.bytes {
			t.Errorf("WikitextCounts(%q) = %d, %d; want %d, %d", tt.in, w, b, tt.words, tt.bytes)
		}
	}
}

func TestWinogrande(t *testing.T) {
	tests := []struct {
		doc     map[string]any
		text    int64
		choices []any
		target  string
	}{
		{
			doc:     map[string]any{"sentence": "The trophy doesn't fit into the brown suitcase because the _ is too large.", "option1": "trophy", "option2": "suitcase", "answer": "1"},
			text:    0,
			choices: []any{"The trophy doesn't fit into the brown suitcase because the trophy", "The trophy doesn't fit into the brown suitcase because the suitcase"},
			target:  "is too large.",
		},
		{
			doc:     map[string]any{"sentence": "_ had to buy a new phone because Rebecca's broke.", "option1": "Rebecca", "option2": "Amy", "answer": "2"},
			text:    1,
			choices: []any{"Rebecca", "Amy"},
			target:  "had to buy a new phone because Rebecca's broke.",
		},
		{
			doc:     map[string]any{"sentence": "we had to cut the _ .", "option1": "cake", "option2": "box", "answer": "1"},
			text:    0,
			choices: []any{"we had to cut the cake", "we had to cut the box"},
			target:  ".",
		},
		{ // only the first blank counts
			doc:     map[string]any{"sentence": "Ünïcode _ then _ again", "option1": "é", "option2": "b", "answer": "2"},
			text:    1,
			choices: []any{"Ünïcode é", "Ünïcode b"},
			target:  "then _ again",
		},
	}
	for _, tt := range tests {
		text, err := WinograndeDocToText(tt.doc)
		if err != nil || text != tt.text {
			t.Errorf("doc_to_text(%q) = %d, %v; want %d", tt.doc["sentence"], text, err, tt.text)
		}
		choices, err := WinograndeDocToChoice(tt.doc)
		if err != nil || !reflect.DeepEqual(choices, tt.choices) {
			t.Errorf("doc_to_choice(%q) = %q, %v; want %q", tt.doc["sentence"], choices, err, tt.choices)
		}
		target, err := WinograndeDocToTarget(tt.doc)
		if err != nil || target != tt.target {
			t.Errorf("doc_to_target(%q) = %q, %v; want %q", tt.doc["sentence"], target, err, tt.target)
		}
	}
	if _, err := WinograndeDocToChoice(map[string]any{"sentence": "no blank", "option1": "a", "option2": "b"}); err == nil {
		t.Error("doc_to_choice accepted a sentence without a blank")
	}
	if _, err := WinograndeDocToText(map[string]any{"answer": "3"}); err == nil {
		t.Error("doc_to_text accepted answer \"3\"")
	}
}

func TestTruthfulQAMC2(t *testing.T) {
	ln := math.Log
	tests := []struct {
		lls    []float64
		labels []int64
		want   float64
	}{
		// (0.2 + 0.1) / (0.2 + 0.1 + 0.3 + 0.4)
		{[]float64{ln(0.2), ln(0.1), ln(0.3), ln(0.4)}, []int64{1, 1, 0, 0}, 0.3},
		// e^-1 / (e^-1 + e^-2 + e^-3) = 1 / (1 + e^-1 + e^-2)
		{[]float64{-1, -2, -3}, []int64{1, 0, 0}, 1 / (1 + math.Exp(-1) + math.Exp(-2))},
		// everything before the first 0 counts as true, even a later 1 after it does not
		{[]float64{ln(0.5), ln(0.25), ln(0.25)}, []int64{1, 0, 1}, 0.5},
		// no true answer: zero mass
		{[]float64{-1, -1}, []int64{0, 0}, 0},
		// very negative log-likelihoods underflow to 0/0 in lm-eval too
		{[]float64{-800, -800}, []int64{1, 0}, math.NaN()},
	}
	for _, tt := range tests {
		got, err := TruthfulQAMC2(tt.lls, tt.labels)
		if err != nil {
			t.Errorf("TruthfulQAMC2(%v, %v): %v", tt.lls, tt.labels, err)
			continue
		}
		if math.IsNaN(tt.want) != math.IsNaN(got) || math.Abs(got-tt.want) > 1e-15 {
			t.Errorf("TruthfulQAMC2(%v, %v) = %.17g, want %.17g", tt.lls, tt.labels, got, tt.want)
		}
	}
	if _, err := TruthfulQAMC2([]float64{-1}, []int64{1}); err == nil {
		t.Error("labels without a 0 were accepted")
	}
}
