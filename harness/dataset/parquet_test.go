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
	docs, _, err := readParquet(path)
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
	if _, _, err := readParquet(path); err == nil {
		t.Error("no error reading a file that is not Parquet")
	}
}

// TestReadForeignParquet reads files other writers produced (see
// testdata/parquet-testing/README.md) and compares with their documented
// contents, in the types Python's datasets would give.
func TestReadForeignParquet(t *testing.T) {
	type M = map[string]any
	type L = []any
	tests := []struct {
		file string
		rows map[int]M // row index -> expected document
		n    int
	}{
		{"nested_lists.snappy.parquet", map[int]M{
			0: {"a": L{L{L{"a", "b"}, L{"c"}}, L{nil, L{"d"}}}, "b": int64(1)},
			1: {"a": L{L{L{"a", "b"}, L{"c", "d"}}, L{nil, L{"e"}}}, "b": int64(1)},
			2: {"a": L{L{L{"a", "b"}, L{"c", "d"}, L{"e"}}, L{nil, L{"f"}}}, "b": int64(1)},
		}, 3},
		{"list_columns.parquet", map[int]M{
			0: {"int64_list": L{int64(1), int64(2), int64(3)}, "utf8_list": L{"abc", "efg", "hij"}},
			1: {"int64_list": L{nil, int64(1)}, "utf8_list": nil},
			2: {"int64_list": L{int64(4)}, "utf8_list": L{"efg", nil, "hij", "xyz"}},
		}, 3},
		{"null_list.parquet", map[int]M{0: {"emptylist": L{}}}, 1},
		{"repeated_no_annotation.parquet", map[int]M{
			0: {"id": int64(1), "phoneNumbers": nil},
			2: {"id": int64(3), "phoneNumbers": M{"phone": L{}}},
			3: {"id": int64(4), "phoneNumbers": M{"phone": L{M{"number": int64(5555555555), "kind": nil}}}},
			5: {"id": int64(6), "phoneNumbers": M{"phone": L{
				M{"number": int64(1111111111), "kind": "home"},
				M{"number": int64(2222222222), "kind": nil},
				M{"number": int64(3333333333), "kind": "mobile"},
			}}},
		}, 6},
		{"nested_maps.snappy.parquet", map[int]M{
			0: {"a": M{"a": M{"1": true, "2": false}}, "b": int64(1), "c": 1.0},
			2: {"a": M{"c": nil}, "b": int64(1), "c": 1.0},
			3: {"a": M{"d": M{}}, "b": int64(1), "c": 1.0},
		}, 6},
		{"nullable.impala.parquet", map[int]M{
			0: {"id": int64(1), "int_array": L{int64(1), int64(2), int64(3)}, "int_array_Array": L{L{int64(1), int64(2)}, L{int64(3), int64(4)}},
				"int_map": M{"k1": int64(1), "k2": int64(100)}, "int_Map_Array": L{M{"k1": int64(1)}},
				"nested_struct": M{"A": int64(1), "b": L{int64(1)},
					"C": M{"d": L{L{M{"E": int64(10), "F": "aaa"}, M{"E": int64(-10), "F": "bbb"}}, L{M{"E": int64(11), "F": "c"}}}},
					"g": M{"foo": M{"H": M{"i": L{1.1}}}}}},
			2: {"id": int64(3), "int_array": L{}, "int_array_Array": L{nil}, "int_map": M{}, "int_Map_Array": L{nil, nil},
				"nested_struct": M{"A": nil, "b": nil, "C": M{"d": L{}}, "g": M{}}},
			5: {"id": int64(6), "int_array": nil, "int_array_Array": nil, "int_map": nil, "int_Map_Array": nil, "nested_struct": nil},
			6: {"id": int64(7), "int_array": nil, "int_array_Array": L{nil, L{int64(5), int64(6)}},
				"int_map": M{"k1": nil, "k3": nil}, "int_Map_Array": nil,
				"nested_struct": M{"A": int64(7), "b": L{int64(2), int64(3), nil}, "C": M{"d": L{L{}, L{nil}, nil}}, "g": nil}},
		}, 7},
		{"alltypes_plain.parquet", map[int]M{
			0: {"id": int64(4), "bool_col": true, "tinyint_col": int64(0), "smallint_col": int64(0), "int_col": int64(0),
				"bigint_col": int64(0), "float_col": 0.0, "double_col": 0.0, "date_string_col": "03/01/09", "string_col": "0",
				"timestamp_col": "2009-03-01 00:00:00"},
			1: {"id": int64(5), "bool_col": false, "tinyint_col": int64(1), "smallint_col": int64(1), "int_col": int64(1),
				"bigint_col": int64(10), "float_col": float64(float32(1.1)), "double_col": 10.1, "date_string_col": "03/01/09", "string_col": "1",
				"timestamp_col": "2009-03-01 00:01:00"},
		}, 8},
	}
	for _, tc := range tests {
		got, _, err := readParquet(filepath.Join("testdata", "parquet-testing", tc.file))
		if err != nil {
			t.Errorf("%s: %v", tc.file, err)
			continue
		}
		if len(got) != tc.n {
			t.Errorf("%s: %d rows, want %d", tc.file, len(got), tc.n)
		}
		for i, want := range tc.rows {
			if i < len(got) && !reflect.DeepEqual(got[i], want) {
				t.Errorf("%s row %d:\n got %#v\nwant %#v", tc.file, i, got[i], want)
			}
		}
	}
}

func BenchmarkReadParquet(b *testing.B) {
	path := filepath.Join(b.TempDir(), "bench.parquet")
	base := fixtureRows()
	var rows []fixtureRow
	for len(rows) < 10000 {
		rows = append(rows, base...)
	}
	// Row groups of 100 rows, as the Hub's conversion writes for text data.
	if err := parquet.WriteFile(path, rows, parquet.MaxRowsPerRowGroup(100)); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		docs, _, err := readParquet(path)
		if err != nil || len(docs) != len(rows) {
			b.Fatal(len(docs), err)
		}
	}
	b.ReportMetric(float64(len(rows)), "rows/op")
}
