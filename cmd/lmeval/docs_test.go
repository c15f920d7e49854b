package main

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

const repoRoot = "../.."

// readmeSection is the text of a README section, from its heading to the
// next heading of the same level.
func readmeSection(t *testing.T, heading string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(data), "\n"+heading+"\n")
	if !ok {
		t.Fatalf("README.md: no section %q", heading)
	}
	if i := strings.Index(sec, "\n## "); i >= 0 {
		sec = sec[:i]
	}
	return sec
}

// TestREADMEEnvironmentTable: every environment variable lmeval's code
// reads (os.Getenv, os.LookupEnv, a flag's EnvVars) is in the README's
// table of environment variables.
func TestREADMEEnvironmentTable(t *testing.T) {
	// Variables of other programs that lmeval only passes on or sets,
	// documented where they matter.
	others := map[string]string{
		"XDG_CACHE_HOME": "the XDG base directory, in the HF_HOME row's default",
		"LP_NUM_THREADS": "Mesa lavapipe's, set when unset (docs/engine.md)",
	}
	read := regexp.MustCompile(`(?:Getenv|LookupEnv)\("([A-Z][A-Z0-9_]*)"\)|EnvVars:\s*\[\]string\{([^}]*)\}|Env[A-Za-z]* += "([A-Z][A-Z0-9_]*)"`)
	names := map[string]string{}
	err := filepath.WalkDir(repoRoot, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != repoRoot && (strings.HasPrefix(n, ".") || n == "build" || n == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range read.FindAllStringSubmatch(string(data), -1) {
			for _, g := range m[1:] {
				for _, n := range regexp.MustCompile(`[A-Z][A-Z0-9_]+`).FindAllString(g, -1) {
					names[n] = path
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(names) < 5 {
		t.Fatalf("found only %v: the pattern is wrong", names)
	}
	table := readmeSection(t, "## Environment variables")
	var missing []string
	for n, path := range names {
		if _, ok := others[n]; !ok && !strings.Contains(table, "| `"+n+"` |") {
			missing = append(missing, n+" ("+path+")")
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("README.md's environment table lacks %s", strings.Join(missing, ", "))
	}
}

// TestDocsIndex: docs/index.md links every document in docs/, and the
// README links the index.
func TestDocsIndex(t *testing.T) {
	index, err := os.ReadFile(filepath.Join(repoRoot, "docs", "index.md"))
	if err != nil {
		t.Fatalf("docs/ has no index: %v", err)
	}
	docs, _ := filepath.Glob(filepath.Join(repoRoot, "docs", "*.md"))
	for _, d := range docs {
		name := filepath.Base(d)
		if name != "index.md" && !strings.Contains(string(index), "("+name+")") && !strings.Contains(string(index), "("+name+"#") {
			t.Errorf("docs/index.md does not link %s", name)
		}
	}
	if readme, _ := os.ReadFile(filepath.Join(repoRoot, "README.md")); !strings.Contains(string(readme), "(docs/index.md)") {
		t.Error("README.md does not link docs/index.md")
	}
}

// TestREADMEQuickStart runs the README's self-contained example (its
// first code block after "self-contained example") in an empty
// directory with the binary built from this tree, and checks that the
// task it writes is short: a task of a few lines, as the README says.
func TestREADMEQuickStart(t *testing.T) {
	model := storiesPath(t)
	bin := buildBinary(t)
	sec := readmeSection(t, "## Quick start")
	_, rest, ok := strings.Cut(sec, "self-contained example")
	if !ok {
		t.Fatal("README.md's quick start has no self-contained example")
	}
	_, rest, _ = strings.Cut(rest, "```\n")
	script, _, _ := strings.Cut(rest, "```")
	// The task's YAML: the heredoc into a .yaml file.
	yaml := regexp.MustCompile(`(?s)> \S+\.yaml <<'EOF'\n(.*?)\nEOF`).FindStringSubmatch(script)
	if yaml == nil {
		t.Fatalf("the example writes no task YAML:\n%s", script)
	}
	if n := strings.Count(yaml[1], "\n") + 1; n > 8 {
		t.Errorf("the example's task is %d lines; the quick start promises a short one:\n%s", n, yaml[1])
	}
	dir := t.TempDir()
	if err := os.Symlink(bin, filepath.Join(dir, "lmeval")); err != nil {
		t.Fatal(err)
	}
	script = regexp.MustCompile(`(?m)^M=.*$`).ReplaceAllString(script, "M="+model)
	cmd := exec.Command("bash", "-euo", "pipefail", "-c", script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "LMEVAL_CACHE_DIR="+filepath.Join(dir, "cache"), "HF_HUB_OFFLINE=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the README's example failed: %v\n%s", err, out)
	}
	for _, want := range []string{"ok: stories_mc", "|stories_mc|", "acc"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the example's output lacks %q:\n%s", want, out)
		}
	}
}
