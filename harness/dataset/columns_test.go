package dataset

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lmeval/lmeval/python/pyval"
)

// order renders a column order as "a,b{c,d},e" for comparison.
func order(c *pyval.Columns) string {
	if c == nil {
		return ""
	}
	parts := make([]string, len(c.Names))
	for i, n := range c.Names {
		parts[i] = n
		if f := c.Field(n); f != nil && len(f.Names) > 0 {
			parts[i] += "{" + order(f) + "}"
		}
	}
	return strings.Join(parts, ",")
}

// The Parquet schema's order is the written struct's field order, nested
// structs (and the structs of lists) included.
func TestParquetColumns(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f.parquet")
	writeFixtureParquet(t, path, fixtureRows())
	_, cols, err := readParquet(path)
	if err != nil {
		t.Fatal(err)
	}
	want := "id,question,choices{text,label},answerKey,label,small,unsigned,flag,score,ratio,note,source{name,year},tags,sources{name,year},counts,maybe,arrow"
	if got := order(cols); got != want {
		t.Errorf("columns\n got %s\nwant %s", got, want)
	}
}

// JSON: keys in order of first appearance over the rows, per struct too;
// CSV: the header; text: "text"; several files: the first's, then new ones.
func TestLoadColumns(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	jsonl := write("a.jsonl", `{"z": 1, "choices": {"text": ["x"], "label": ["A"]}, "a": 2}
{"a": 3, "m": [{"q": 1, "b": 2}], "z": 4, "choices": {"label": ["B"], "text": ["y"], "extra": 1}}
`)
	array := write("b.json", `[{"k": 1, "j": {"y": 1, "x": 2}}, {"i": 0, "k": 2}]`)
	field := write("c.json", `{"version": 1, "data": [{"q": "?", "p": "!"}]}`)
	columnar := write("d.json", "{\"s\": [1, 2],\n \"r\": [3, 4]}\n")
	csv := write("e.csv", "zeta,alpha,mid\n1,2,3\n")
	text := write("f.txt", "one\ntwo\n")
	second := write("g.jsonl", `{"new": 1, "a": 1, "z": 2}`+"\n")
	for _, tc := range []struct {
		spec Spec
		want string
	}{
		{Spec{Path: "json", Kwargs: map[string]any{"data_files": jsonl}}, "z,choices{text,label,extra},a,m{q,b}"},
		{Spec{Path: "json", Kwargs: map[string]any{"data_files": array}}, "k,j{y,x},i"},
		{Spec{Path: "json", Kwargs: map[string]any{"data_files": field, "field": "data"}}, "q,p"},
		{Spec{Path: "json", Kwargs: map[string]any{"data_files": columnar}}, "s,r"},
		{Spec{Path: "csv", Kwargs: map[string]any{"data_files": csv}}, "zeta,alpha,mid"},
		{Spec{Path: "text", Kwargs: map[string]any{"data_files": text}}, "text"},
		{Spec{Path: "json", Kwargs: map[string]any{"data_files": []any{jsonl, second}}}, "z,choices{text,label,extra},a,m{q,b},new"},
	} {
		_, cols, err := LoadColumns(context.Background(), tc.spec, "train", Options{Offline: true})
		if err != nil {
			t.Errorf("%v: %v", tc.spec.Kwargs, err)
			continue
		}
		if got := order(cols); got != tc.want {
			t.Errorf("%v: columns %s, want %s", tc.spec.Kwargs["data_files"], got, tc.want)
		}
	}
	// The Loader remembers them with the documents.
	l := NewLoader(Options{Offline: true})
	spec := Spec{Path: "csv", Kwargs: map[string]any{"data_files": csv}}
	cols, err := l.Columns(context.Background(), spec, "train")
	if err != nil || order(cols) != "zeta,alpha,mid" {
		t.Errorf("Loader.Columns = %s, %v", order(cols), err)
	}
}
