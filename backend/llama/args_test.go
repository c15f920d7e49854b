package llama

import (
	"os"
	"regexp"
	"strings"
	"testing"
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
