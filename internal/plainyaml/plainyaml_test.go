package plainyaml

import (
	"reflect"
	"testing"
)

func TestUnmarshal(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want any
	}{
		{"", nil},
		{"a: 1\nb: 1.0\nc: [x, true]\n", map[string]any{"a": 1, "b": 1.0, "c": []any{"x", true}}},
		{"f: !function utils.process_docs\n", map[string]any{"f": "!function utils.process_docs"}},
		{"base: &b {k: v}\nuse: *b\n", map[string]any{"base": map[string]any{"k": "v"}, "use": map[string]any{"k": "v"}}},
		{"- null\n- '2'\n", []any{nil, "2"}},
	} {
		got, err := Unmarshal([]byte(tt.in))
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Unmarshal(%q) = %#v, %v; want %#v", tt.in, got, err, tt.want)
		}
	}
	if _, err := Unmarshal([]byte("a: [1,\n")); err == nil {
		t.Error("broken YAML decoded")
	}
}
