package jinja

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
)

type corpusCase struct {
	Template string          `json:"template"`
	Doc      json.RawMessage `json:"doc"`
	Expected json.RawMessage `json:"expected"`
	Value    json.RawMessage `json:"value"`
	Env      string          `json:"env"`
}

// decodeJSON decodes JSON keeping Python's int/float distinction: numbers
// written with a '.' or an exponent are float64, the others int64.
func decodeJSON(t testing.TB, raw []byte) any {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("decode %s: %v", raw, err)
	}
	return fromJSON(v)
}

func fromJSON(v any) any {
	switch x := v.(type) {
	case json.Number:
		s := x.String()
		if strings.ContainsAny(s, ".eE") {
			f, _ := x.Float64()
			return f
		}
		i, _ := x.Int64()
		return i
	case []any:
		for i := range x {
			x[i] = fromJSON(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = fromJSON(x[k])
		}
	}
	return v
}

func loadCorpus(t *testing.T) []corpusCase {
	f, err := os.Open("testdata/corpus.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []corpusCase
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var c corpusCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("corpus line %d: %v", len(cases)+1, err)
		}
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cases
}

// TestCorpus renders every template of the compatibility corpus (lm-eval's
// templates with synthetic ASCII and Unicode documents, expectations from
// Python's jinja2 in lm-eval's configuration) and requires at least 99.5%
// of them to be identical, errors included.
func TestCorpus(t *testing.T) {
	cases := loadCorpus(t)
	lmeval := New()
	chat := New(HFChatTemplate())
	chat.RegisterFunc("raise_exception", func(msg string) (string, error) { return "", errors.New(msg) })
	same, valueChecked := 0, 0
	var mismatches []string
	for i, c := range cases {
		e := lmeval
		if c.Env == "hf" {
			e = chat
		}
		doc, _ := decodeJSON(t, c.Doc).(map[string]any)
		got, err := e.Render(c.Template, doc)
		var want string
		wantErr := json.Unmarshal(c.Expected, &want) != nil
		switch {
		case wantErr && err != nil, !wantErr && err == nil && got == want:
			same++
		case wantErr:
			mismatches = append(mismatches, sprintf("#%d %q doc=%s: want error, got %q", i+1, c.Template, c.Doc, got))
		default:
			mismatches = append(mismatches, sprintf("#%d %q doc=%s:\n   got %q (err %v)\n  want %q", i+1, c.Template, c.Doc, got, err, want))
		}
		if len(c.Value) > 0 && err == nil {
			valueChecked++
			v, err := e.RenderValue(c.Template, doc)
			if want := decodeJSON(t, c.Value); err != nil || !reflect.DeepEqual(v, want) {
				t.Errorf("#%d RenderValue(%q) = %#v, %v; want %#v", i+1, c.Template, v, err, want)
			}
		}
	}
	rate := float64(same) / float64(len(cases))
	t.Logf("identical renders: %d/%d (%.2f%%); RenderValue checked on %d cases", same, len(cases), 100*rate, valueChecked)
	for _, m := range mismatches {
		t.Log(m)
	}
	if rate < 0.995 {
		t.Errorf("identical-render rate %.2f%% is below 99.5%%", 100*rate)
	}
}
