//go:build linux

package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"unicode/utf8"

	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal cols characters wide; what the child
// writes to tty is read from the returned function once it has exited.
func openPTY(t *testing.T, cols int) (tty *os.File, output func() string) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	t.Cleanup(func() { m.Close() })
	if err := unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(int(m.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	if err := unix.IoctlSetWinsize(int(m.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: 40, Col: uint16(cols)}); err != nil {
		t.Fatal(err)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	done := make(chan struct{})
	go func() { io.Copy(&buf, m); close(done) }()
	return s, func() string {
		s.Close()
		<-done
		return strings.ReplaceAll(buf.String(), "\r\n", "\n")
	}
}

// longTree writes tasks whose names and paths make lines far wider than a
// terminal.
func longTree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	deep := filepath.Join(dir, "a_directory_with_a_long_name", "and_another_one_below_it", "and_a_third_for_good_measure")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		name := fmt.Sprintf("a_task_whose_name_is_long_enough_to_matter_%d", i)
		yaml := "task: " + name + "\ntag: [a_tag_with_a_long_name, another_tag_with_a_long_name]\ndataset_path: json\n" +
			"dataset_kwargs:\n  data_files:\n    test: x.jsonl\ntest_split: test\ndoc_to_text: q\ndoc_to_target: a\noutput_type: generate_until\n"
		if err := os.WriteFile(filepath.Join(deep, name+".yaml"), []byte(yaml), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestLsTerminal: on a terminal, `ls tasks` fits its table to the
// terminal's width and shows its progress on stderr while it indexes;
// --wide, and output that is not a terminal, keep every line whole.
func TestLsTerminal(t *testing.T) {
	bin := buildBinary(t)
	dir := longTree(t)
	run := func(cols int, args ...string) (stdout, stderr string) {
		t.Helper()
		out, outText := openPTY(t, cols)
		errTTY, errText := openPTY(t, cols)
		cmd := exec.Command(bin, append([]string{"ls", "tasks", "--include_path", dir}, args...)...)
		cmd.Env = append(os.Environ(), "LMEVAL_CACHE_DIR="+t.TempDir())
		cmd.Stdout, cmd.Stderr = out, errTTY
		err := cmd.Run()
		stdout, stderr = outText(), errText()
		if err != nil {
			t.Fatalf("lmeval ls: %v\n%s%s", err, stdout, stderr)
		}
		return stdout, stderr
	}
	widest := func(s string) int {
		m := 0
		for _, l := range strings.Split(s, "\n") {
			m = max(m, utf8.RuneCountInString(l))
		}
		return m
	}
	out, errOut := run(100)
	if w := widest(out); w > 100 {
		t.Errorf("on a 100-column terminal, lines of %d characters:\n%s", w, out)
	}
	if !strings.Contains(out, "a_task_whose_name_is_long_enough_to_matter_3") || !strings.Contains(out, "…") {
		t.Errorf("want whole names, cut paths:\n%s", out)
	}
	if !strings.Contains(errOut, "indexing") || !strings.Contains(errOut, "checking") {
		t.Errorf("no progress on the terminal's stderr:\n%q", errOut)
	}
	wide, _ := run(100, "--wide")
	if w := widest(wide); w <= 100 || strings.Contains(wide, "…") {
		t.Errorf("--wide: lines cut to %d:\n%s", w, wide)
	}
	piped, err := exec.Command(bin, "ls", "tasks", "--include_path", dir).Output()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(piped), "…") || string(piped) != strings.TrimLeft(wide, "\n") {
		t.Errorf("piped output differs from --wide:\n%s\nwant\n%s", piped, wide)
	}
}
