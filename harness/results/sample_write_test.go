package results

import (
	"math"
	"testing"
)

// TestWriteSamplesIsRecord: a samples line, written field by field, is
// the sample's Record as json.dumps writes it, for documents with and
// without column order, escapes, floats (NaN, whole ones), nested
// arguments and metric values, and a metric named like a field.
func TestWriteSamplesIsRecord(t *testing.T) {
	doc := NewOrderedMap[any]()
	doc.Set("question", "Is \"x\"\n\té?")
	doc.Set("choices", []any{"a", "b</c>"})
	nested := NewOrderedMap[any]()
	nested.Set("z", 1.0)
	nested.Set("a", []any{math.NaN(), int64(3)})
	doc.Set("meta", nested)
	metrics := NewOrderedMap[any]()
	metrics.Set("acc", 1.0)
	metrics.Set("bleu", []any{[]any{"ref"}, "pred"})
	metrics.Set("ppl", []any{-1.5, int64(12)})
	odd := NewOrderedMap[any]()
	odd.Set("filter", 0.5)
	odd.Set("acc", 0.0)
	reasoning := NewSample(1, map[string]any{"q": "x"}, "t", [][]any{{"ctx", map[string]any{"until": []any{"\n"}}}},
		[][]any{{"yes"}}, []any{"yes"}, "none", metrics)
	reasoning.Generations = [][]GenerationRecord{{{Text: "<think>hm</think>yes", Tokens: 9, ThinkingTokens: 6, BudgetHit: true}}}
	for i, s := range []*Sample{
		NewSample(3, doc, 2, [][]any{{"Q: x\nA:", " a"}, {"Q: x\nA:", " b"}},
			[][]any{{[]any{-1.25, true}}, {[]any{math.Inf(-1), false}}}, []any{[]any{-1.25, true}, []any{math.Inf(-1), false}}, "none", metrics),
		NewSample(0, map[string]any{"b": 1, "a": "x"}, []any{"x", 1}, nil, nil, nil, "strict", nil),
		NewSample(7, map[string]any{}, "t", [][]any{{"ctx", map[string]any{"until": []any{"\n"}, "temperature": 0.0}}},
			[][]any{{"lol"}}, []any{"lol"}, "maj@2", odd),
		reasoning,
	} {
		want := pyJSON(s.Record(), -1) + "\n"
		if got := string(WriteSamples([]*Sample{s})); got != want {
			t.Errorf("sample %d:\n%s\nwant\n%s", i, got, want)
		}
	}
}
