package task

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/lmeval/lmeval/python/pyval"
)

// ExampleDivider precedes each document in write-out files, as lm-eval's
// scripts/write_out.py writes them.
const ExampleDivider = "!!@@##@@!! -- Example %d\n"

// WriteOut writes the prompts of a built task's first numExamples documents
// (all when numExamples <= 0) the way lm-eval's write_out.py does — the
// divider, then the prompt and a newline — followed by what the model is
// asked to score or produce: the target and the choices, and for
// multiple_input tasks the per-choice contexts.
func WriteOut(w io.Writer, t *Task, numExamples int) error {
	bw := bufio.NewWriter(w)
	for i, d := range t.Docs {
		if numExamples > 0 && i >= numExamples {
			break
		}
		fmt.Fprintf(bw, ExampleDivider, i)
		bw.WriteString(d.Context + "\n")
		fmt.Fprintf(bw, "!!@@##@@!! -- Target: %s\n", pyval.Repr(d.Target))
		if d.Choices != nil {
			fmt.Fprintf(bw, "!!@@##@@!! -- Choices: %s\n", pyval.Repr(d.Choices))
		}
		if d.Gold >= 0 || d.Golds != nil {
			if d.Golds != nil {
				fmt.Fprintf(bw, "!!@@##@@!! -- Gold: %v\n", d.Golds)
			} else {
				fmt.Fprintf(bw, "!!@@##@@!! -- Gold: %d\n", d.Gold)
			}
		}
		for j, c := range d.Contexts {
			fmt.Fprintf(bw, "!!@@##@@!! -- Context %d: %s\n", j, pyval.Repr(c))
		}
		if d.Cut > 0 {
			fmt.Fprintf(bw, "!!@@##@@!! -- Shots: %d of %d (cut to fit the context)\n", d.Shots, d.Shots+d.Cut)
		}
	}
	return bw.Flush()
}

// WriteOutDir writes one file per task, named after the task, into dir.
func WriteOutDir(dir string, tasks []*Task, numExamples int) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, t := range tasks {
		name := strings.ReplaceAll(t.Name, string(filepath.Separator), "_")
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			return err
		}
		err = WriteOut(f, t, numExamples)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("write-out %s: %w", t.Name, err)
		}
	}
	return nil
}
