package dataset

import (
	"context"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func docs(ms ...map[string]any) []map[string]any { return ms }

func TestJSONFormats(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"lines.jsonl": `{"q": "a", "n": 1, "f": 1.5, "ok": true, "l": [1, "x", null], "s": {"k": 2}}
{"q": "b", "n": 9007199254740993, "f": 2, "ok": false, "l": [], "s": {"k": -1}, "extra": null}
`,
		"array.json":   `[{"q": "a", "n": 1}, {"q": "b", "n": 2}]`,
		"field.json":   `{"version": 1, "data": [{"q": "a"}, {"q": "b"}]}`,
		"columns.json": "{\n  \"q\": [\"a\", \"b\"],\n  \"n\": [1, 2]\n}\n",
		"one.json":     `{"q": ["a", "b"], "n": [1, 2]}`,
	}
	for name, content := range files {
		writeFile(t, filepath.Join(dir, name), []byte(content))
	}
	tests := []struct {
		file   string
		kwargs map[string]any
		want   []map[string]any
	}{
		{"lines.jsonl", nil, docs(
			// f mixes 1.5 and 2: an Arrow double column, so 2 becomes 2.0;
			// n stays int64 beyond float64's exact range; missing keys are nil.
			map[string]any{"q": "a", "n": int64(1), "f": 1.5, "ok": true, "l": []any{int64(1), "x", nil}, "s": map[string]any{"k": int64(2)}, "extra": nil},
			map[string]any{"q": "b", "n": int64(9007199254740993), "f": 2.0, "ok": false, "l": []any{}, "s": map[string]any{"k": int64(-1)}, "extra": nil},
		)},
		{"array.json", nil, docs(map[string]any{"q": "a", "n": int64(1)}, map[string]any{"q": "b", "n": int64(2)})},
		{"field.json", map[string]any{"field": "data"}, docs(map[string]any{"q": "a"}, map[string]any{"q": "b"})},
		{"columns.json", nil, docs(map[string]any{"q": "a", "n": int64(1)}, map[string]any{"q": "b", "n": int64(2)})},
		{"one.json", nil, docs(map[string]any{"q": []any{"a", "b"}, "n": []any{int64(1), int64(2)}})},
	}
	for _, tc := range tests {
		kw := map[string]any{"data_files": filepath.Join(dir, tc.file)}
		for k, v := range tc.kwargs {
			kw[k] = v
		}
		got, err := Load(context.Background(), Spec{Path: "json", Kwargs: kw}, "train", Options{})
		if err != nil {
			t.Errorf("%s: %v", tc.file, err)
			continue
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s:\n got %#v\nwant %#v", tc.file, got, tc.want)
		}
	}
	bad := filepath.Join(dir, "bad.jsonl")
	writeFile(t, bad, []byte("{\"q\": 1}\n{\"q\": 2,}\n"))
	_, err := Load(context.Background(), Spec{Path: "json", Kwargs: map[string]any{"data_files": bad}}, "train", Options{})
	if err == nil || !strings.Contains(err.Error(), "bad.jsonl") || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("malformed JSONL: err = %v, want one naming the file and line 2", err)
	}
}

func TestCSV(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "d.csv"), []byte("\ufeffid,count,ratio,flag,text,partial,empty\n"+
		"1,10,0.5,True,\"hello, world\",3,\n"+
		"2,-3,1e3,False,plain,,\n"+
		"3,7,2,true,\"multi\nline\",5,\n"))
	writeFile(t, filepath.Join(dir, "d.tsv"), []byte("a\tb\tc\nx y\t1\tNone\nN/A\tNA\tz\n"))
	got, err := Load(context.Background(), Spec{Path: "csv", Kwargs: map[string]any{"data_files": map[string]any{"test": "d.csv"}}}, "test", Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	// pandas.read_csv types: int64, float64 (ints too once a float is there),
	// bool for True/False, NaN (None after Arrow) for empty cells, which make
	// an int column float.
	want := docs(
		map[string]any{"id": int64(1), "count": int64(10), "ratio": 0.5, "flag": true, "text": "hello, world", "partial": 3.0, "empty": nil},
		map[string]any{"id": int64(2), "count": int64(-3), "ratio": 1000.0, "flag": false, "text": "plain", "partial": nil, "empty": nil},
		map[string]any{"id": int64(3), "count": int64(7), "ratio": 2.0, "flag": true, "text": "multi\nline", "partial": 5.0, "empty": nil},
	)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("csv:\n got %#v\nwant %#v", got, want)
	}
	got, err = Load(context.Background(), Spec{Path: "csv", Kwargs: map[string]any{"data_files": filepath.Join(dir, "d.tsv")}}, "train", Options{})
	// pandas reads "None", "N/A", "NA" as NaN: None in datasets; a column
	// of ints with a missing value is float.
	if want := docs(map[string]any{"a": "x y", "b": 1.0, "c": nil}, map[string]any{"a": nil, "b": nil, "c": "z"}); err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("tsv: %v, %v; want %v", got, err, want)
	}
}

func TestText(t *testing.T) {
	dir := t.TempDir()
	// Expected from Python: "first line\n\nthird\r\nfour\rfive\u2028six".splitlines()
	writeFile(t, filepath.Join(dir, "a.txt"), []byte("first line\n\nthird\r\nfour\rfive\u2028six"))
	got, err := Load(context.Background(), Spec{Path: "text", Kwargs: map[string]any{"data_files": "a.txt"}}, "train", Options{Dir: dir})
	want := docs(map[string]any{"text": "first line"}, map[string]any{"text": ""}, map[string]any{"text": "third"},
		map[string]any{"text": "four"}, map[string]any{"text": "five"}, map[string]any{"text": "six"})
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("text: %v, %v; want %v", got, err, want)
	}
}

func TestDataFilesForms(t *testing.T) {
	dir := t.TempDir()
	line := func(s string) []byte { return []byte(`{"x": "` + s + `"}` + "\n") }
	for _, f := range []string{"a.jsonl", "b.jsonl", "shards/s-0.jsonl", "shards/s-1.jsonl", "deep/one/d.jsonl", "deep/two/three/d.jsonl",
		"dd/train.jsonl", "dd/validation-0.jsonl", "dd/notes.csv"} {
		writeFile(t, filepath.Join(dir, filepath.FromSlash(f)), line(f))
	}
	xs := func(d []map[string]any) []string {
		var out []string
		for _, m := range d {
			out = append(out, m["x"].(string))
		}
		return out
	}
	tests := []struct {
		name   string
		kwargs map[string]any
		split  string
		want   []string
		splits []string
	}{
		{"string", map[string]any{"data_files": "a.jsonl"}, "train", []string{"a.jsonl"}, []string{"train"}},
		{"list", map[string]any{"data_files": []any{"b.jsonl", "a.jsonl"}}, "train", []string{"b.jsonl", "a.jsonl"}, []string{"train"}},
		{"map", map[string]any{"data_files": map[string]any{"test": "a.jsonl", "validation": []any{"b.jsonl", "a.jsonl"}}}, "validation", []string{"b.jsonl", "a.jsonl"}, []string{"test", "validation"}},
		{"glob", map[string]any{"data_files": map[string]any{"test": "shards/*.jsonl"}}, "test", []string{"shards/s-0.jsonl", "shards/s-1.jsonl"}, []string{"test"}},
		{"double star", map[string]any{"data_files": "deep/**/d.jsonl"}, "train", []string{"deep/one/d.jsonl", "deep/two/three/d.jsonl"}, []string{"train"}},
		{"data_dir", map[string]any{"data_dir": "dd"}, "validation", []string{"dd/validation-0.jsonl"}, []string{"train", "validation"}},
		{"data_dir with data_files", map[string]any{"data_dir": "shards", "data_files": "s-1.jsonl"}, "train", []string{"shards/s-1.jsonl"}, []string{"train"}},
	}
	ctx := context.Background()
	for _, tc := range tests {
		spec := Spec{Path: "json", Kwargs: tc.kwargs}
		got, err := Load(ctx, spec, tc.split, Options{Dir: dir})
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if !reflect.DeepEqual(xs(got), tc.want) {
			t.Errorf("%s: documents from %v, want %v", tc.name, xs(got), tc.want)
		}
		splits, err := Splits(ctx, spec, Options{Dir: dir})
		if err != nil || !reflect.DeepEqual(splits, tc.splits) {
			t.Errorf("%s: Splits = %v, %v; want %v", tc.name, splits, err, tc.splits)
		}
	}
	errTests := []struct {
		name   string
		kwargs map[string]any
		split  string
		want   string
	}{
		{"missing split", map[string]any{"data_files": map[string]any{"test": "a.jsonl"}}, "train", `no split "train" in data_files (splits: test)`},
		{"missing file", map[string]any{"data_files": "nope.jsonl"}, "train", "nope.jsonl"},
		{"glob matching nothing", map[string]any{"data_files": "zz/*.jsonl"}, "train", "no file matches"},
		{"no files given", nil, "train", "needs dataset_kwargs.data_files or data_dir"},
	}
	for _, tc := range errTests {
		_, err := Load(ctx, Spec{Path: "json", Kwargs: tc.kwargs}, tc.split, Options{Dir: dir})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want it to contain %q", tc.name, err, tc.want)
		}
	}
}

func TestLocalDirectory(t *testing.T) {
	dir := t.TempDir()
	writeFixtureParquet(t, filepath.Join(dir, "plain", "data", "test-00000-of-00001.parquet"), fixtureRows()[:2])
	writeFixtureParquet(t, filepath.Join(dir, "plain", "data", "train-00000-of-00001.parquet"), fixtureRows()[2:])
	writeFile(t, filepath.Join(dir, "plain", "README.md"), []byte("# no front matter\n"))
	writeFile(t, filepath.Join(dir, "carded", "README.md"), []byte(`---
license: mit
configs:
- config_name: easy
  data_files:
  - split: test
    path: easy/test*.jsonl
- config_name: hard
  default: true
  data_files:
  - split: validation
    path: [hard/v.csv]
---
# card
`))
	writeFile(t, filepath.Join(dir, "carded", "easy", "test-a.jsonl"), []byte(`{"id": 1}`+"\n"))
	writeFile(t, filepath.Join(dir, "carded", "easy", "test-b.jsonl"), []byte(`{"id": 2}`+"\n"))
	writeFile(t, filepath.Join(dir, "carded", "hard", "v.csv"), []byte("id\n3\n"))
	ctx := context.Background()

	got, err := Load(ctx, Spec{Path: "plain"}, "test", Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || !reflect.DeepEqual(got[0], expected(fixtureRows()[0])) {
		t.Errorf("parquet directory: %d docs, first %v", len(got), got)
	}
	if s, err := Splits(ctx, Spec{Path: filepath.Join(dir, "plain")}, Options{}); err != nil || !reflect.DeepEqual(s, []string{"test", "train"}) {
		t.Errorf("Splits(plain) = %v, %v", s, err)
	}
	tests := []struct {
		name, split string
		want        []map[string]any
	}{
		{"easy", "test", docs(map[string]any{"id": int64(1)}, map[string]any{"id": int64(2)})},
		{"hard", "validation", docs(map[string]any{"id": int64(3)})},
		{"", "validation", docs(map[string]any{"id": int64(3)})}, // the default config
	}
	for _, tc := range tests {
		got, err := Load(ctx, Spec{Path: "carded", Name: tc.name}, tc.split, Options{Dir: dir})
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("carded/%s %s = %v, %v; want %v", tc.name, tc.split, got, err, tc.want)
		}
	}
	_, err = Load(ctx, Spec{Path: "carded", Name: "medium"}, "test", Options{Dir: dir})
	if err == nil || !strings.Contains(err.Error(), `no config "medium" (configs: easy, hard)`) {
		t.Errorf("unknown config: %v", err)
	}
}

func TestInferSplits(t *testing.T) {
	tests := []struct {
		files []string
		want  map[string][]string
	}{
		{[]string{"train.jsonl", "test.jsonl", "dev.jsonl"}, map[string][]string{"train": {"train.jsonl"}, "test": {"test.jsonl"}, "validation": {"dev.jsonl"}}},
		{[]string{"data/train-00000-of-00002.parquet", "data/validation-00000-of-00001.parquet"}, map[string][]string{"train": {"data/train-00000-of-00002.parquet"}, "validation": {"data/validation-00000-of-00001.parquet"}}},
		{[]string{"mmlu_test.csv", "my-training.csv"}, map[string][]string{"test": {"mmlu_test.csv"}, "train": {"my-training.csv"}}},
		{[]string{"latest.json", "contest.json"}, map[string][]string{"train": {"latest.json", "contest.json"}}},
		{[]string{"test/a.json", "train/b.json", "eval_set/c.json"}, map[string][]string{"test": {"test/a.json", "eval_set/c.json"}, "train": {"train/b.json"}}},
		{[]string{"x.json"}, map[string][]string{"train": {"x.json"}}},
	}
	for _, tc := range tests {
		if got := inferSplits(tc.files); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("inferSplits(%v) = %v, want %v", tc.files, got, tc.want)
		}
	}
}

func TestGlobRegexp(t *testing.T) {
	tests := []struct {
		pattern, path string
		match         bool
	}{
		{"data/train-*", "data/train-00000.parquet", true},
		{"data/train-*", "data/x/train-0.parquet", false},
		{"**/test*.jsonl", "test.jsonl", true},
		{"**/test*.jsonl", "a/b/test-1.jsonl", true},
		{"a/**", "a/b/c", true},
		{"file?.csv", "file1.csv", true},
		{"file?.csv", "file10.csv", false},
		{"[ab].json", "b.json", true},
		{"[!ab].json", "b.json", false},
		{"x.json", "xxjson", false},
	}
	for _, tc := range tests {
		re, err := globRegexp(tc.pattern)
		if err != nil {
			t.Fatal(err)
		}
		if got := re.MatchString(tc.path); got != tc.match {
			t.Errorf("glob %q on %q = %v, want %v", tc.pattern, tc.path, got, tc.match)
		}
	}
}

func TestLoaderCopies(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "a.jsonl"), []byte(`{"l": [1], "s": {"k": "v"}}`+"\n"))
	l := NewLoader(Options{Dir: dir})
	spec := Spec{Path: "json", Kwargs: map[string]any{"data_files": "a.jsonl"}}
	first, err := l.Load(context.Background(), spec, "train")
	if err != nil {
		t.Fatal(err)
	}
	first[0]["l"].([]any)[0] = "changed"
	first[0]["s"].(map[string]any)["k"] = "changed"
	// The file is read once: removing it does not matter to the Loader.
	writeFile(t, filepath.Join(dir, "a.jsonl"), []byte(`{"l": [2]}`+"\n"))
	second, err := l.Load(context.Background(), spec, "train")
	want := docs(map[string]any{"l": []any{int64(1)}, "s": map[string]any{"k": "v"}})
	if err != nil || !reflect.DeepEqual(second, want) {
		t.Errorf("second Load = %v, %v; want the original, unmodified %v", second, err, want)
	}
}

func TestMatchFilesOrder(t *testing.T) {
	files := []string{"a.json", "b.json", "d/2.json", "d/1.json"}
	got, err := matchFiles(files, []string{"b.json", "d/*.json", "a.json", "b.json"})
	want := []string{"b.json", "d/1.json", "d/2.json", "a.json"}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("matchFiles = %v, %v; want %v", got, err, want)
	}
}

func TestNeitherLocalNorHub(t *testing.T) {
	for _, p := range []string{"./missing/dir", "/abs/missing", "a/b/c", "../up"} {
		_, err := Load(context.Background(), Spec{Path: p}, "test", Options{Endpoint: "http://127.0.0.1:1"})
		if err == nil || !strings.Contains(err.Error(), "is no local directory") {
			t.Errorf("%s: err = %v", p, err)
		}
		_, err = Splits(context.Background(), Spec{Path: p}, Options{Endpoint: "http://127.0.0.1:1"})
		if err == nil || !strings.Contains(err.Error(), "is no local directory") {
			t.Errorf("Splits %s: err = %v", p, err)
		}
	}
}

// TestCSVColumnNames: datasets' CSV builder passes header and
// column_names to pandas.read_csv (mmlusr's header-less CSVs). Expected
// from pandas: read_csv(header=None | "infer" | 0, names=[...]).
func TestCSVColumnNames(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "n.csv"), []byte("q1,a,b,c,d,A\nq2,1,2,3,4, B\n"))
	names := []any{"question", "choice1", "choice2", "choice3", "choice4", "answer"}
	load := func(kw map[string]any) []map[string]any {
		t.Helper()
		kw["data_files"] = "n.csv"
		got, err := Load(context.Background(), Spec{Path: "csv", Kwargs: kw}, "train", Options{Dir: dir})
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	both := docs(
		map[string]any{"question": "q1", "choice1": "a", "choice2": "b", "choice3": "c", "choice4": "d", "answer": "A"},
		map[string]any{"question": "q2", "choice1": "1", "choice2": "2", "choice3": "3", "choice4": "4", "answer": " B"},
	)
	for _, kw := range []map[string]any{
		{"column_names": names, "header": nil},
		{"column_names": names},
		{"names": names, "header": "infer"},
	} {
		if got := load(kw); !reflect.DeepEqual(got, both) {
			t.Errorf("%v:\n got %v\nwant %v", kw, got, both)
		}
	}
	want := docs(map[string]any{"question": "q2", "choice1": int64(1), "choice2": int64(2), "choice3": int64(3), "choice4": int64(4), "answer": " B"})
	if got := load(map[string]any{"column_names": names, "header": int64(0)}); !reflect.DeepEqual(got, want) {
		t.Errorf("header 0:\n got %v\nwant %v", got, want)
	}
}
