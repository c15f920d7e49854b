package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lmeval/lmeval/hub/hubtest"
)

// hubTask writes a task reading the Hub dataset repo whose doc_to_text
// fails when rendered ({{ nope }} is undefined), so a problem shows that
// documents were rendered and its absence that they were not.
func hubTask(t *testing.T, dir, name, repo string) {
	t.Helper()
	yaml := "task: " + name + "\ndataset_path: " + repo + `
output_type: multiple_choice
test_split: test
doc_to_text: "Q: {{q}} {{ nope }}"
doc_to_target: answer
doc_to_choice: ["yes", "no"]
`
	if err := os.WriteFile(filepath.Join(dir, name+".yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestValidateLocalOnly checks that validate renders only documents that
// are available locally unless --download is given: a Hub dataset missing
// from the cache gives a note and exit 0 without a single request, local
// files and the Hub cache are rendered.
func TestValidateLocalOnly(t *testing.T) {
	srv := hubtest.New(t)
	srv.Use(t)
	srv.AddFile("dataset", "lmeval-test/yesno", "", "test.jsonl", []byte(`{"q": "Is the sky blue?", "answer": 0}`+"\n"))
	dir := tinyTask(t)
	hubTask(t, dir, "hub_missing", "lmeval-test/absent")
	hubTask(t, dir, "hub_present", "lmeval-test/yesno")
	note := "note: documents not available locally: skipped rendering"

	tests := []struct {
		name     string
		args     []string
		wantErr  bool
		want     []string // lines the output contains
		wantNot  []string
		requests bool // whether the fake Hub may be asked
	}{
		{
			name: "missing Hub dataset: a note, no request",
			args: []string{"-t", "hub_missing,tiny_mc"},
			want: []string{"hub_missing (" + filepath.Join(dir, "hub_missing.yaml") + "): " + note, "ok: hub_missing, tiny_mc"},
		},
		{
			name: "Hub dataset not yet cached: a note, no request",
			args: []string{"-t", "hub_present"},
			want: []string{"hub_present (", note, "ok: hub_present"},
		},
		{
			name:    "local files are rendered",
			args:    []string{"-t", "tiny_mc,tiny_undefined"},
			wantErr: true,
			want:    []string{"tiny_undefined (", "building the first 3 documents", "nope"},
			wantNot: []string{note},
		},
		{
			name:     "--download fetches and renders",
			args:     []string{"-t", "hub_present", "--download"},
			wantErr:  true,
			want:     []string{"hub_present (", "building the first 3 documents", "nope"},
			wantNot:  []string{note},
			requests: true,
		},
		{
			name:    "the Hub cache is local",
			args:    []string{"-t", "hub_present"},
			wantErr: true,
			want:    []string{"hub_present (", "building the first 3 documents", "nope"},
			wantNot: []string{note},
		},
	}
	// tiny_undefined reads the local file of tiny_mc with the failing
	// template of hubTask.
	tiny, err := os.ReadFile(filepath.Join(dir, "tiny.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	undef := strings.Replace(strings.Replace(string(tiny), "task: tiny_mc", "task: tiny_undefined", 1), `"Q: {{q}}\nA:"`, `"Q: {{q}} {{ nope }}"`, 1)
	if err := os.WriteFile(filepath.Join(dir, "undefined.yaml"), []byte(undef), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range tests {
		before := len(srv.Requests())
		out, err := runApp(t, append([]string{"validate", "--include_path", dir, "--no_progress"}, c.args...)...)
		if (err != nil) != c.wantErr {
			t.Errorf("%s: err %v, want error %v\n%s", c.name, err, c.wantErr, out)
		}
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: output lacks %q:\n%s", c.name, w, out)
			}
		}
		for _, w := range c.wantNot {
			if strings.Contains(out, w) {
				t.Errorf("%s: output has %q:\n%s", c.name, w, out)
			}
		}
		if n := len(srv.Requests()) - before; (n > 0) != c.requests {
			t.Errorf("%s: %d request(s) to the Hub: %v", c.name, n, srv.Requests()[before:])
		}
	}
}

// TestValidateReportsDataProblems: validate, rendering documents, reports
// the documents whose gold answer is no choice and those whose fields
// render as None (harness/testdata/holes: a CSV with holes), with their
// count and the first of them; --num_docs 0 checks every document.
func TestValidateReportsDataProblems(t *testing.T) {
	t.Chdir(harnessDir) // the task's data file is relative to it
	for _, c := range []struct {
		args []string
		want []string
	}{
		{nil, []string{"gold answer is not one of the choices in 1 of the first 3 documents (first: doc_id 2, gold 5, 2 choices)",
			`field "q" is None and renders as "None" in 1 of the first 3 documents (first: doc_id 1)`}},
		{[]string{"--num_docs", "0"}, []string{"gold answer is not one of the choices in 2 of the 5 documents (first: doc_id 2, gold 5, 2 choices)",
			`field "q" is None and renders as "None" in 2 of the 5 documents (first: doc_id 1)`}},
	} {
		out, err := runApp(t, append([]string{"validate", "--include_path", "testdata/holes", "--no_progress", "-t", "holes_mc"}, c.args...)...)
		if err == nil {
			t.Errorf("%v: validate passed a task with holes:\n%s", c.args, out)
		}
		for _, w := range c.want {
			if !strings.Contains(out, "holes_mc (") || !strings.Contains(out, w) {
				t.Errorf("%v: output lacks %q:\n%s", c.args, w, out)
			}
		}
	}
}
