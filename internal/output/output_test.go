package output

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lmeval/lmeval/harness/results"
)

func TestLayout(t *testing.T) {
	at := time.Date(2026, 3, 4, 5, 6, 7, 890123456, time.UTC)
	whole := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	for _, tc := range []struct {
		path, model string
		at          time.Time
		results     string
		samples     string
	}{
		{"out", "/m/tiny.gguf", at, "out/__m__tiny.gguf/results_2026-03-04T05-06-07.890123.json",
			"out/__m__tiny.gguf/samples_arc_easy_2026-03-04T05-06-07.890123.jsonl"},
		{"out/run.json", "/m/tiny.gguf", whole, "out/run.json", "out/samples_arc_easy_2026-03-04T05-06-07.jsonl"},
		{"res", "", whole, "res/results_2026-03-04T05-06-07.json", "res/samples_arc_easy_2026-03-04T05-06-07.jsonl"},
	} {
		l := NewLayout(tc.path, tc.model, tc.at)
		if l.ResultsFile != tc.results {
			t.Errorf("NewLayout(%q, %q).ResultsFile = %q, want %q", tc.path, tc.model, l.ResultsFile, tc.results)
		}
		if got := l.SamplesFile("arc_easy"); got != tc.samples {
			t.Errorf("NewLayout(%q, %q).SamplesFile = %q, want %q", tc.path, tc.model, got, tc.samples)
		}
	}
}

func TestWriteResultsAndSamples(t *testing.T) {
	dir := t.TempDir()
	l := NewLayout(dir, "m<1>", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	if err := l.WriteResults(map[string]any{"results": map[string]any{"t": "é<b>"}}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "m__1__", "results_2026-01-01T00-00-00.json"))
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"results\": {\n    \"t\": \"é<b>\"\n  }\n}\n"
	if string(data) != want {
		t.Errorf("results file = %q, want %q", data, want)
	}

	w, err := l.OpenSamples("task")
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if err := w.Write(map[string]any{"doc_id": i}); err != nil {
			t.Fatal(err)
		}
		// Each line is on disk before Close: read it back now.
		n := countLines(t, w.Path())
		if n != i+1 {
			t.Errorf("after %d writes the file has %d lines", i+1, n)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

func countLines(t *testing.T, path string) int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var v map[string]any
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatalf("line %d: %v", n, err)
		}
		n++
	}
	return n
}

// A results.Sample goes to disk in lm-eval's format (Python's json.dumps
// separators, floats as Python prints them), not compacted by encoding/json.
func TestSamplesLineFormat(t *testing.T) {
	l := NewLayout(t.TempDir(), "m", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	w, err := l.OpenSamples("task")
	if err != nil {
		t.Fatal(err)
	}
	m := results.NewOrderedMap[any]()
	m.Set("acc", 1.0)
	s := results.NewSample(3, map[string]any{"q": "é"}, int64(1), [][]any{{"ctx", " a"}}, [][]any{{[]any{-1.5, false}}},
		[]any{[]any{-1.5, false}}, "none", m)
	if err := w.Write(s); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(w.Path())
	if err != nil {
		t.Fatal(err)
	}
	want := `{"doc_id": 3, "doc": {"q": "é"}, "target": "1", "arguments": {"gen_args_0": {"arg_0": "ctx", "arg_1": " a"}}, ` +
		`"resps": [[["-1.5", "False"]]], "filtered_resps": [["-1.5", "False"]], "filter": "none", "metrics": ["acc"], ` +
		`"doc_hash": "` + s.DocHash + `", "prompt_hash": "` + s.PromptHash + `", "target_hash": "` + s.TargetHash + `", "acc": 1.0}` + "\n"
	if string(data) != want {
		t.Errorf("samples file:\n%s\nwant:\n%s", data, want)
	}
}

// TestSamplesSortedOnClose: samples written as documents complete (out of
// order, two filters interleaved) end up in lm-eval's order: by filter in
// first-seen order, then by doc_id. Before Close the file already holds
// every line written.
func TestSamplesSortedOnClose(t *testing.T) {
	l := NewLayout(t.TempDir(), "m", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	w, err := l.OpenSamples("task")
	if err != nil {
		t.Fatal(err)
	}
	written := [][2]any{{"strict", 2}, {"flex", 2}, {"strict", 0}, {"flex", 0}, {"strict", 1}, {"flex", 1}}
	for _, ws := range written {
		s := results.NewSample(ws[1].(int), map[string]any{"q": "x"}, "t", [][]any{{"c", "d"}}, [][]any{{"r"}}, []any{"r"}, ws[0].(string), results.NewOrderedMap[any]())
		if err := w.Write(s); err != nil {
			t.Fatal(err)
		}
	}
	if data, _ := os.ReadFile(w.Path()); strings.Count(string(data), "\n") != len(written) {
		t.Fatalf("before Close the file has %d lines, want %d", strings.Count(string(data), "\n"), len(written))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(w.Path())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var rec struct {
			DocID  int    `json:"doc_id"`
			Filter string `json:"filter"`
		}
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprintf("%s/%d", rec.Filter, rec.DocID))
	}
	want := []string{"strict/0", "strict/1", "strict/2", "flex/0", "flex/1", "flex/2"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("order %v, want %v", got, want)
	}
}

// TestFilesFollowUmask: the results file and the samples files get the
// mode the user's umask gives new files (0666 &^ umask), both of them, as
// any other program's output does.
func TestFilesFollowUmask(t *testing.T) {
	defer syscall.Umask(syscall.Umask(0o022))
	for _, umask := range []int{0o022, 0o002, 0o077} {
		syscall.Umask(umask)
		want := os.FileMode(0o666 &^ umask)
		l := NewLayout(t.TempDir(), "m", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
		if err := l.WriteResults(map[string]any{"results": map[string]any{}}); err != nil {
			t.Fatal(err)
		}
		w, err := l.OpenSamples("task")
		if err != nil {
			t.Fatal(err)
		}
		// Out of order, so Close rewrites the file.
		for _, id := range []int{1, 0} {
			s := results.NewSample(id, map[string]any{"q": "x"}, "t", [][]any{{"c", "d"}}, [][]any{{"r"}}, []any{"r"}, "none", results.NewOrderedMap[any]())
			if err := w.Write(s); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if err := w.Commit(); err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{l.ResultsFile, l.SamplesFile("task")} {
			fi, err := os.Stat(p)
			if err != nil {
				t.Fatal(err)
			}
			if got := fi.Mode().Perm(); got != want {
				t.Errorf("umask %03o: %s has mode %03o, want %03o", umask, filepath.Base(p), got, want)
			}
		}
	}
}

func TestReadLayout(t *testing.T) {
	l := NewLayout("out", "m.gguf", time.Date(2026, 3, 4, 5, 6, 7, 890123000, time.UTC))
	r := ReadLayout(l.ResultsFile)
	if r.DateID != l.DateID || r.Dir != l.Dir || r.SamplesFile("arc_easy") != l.SamplesFile("arc_easy") {
		t.Errorf("ReadLayout(%s) = %+v, want %+v", l.ResultsFile, r, l)
	}
	if r := ReadLayout("out/mine.json"); r.DateID != "" || r.Dir != "out" {
		t.Errorf("ReadLayout(out/mine.json) = %+v", r)
	}
}
