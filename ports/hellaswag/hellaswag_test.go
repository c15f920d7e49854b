package hellaswag

import (
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
		if got := Preprocess(tt.in); got != tt.want {
			t.Errorf("Preprocess(%q) = %q, want %q", tt.in, got, tt.want)
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
	got, err := ProcessDocs([]map[string]any{doc})
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
	if _, err := ProcessDocs([]map[string]any{doc, bad}); err == nil || !strings.Contains(err.Error(), "document 1") {
		t.Errorf("empty label: err = %v, want an error naming document 1", err)
	}
}

func TestHellaswagDocToChoice(t *testing.T) {
	got, err := DocToChoice(map[string]any{"choices": []any{"x", "y z"}})
	if err != nil {
		t.Fatal(err)
	}
	if want := []any{"A. x", "B. y z"}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
