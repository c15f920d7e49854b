package main

import (
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// cutHub points the Hub client at a closed port of this machine, with an
// empty cache: the Hub cannot be reached.
func cutHub(t *testing.T) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	t.Setenv("HF_ENDPOINT", "http://"+addr)
	t.Setenv("HF_HOME", t.TempDir())
	t.Setenv("HF_HUB_CACHE", "")
	t.Setenv("HF_HUB_OFFLINE", "")
	t.Setenv("HF_TOKEN", "")
}

// TestRunChecksDataBeforeModel: a dataset that is neither cached nor
// reachable stops the run before the model loads, saying what to do.
func TestRunChecksDataBeforeModel(t *testing.T) {
	cutHub(t)
	absent := filepath.Join(t.TempDir(), "absent.gguf")
	for _, offline := range []string{"", "1"} {
		t.Setenv("HF_HUB_OFFLINE", offline)
		_, err := runApp(t, "run", "--model_args", "pretrained="+absent, "--tasks", "arc_easy", "--no_progress")
		if err == nil {
			t.Fatal("no error")
		}
		msg := err.Error()
		for _, want := range []string{"task arc_easy", "allenai/ai2_arc", "HF_HUB_OFFLINE=1", "lmeval pack", "--data_files arc_easy:test=PATH"} {
			if !strings.Contains(msg, want) {
				t.Errorf("HF_HUB_OFFLINE=%q: error does not say %q:\n%s", offline, want, msg)
			}
		}
		if strings.Contains(msg, "absent.gguf") {
			t.Errorf("HF_HUB_OFFLINE=%q: the model was loaded before the data was checked:\n%s", offline, msg)
		}
	}
}

// arcDocs writes n ARC-style documents as JSON lines.
func arcDocs(t *testing.T, path string, n int) {
	t.Helper()
	var b strings.Builder
	for i := range n {
		d := map[string]any{"id": i, "question": "Which is " + string(rune('a'+i)) + "?",
			"choices": map[string]any{"text": []string{"this", "that"}, "label": []string{"A", "B"}}, "answerKey": "B"}
		line, _ := json.Marshal(d)
		b.Write(line)
		b.WriteByte('\n')
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestDataFiles: --data_files points a task's splits at local files, with
// no YAML; the results record them; mistakes are named before the model
// loads.
func TestDataFiles(t *testing.T) {
	cutHub(t)
	dir := t.TempDir()
	test, train := filepath.Join(dir, "arc_test.jsonl"), filepath.Join(dir, "arc_train.jsonl")
	arcDocs(t, test, 5)
	arcDocs(t, train, 3)
	os.WriteFile(filepath.Join(dir, "x.xlsx"), []byte("PK"), 0o644)
	out := t.TempDir()
	_, err := runApp(t, "run", "--model", "dummy", "--tasks", "arc_easy", "--data_files", "arc_easy="+test,
		"--output_path", out, "--no_progress", "--bootstrap_iters", "0")
	if err != nil {
		t.Fatal(err)
	}
	res := readResults(t, out)
	if n, _ := res.NSamples.Get("arc_easy"); n.Effective != 5 {
		t.Errorf("n-samples %+v, want 5 documents", n)
	}
	cfg, _ := json.Marshal(res.Configs["arc_easy"])
	if !strings.Contains(string(cfg), `"dataset_path":"json"`) || !strings.Contains(string(cfg), `"data_files":{"test":["`+test+`"]}`) {
		t.Errorf("configs.arc_easy does not record the local files: %s", cfg)
	}

	// Few-shot examples come from the training split: a file for it too.
	absent := filepath.Join(t.TempDir(), "absent.gguf")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--data_files", "arc_easy=" + test, "--num_fewshot", "2"}, "--data_files arc_easy:train=PATH"},
		{[]string{"--data_files", "arc_eassy=" + test}, "--data_files: task arc_eassy is not evaluated in this run (tasks: arc_easy)"},
		{[]string{"--data_files", "arc_easy=" + filepath.Join(dir, "nothing*.jsonl")}, "no file matches"},
		{[]string{"--data_files", "arc_easy:test"}, "want TASK=PATH or TASK:SPLIT=PATH"},
		{[]string{"--data_files", "arc_easy=" + filepath.Join(dir, "x.xlsx")}, "not a data file"},
	} {
		_, err := runApp(t, append([]string{"run", "--model_args", "pretrained=" + absent, "--tasks", "arc_easy", "--no_progress"}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "absent.gguf") {
			t.Errorf("%v: got %v, want an error saying %q before the model loads", c.args, err, c.want)
		}
	}
	_, err = runApp(t, "run", "--model", "dummy", "--tasks", "arc_easy", "--data_files", "arc_easy="+test, "arc_easy:train="+train,
		"--num_fewshot", "2", "--no_progress", "--bootstrap_iters", "0")
	if err != nil {
		t.Errorf("with a training file: %v", err)
	}
}
