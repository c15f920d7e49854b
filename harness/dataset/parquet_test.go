package dataset

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/parquet-go/parquet-go"
)

// arcChoices is shaped like ai2_arc's choices column: a struct of two lists.
type arcChoices struct {
	Text  []string `parquet:"text,list"`
	Label []string `parquet:"label,list"`
}

type source struct {
	Name string `parquet:"name"`
	Year int32  `parquet:"year"`
}

type fixtureRow struct {
	ID        string     `parquet:"id"`
	Question  string     `parquet:"question"`
	Choices   arcChoices `parquet:"choices"`
	AnswerKey string     `parquet:"answerKey"`
	Label     int64      `parquet:"label"`
	Small     int32      `parquet:"small"`
	Unsigned  uint32     `parquet:"unsigned"`
	Flag      bool       `parquet:"flag"`
	Score     float64    `parquet:"score"`
	Ratio     float32    `parquet:"ratio"`
	Note      *string    `parquet:"note,optional"`
	Source    *source    `parquet:"source,optional"`
	Tags      []string   `parquet:"tags"`         // plain repeated field, no LIST annotation
	Sources   []source   `parquet:"sources,list"` // list of structs
	Counts    []int64    `parquet:"counts,list"`  // list of ints
	MaybeList []string   `parquet:"maybe,optional,list"`
	// Arrow's layout: an optional list of optional elements.
	ArrowList []*string `parquet:"arrow,optional,list" parquet-element:",optional"`
}

func ptr[T any](v T) *T { return &v }

func fixtureRows() []fixtureRow {
	return []fixtureRow{
		{
			ID: "Mercury_7175875", Question: "An astronomer observes that a planet rotates faster after a meteorite impact. Which is the most likely effect?",
			Choices:   arcChoices{Text: []string{"Planetary density will decrease.", "Planetary years will become longer.", "Planetary days will become shorter.", "Planetary gravity will become stronger."}, Label: []string{"A", "B", "C", "D"}},
			AnswerKey: "C", Label: 2, Small: -7, Unsigned: 4000000000, Flag: true, Score: 0.25, Ratio: 0.1,
			Note: ptr("has a note"), Source: &source{"ARC", 2018},
			Tags: []string{"physics", "astronomy"}, Sources: []source{{"a", 1}, {"b", 2}}, Counts: []int64{3, 1, 4},
			MaybeList: []string{"x"}, ArrowList: []*string{ptr("a"), nil, ptr("c")},
		},
		{
			ID: "Q2", Question: "Empty lists and nulls", Choices: arcChoices{Text: []string{}, Label: []string{}},
			AnswerKey: "", Label: 0, Flag: false, Score: -1.5e300,
		},
		{
			ID: "Q3", Question: "ünïcödé ✓", Choices: arcChoices{Text: []string{"only"}, Label: []string{"1"}},
			AnswerKey: "1", Label: -9223372036854775808, Small: 2147483647, Flag: true, Score: 3,
			Tags: []string{""}, Sources: []source{{"", 0}}, Counts: []int64{0},
		},
	}
}

// expected is what datasets (through Arrow's to_pylist) gives for a row:
// written out by hand from the row's fields.
func expected(r fixtureRow) map[string]any {
	strs := func(s []string) []any {
		out := []any{}
		for _, v := range s {
			out = append(out, v)
		}
		return out
	}
	src := func(s source) map[string]any { return map[string]any{"name": s.Name, "year": int64(s.Year)} }
	m := map[string]any{
		"id": r.ID, "question": r.Question,
		"choices":   map[string]any{"text": strs(r.Choices.Text), "label": strs(r.Choices.Label)},
		"answerKey": r.AnswerKey, "label": r.Label, "small": int64(r.Small), "unsigned": int64(r.Unsigned),
		"flag": r.Flag, "score": r.Score, "ratio": float64(r.Ratio),
		"note": nil, "source": nil, "tags": strs(r.Tags), "sources": []any{}, "counts": []any{}, "maybe": nil, "arrow": nil,
	}
	if r.Note != nil {
		m["note"] = *r.Note
	}
	if r.Source != nil {
		m["source"] = src(*r.Source)
	}
	for _, s := range r.Sources {
		m["sources"] = append(m["sources"].([]any), src(s))
	}
	for _, c := range r.Counts {
		m["counts"] = append(m["counts"].([]any), c)
	}
	if r.ArrowList != nil {
		l := []any{}
		for _, s := range r.ArrowList {
			if s == nil {
				l = append(l, nil)
			} else {
				l = append(l, *s)
			}
		}
		m["arrow"] = l
	}
	if r.MaybeList != nil {
		m["maybe"] = strs(r.MaybeList)
	}
	return m
}

func writeFixtureParquet(t testing.TB, path string, rows []fixtureRow) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	// Two rows per row group, so reading crosses row groups.
	if err := parquet.WriteFile(path, rows, parquet.MaxRowsPerRowGroup(2)); err != nil {
		t.Fatal(err)
	}
}

func TestReadParquet(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f.parquet")
	rows := fixtureRows()
	writeFixtureParquet(t, path, rows)
	docs, err := readParquet(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) != len(rows) {
		t.Fatalf("%d documents, want %d", len(docs), len(rows))
	}
	for i, r := range rows {
		want := expected(r)
		for k, w := range want {
			if g := docs[i][k]; !reflect.DeepEqual(g, w) {
				t.Errorf("row %d %s = %#v (%T), want %#v (%T)", i, k, g, g, w, w)
			}
		}
		if len(docs[i]) != len(want) {
			t.Errorf("row %d has %d columns, want %d", i, len(docs[i]), len(want))
		}
	}
}

func TestReadParquetNotParquet(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.parquet")
	writeFile(t, path, bytes.Repeat([]byte("not parquet "), 10))
	if _, err := readParquet(path); err == nil {
		t.Error("no error reading a file that is not Parquet")
	}
}
