package pyval

import (
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"math"
	"os"
	"testing"
)

// vectors are Python 3.11's answers, written by testdata/gen_vectors.py.
type vectors struct {
	Floats   [][2]string  `json:"floats"`   // big-endian bits, repr
	Strings  [][5]string  `json:"strings"`  // s, repr, json ascii, json non-ascii, ascii
	Literals [][2]*string `json:"literals"` // source, json.dumps of the value or null for an error
}

func loadVectors(t *testing.T) vectors {
	t.Helper()
	data, err := os.ReadFile("testdata/vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var v vectors
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestFloatRepr(t *testing.T) {
	for _, tc := range loadVectors(t).Floats {
		b, err := hex.DecodeString(tc[0])
		if err != nil {
			t.Fatal(err)
		}
		f := math.Float64frombits(binary.BigEndian.Uint64(b))
		if got := FloatRepr(f); got != tc[1] {
			t.Errorf("FloatRepr(%v) = %q, want %q", f, got, tc[1])
		}
		if got := Repr(float32(f)); f == float64(float32(f)) && got != tc[1] {
			t.Errorf("Repr(float32(%v)) = %q, want %q", f, got, tc[1])
		}
	}
}

func TestQuoteAndJSONString(t *testing.T) {
	for _, tc := range loadVectors(t).Strings {
		if got := Quote(tc[0]); got != tc[1] {
			t.Errorf("Quote(%q) =\n%s\nwant\n%s", tc[0], got, tc[1])
		}
		if got := ASCII(tc[0]); got != tc[4] {
			t.Errorf("ASCII(%q) =\n%s\nwant\n%s", tc[0], got, tc[4])
		}
		for i, ascii := range []bool{true, false} {
			got, err := JSON(tc[0], JSONOptions{Indent: -1, ASCII: ascii})
			if err != nil || got != tc[2+i] {
				t.Errorf("JSON(%q, ascii=%v) = %s, %v; want %s", tc[0], ascii, got, err, tc[2+i])
			}
		}
	}
}

func TestLiteralEval(t *testing.T) {
	for _, tc := range loadVectors(t).Literals {
		src := *tc[0]
		v, err := LiteralEval(src)
		if tc[1] == nil {
			if err == nil {
				t.Errorf("LiteralEval(%q) = %#v, want an error", src, v)
			}
			continue
		}
		if err != nil {
			t.Errorf("LiteralEval(%q): %v", src, err)
			continue
		}
		if got, _ := JSON(v, JSONOptions{Indent: -1, ASCII: true}); got != *tc[1] {
			t.Errorf("LiteralEval(%q) = %s, want %s", src, got, *tc[1])
		}
	}
}

type tuple []any

func (t tuple) PyRepr() string { return "(" + Repr([]any(t))[1:len(Repr([]any(t)))-1] + ",)" }

type ordered struct{ keys []string }

func (o ordered) Keys() []string           { return o.keys }
func (o ordered) Get(k string) (any, bool) { return len(k), true }

func TestReprStrJSON(t *testing.T) {
	type myInt int
	for _, tc := range []struct {
		v                      any
		repr, str, json, json2 string
	}{
		{nil, "None", "None", "null", "null"},
		{true, "True", "True", "true", "true"},
		{"it's", `"it's"`, "it's", `"it's"`, `"it's"`},
		{int(3), "3", "3", "3", "3"},
		{myInt(-4), "-4", "-4", "-4", "-4"},
		{uint8(200), "200", "200", "200", "200"},
		{2.0, "2.0", "2.0", "2.0", "2.0"},
		{math.NaN(), "nan", "nan", "NaN", "NaN"},
		{[]any{}, "[]", "[]", "[]", "[]"},
		{[]string{"a", "b"}, "['a', 'b']", "['a', 'b']", `["a", "b"]`, "[\n  \"a\",\n  \"b\"\n]"},
		{[]int{1, 2}, "[1, 2]", "[1, 2]", "[1, 2]", "[\n  1,\n  2\n]"},
		{map[string]any{"b": []any{1.5}, "a": nil}, "{'a': None, 'b': [1.5]}", "{'a': None, 'b': [1.5]}",
			`{"a": null, "b": [1.5]}`, "{\n  \"a\": null,\n  \"b\": [\n    1.5\n  ]\n}"},
		{map[string]any{}, "{}", "{}", "{}", "{}"},
		{ordered{[]string{"zz", "a"}}, "{'zz': 2, 'a': 1}", "{'zz': 2, 'a': 1}", `{"zz": 2, "a": 1}`, "{\n  \"zz\": 2,\n  \"a\": 1\n}"},
		{tuple{"x"}, "('x',)", "('x',)", `["x"]`, "[\n  \"x\"\n]"},
	} {
		if got := Repr(tc.v); got != tc.repr {
			t.Errorf("Repr(%#v) = %s, want %s", tc.v, got, tc.repr)
		}
		if got := Str(tc.v); got != tc.str {
			t.Errorf("Str(%#v) = %s, want %s", tc.v, got, tc.str)
		}
		if got, err := JSON(tc.v, JSONOptions{Indent: -1}); err != nil || got != tc.json {
			t.Errorf("JSON(%#v) = %s, %v; want %s", tc.v, got, err, tc.json)
		}
		if got, err := JSON(tc.v, JSONOptions{Indent: 2}); err != nil || got != tc.json2 {
			t.Errorf("JSON(%#v, indent 2) = %q, %v; want %q", tc.v, got, err, tc.json2)
		}
	}
	if _, err := JSON(struct{}{}, JSONOptions{}); err == nil {
		t.Error("JSON of a struct without Default: no error")
	}
	got, err := JSON([]any{struct{ A int }{1}}, JSONOptions{Indent: -1, Default: func(v any) (any, error) { return Repr(v), nil }})
	if want := `["{1}"]`; err != nil || got != want {
		t.Errorf("JSON with Default = %s, %v; want %s", got, err, want)
	}
}

func TestEqual(t *testing.T) {
	// Python's answers: 1 == 1.0, True == 1, 2**53+1 == float(2**53+1), ...
	for _, tc := range []struct {
		a, b any
		want bool
	}{
		{int64(1), 1.0, true},
		{true, int64(1), true},
		{int(2), int64(2), true},
		{int64(1<<53 + 1), float64(1<<53 + 1), false},
		{float64(1 << 53), int64(1 << 53), true},
		{0.5, int64(0), false},
		{[]any{int64(1), int64(2)}, []any{1.0, 2}, true},
		{[]string{"a"}, []any{"a"}, true},
		{tuple{int64(1)}, []any{int64(1)}, false},
		{tuple{int64(1)}, tuple{1.0}, true},
		{map[string]any{"a": []any{int64(1)}}, map[string]any{"a": []any{true}}, true},
		{map[string]any{"a": 1}, map[string]any{"b": 1}, false},
		{nil, int64(0), false},
		{nil, nil, true},
		{"a", []any{"a"}, false},
		{math.NaN(), math.NaN(), false},
		{[]any{func() {}}, []any{func() {}}, false},
	} {
		if got := Equal(tc.a, tc.b); got != tc.want {
			t.Errorf("Equal(%#v, %#v) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
		if got := Equal(tc.b, tc.a); got != tc.want {
			t.Errorf("Equal(%#v, %#v) = %v, want %v", tc.b, tc.a, got, tc.want)
		}
	}
}

func TestDeepCopy(t *testing.T) {
	orig := map[string]any{"a": []any{int64(1), map[string]any{"b": "x"}}, "c": 2.5}
	cp := DeepCopy(orig).(map[string]any)
	cp["a"].([]any)[1].(map[string]any)["b"] = "changed"
	cp["a"].([]any)[0] = int64(9)
	cp["c"] = 0.0
	if !Equal(orig, map[string]any{"a": []any{int64(1), map[string]any{"b": "x"}}, "c": 2.5}) {
		t.Errorf("changing the copy changed the original: %v", orig)
	}
	if DeepCopy(nil) != nil || DeepCopy("s") != "s" {
		t.Error("scalars are returned as they are")
	}
}
