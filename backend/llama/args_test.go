package llama

import (
	"context"
	"log/slog"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/lmeval/lmeval/harness/model"
)

// docModelArgs reads the model_args table of a markdown section: the
// names in the key column (col, from 0; parenthesised value lists left
// out, "(or `alias`)" kept, "name=value" read as name), and the text of
// the section (table and notes).
func docModelArgs(t *testing.T, path, heading string, col int) (keys []string, section string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(data), "\n"+heading+"\n")
	if !ok {
		t.Fatalf("%s: no section %q", path, heading)
	}
	if i := strings.Index(sec, "\n#"); i >= 0 {
		sec = sec[:i]
	}
	values := regexp.MustCompile(`\((?:[^o(]|o[^r])[^)]*\)`)
	name := regexp.MustCompile("`([a-z_]+)(?:=[^`]*)?`")
	for _, line := range strings.Split(sec, "\n") {
		cells := strings.Split(line, " | ")
		if !strings.HasPrefix(line, "| ") || len(cells) <= col || strings.HasPrefix(line, "|---") {
			continue
		}
		cell := strings.TrimPrefix(cells[col], "| ")
		for _, m := range name.FindAllStringSubmatch(values.ReplaceAllString(cell, ""), -1) {
			keys = append(keys, m[1])
		}
	}
	return keys, sec
}

// TestModelArgsDocs checks the README's and docs/engine.md's model_args
// tables against the table of model_args: every name in a key column is an
// argument, and every argument is documented (named in the table, or in
// the notes for the ignored ones).
func TestModelArgsDocs(t *testing.T) {
	for _, d := range []struct {
		path, heading string
		col           int
	}{
		{"../../README.md", "## Model arguments of the llama backend", 0},
		{"../../docs/engine.md", "### Options (and the `llama` backend's model_args)", 1},
	} {
		keys, sec := docModelArgs(t, d.path, d.heading, d.col)
		if len(keys) == 0 {
			t.Fatalf("%s: no model_args table", d.path)
		}
		for _, k := range keys {
			if _, ok := argsByName[k]; !ok {
				t.Errorf("%s: model_arg %q is not an argument of the llama backend", d.path, k)
			}
		}
		for _, n := range argNames {
			if !regexp.MustCompile("`" + n + "(=[^`]*)?`").MatchString(sec) {
				t.Errorf("%s: model_arg %s is not documented", d.path, n)
			}
		}
	}
}

// TestModelArgsTable checks that no name is given twice.
func TestModelArgsTable(t *testing.T) {
	if len(argsByName) != len(argNames) {
		t.Errorf("%d names for %d arguments: one is given twice", len(argNames), len(argsByName))
	}
	for _, a := range modelArgs {
		if a.ignored && a.set != nil {
			t.Errorf("%s: an ignored argument sets nothing", a.names[0])
		}
	}
}

// TestModelArgRanges: a model_arg that cannot work is refused, naming the
// argument, its value and the values allowed, before anything loads.
func TestModelArgRanges(t *testing.T) {
	for _, c := range []struct{ arg, want string }{
		{"n_ctx=-5", "model_args: n_ctx=-5: want an integer from 1 up"},
		{"n_ctx=0", "model_args: n_ctx=0: want an integer from 1 up"},
		{"n_ctx=banana", "model_args: n_ctx=banana: not an integer; want an integer from 1 up"},
		{"max_length=0", "model_args: max_length=0: want an integer from 1 up"},
		{"n_batch=0", "model_args: n_batch=0: want an integer from 1 up"},
		{"n_ubatch=-1", "model_args: n_ubatch=-1: want an integer from 1 up"},
		{"n_seq_max=0", "model_args: n_seq_max=0: want an integer from 1 to 256"},
		{"n_seq_max=300", "model_args: n_seq_max=300: want an integer from 1 to 256"},
		{"threads=0", "model_args: threads=0: want an integer from 1 up"},
		{"n_threads=-2", "model_args: n_threads=-2: want an integer from 1 up"},
		{"n_gpu_layers=-2", "model_args: n_gpu_layers=-2: want an integer from -1 up (-1: all layers, 0: none)"},
		{"main_gpu=-1", "model_args: main_gpu=-1: want an integer from 0 up"},
		{"max_batch_size=0", "model_args: max_batch_size=0: want an integer from 1 to 256"},
		{"prefix_token_id=-3", "model_args: prefix_token_id=-3: want an integer from 0 up"},
		{"seed=x", "model_args: seed=x: not an integer"},
		{"tensor_split=1/-1", "model_args: tensor_split=1/-1: want non-negative proportions such as 3/1"},
	} {
		k, v, _ := strings.Cut(c.arg, "=")
		_, err := EngineOptions(map[string]string{k: v})
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.arg, err, c.want)
		}
	}
	for _, ok := range []string{"n_ctx=8", "n_gpu_layers=-1", "n_gpu_layers=0", "main_gpu=0", "n_seq_max=256", "threads=1", "seed=-7", "tensor_split=3/1"} {
		k, v, _ := strings.Cut(ok, "=")
		if _, err := EngineOptions(map[string]string{k: v}); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
}

// TestRaisedModelArgsSaid: a model_arg llama.cpp does not take as given
// (n_ctx 8 becomes 256, the KV cache being padded to a multiple of 256) is
// said on stderr, with the value asked for and the value used.
func TestRaisedModelArgsSaid(t *testing.T) {
	path := "../../../shared/models/stories260K.gguf"
	if _, err := os.Stat(path); err != nil {
		t.Skip("../shared/models/stories260K.gguf not available")
	}
	var logs strings.Builder
	defer slog.SetDefault(slog.Default())
	slog.SetDefault(slog.New(slog.NewTextHandler(&logs, nil)))
	lm, err := New(context.Background(), model.Args{"pretrained": path, "n_ctx": "8", "max_length": "8"})
	if err != nil {
		t.Fatal(err)
	}
	defer lm.(model.Closer).Close()
	got := lm.(*LM).Model().Settings().NCtx
	if got == 8 {
		t.Skip("this llama.cpp takes n_ctx 8 as given")
	}
	var line string
	for _, l := range strings.Split(logs.String(), "\n") {
		if strings.Contains(l, "n_ctx") && strings.Contains(l, "level=WARN") {
			line = l
		}
	}
	for _, w := range []string{"arg=n_ctx", "asked=8", "used=" + strconv.Itoa(got)} {
		if !strings.Contains(line, w) {
			t.Errorf("no warning with %q that n_ctx 8 became %d:\n%s", w, got, logs.String())
		}
	}
	// Arguments taken as given say nothing.
	logs.Reset()
	lm2, err := New(context.Background(), model.Args{"pretrained": path, "n_ctx": "512"})
	if err != nil {
		t.Fatal(err)
	}
	defer lm2.(model.Closer).Close()
	if strings.Contains(logs.String(), "level=WARN") {
		t.Errorf("warned about arguments taken as given:\n%s", logs.String())
	}
}
