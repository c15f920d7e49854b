package results

import (
	"math"
	"strings"
	"testing"
)

func TestCleanPyJSON(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"a": NaN, "b": [Infinity, -Infinity]}`, `{"a": null, "b": [null, null]}`},
		{`{"NaN": "NaN and Infinity \" NaN", "x": NaN}`, `{"NaN": "NaN and Infinity \" NaN", "x": null}`},
		{`{"s": "\\", "x": -Infinity}`, `{"s": "\\", "x": null}`},
		{`[1.0, 2]`, `[1.0, 2]`},
	} {
		if got := string(CleanPyJSON([]byte(c.in))); got != c.want {
			t.Errorf("CleanPyJSON(%s) = %s, want %s", c.in, got, c.want)
		}
	}
}

// What WriteSamples writes, ReadSamples reads back: ids, documents in
// order, arguments, filter, hashes, and metric values, NaN included.
func TestReadSamplesRoundTrip(t *testing.T) {
	doc := NewOrderedMap[any]()
	doc.Set("question", "Why?")
	doc.Set("subject", "physics")
	doc.Set("label", int64(2))
	m := NewOrderedMap[any]()
	m.Set("acc", 1.0)
	m.Set("f1", math.NaN())
	m.Set("bleu", []any{"ref", "pred"})
	m.Set("exact", true)
	a := NewSample(7, doc, int64(2), [][]any{{"ctx", " a"}, {"ctx", " b"}},
		[][]any{{[]any{-1.5, false}}, {[]any{-0.25, true}}}, []any{[]any{-1.5, false}}, "none", m)
	b := NewSample(8, map[string]any{"x": 1.5}, "t", [][]any{{"Q:", map[string]any{"until": []any{"\n"}}}}, [][]any{{"y"}}, []any{"y"}, "strict", nil)
	data := WriteSamples([]*Sample{a, b})
	if !strings.Contains(string(data), "NaN") {
		t.Fatalf("want a bare NaN in the line, as Python writes it: %s", data)
	}
	got, err := ReadSamples(strings.NewReader(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("%d samples", len(got))
	}
	s := got[0]
	if s.DocID != 7 || s.Filter != "none" || s.DocHash != a.DocHash || s.PromptHash != a.PromptHash || s.TargetHash != a.TargetHash {
		t.Errorf("sample 0: %+v", s)
	}
	d, ok := s.Doc.(*OrderedMap[any])
	if !ok || strings.Join(d.Keys(), ",") != "question,subject,label" {
		t.Fatalf("doc %#v", s.Doc)
	}
	if v, _ := d.Get("subject"); v != "physics" {
		t.Errorf("subject %v", v)
	}
	if v, _ := d.Get("label"); v != int64(2) {
		t.Errorf("label %#v", v)
	}
	if len(s.Arguments) != 2 || s.Arguments[1][0] != "ctx" || s.Arguments[1][1] != " b" {
		t.Errorf("arguments %#v", s.Arguments)
	}
	if strings.Join(s.Metrics.Keys(), ",") != "acc,f1,bleu,exact" {
		t.Errorf("metrics %v", s.Metrics.Keys())
	}
	if v, _ := s.Metrics.Get("acc"); v != 1.0 {
		t.Errorf("acc %#v", v)
	}
	if v, ok := s.Metrics.Get("f1"); !ok || v != nil {
		t.Errorf("f1 (NaN) %#v, want nil", v)
	}
	if v, _ := s.Metrics.Get("exact"); v != true {
		t.Errorf("exact %#v", v)
	}
	if got[1].DocID != 8 || got[1].Filter != "strict" || got[1].Metrics.Len() != 0 {
		t.Errorf("sample 1: %+v", got[1])
	}
	// Read back and written again, a line is unchanged (apart from NaN,
	// which comes back as None).
	if again := string(WriteSamples(got[1:])); again != string(WriteSamples([]*Sample{b})) {
		t.Errorf("rewritten:\n%s\nwant:\n%s", again, WriteSamples([]*Sample{b}))
	}
}

func TestReadSamplesErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"{\"doc_id\": 1}\n{oops\n", "line 2"},
		{`{"doc": {}}`, "line 1: no doc_id"},
		{`{"doc_id": 0, "metrics": ["acc"]}`, `metric "acc" is listed but has no value`},
	} {
		_, err := ReadSamples(strings.NewReader(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ReadSamples(%q): %v, want %q", c.in, err, c.want)
		}
	}
}
