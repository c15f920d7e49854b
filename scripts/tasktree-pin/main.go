// Command tasktree-pin prints the pin (file count, bytes, content digest)
// of an lm-eval task tree, for harness/tasktree's Pinned when
// PinnedCommit changes, and with -names writes the tree's task, group and
// tag names (tasktree.PinnedNames) to a gzipped file:
//
//	git -C lm-evaluation-harness checkout COMMIT
//	go run ./scripts/tasktree-pin lm-evaluation-harness        # a checkout (or lm_eval/tasks itself)
//	go run ./scripts/tasktree-pin COMMIT.tar.gz                # GitHub's archive of the commit
//	go run ./scripts/tasktree-pin -names harness/tasktree/pinned-names.txt.gz lm-evaluation-harness
//
// Both give the same digest for the same commit: only the content of the
// regular files under lm_eval/tasks counts.
package main

import (
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/harness/tasktree"
)

func main() {
	names := flag.String("names", "", "write the tree's names, one a line, gzipped, to this file")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: tasktree-pin [-names FILE.txt.gz] DIR|ARCHIVE.tar.gz")
		os.Exit(2)
	}
	arg := flag.Arg(0)
	if *names != "" {
		if err := writeNames(*names, arg); err != nil {
			fmt.Fprintln(os.Stderr, "tasktree-pin:", err)
			os.Exit(1)
		}
		return
	}
	var (
		pin tasktree.Pin
		err error
	)
	if strings.HasSuffix(arg, ".tar.gz") || strings.HasSuffix(arg, ".tgz") {
		pin, err = tasktree.ArchiveDigest(arg)
	} else {
		var src *tasktree.Source
		if src, err = tasktree.Parse(arg); err == nil {
			pin, err = tasktree.Digest(os.DirFS(src.Dir))
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "tasktree-pin:", err)
		os.Exit(1)
	}
	fmt.Printf("Files:  %d,\nBytes:  %d,\nSHA256: %q,\n", pin.Files, pin.Bytes, pin.SHA256)
}

// writeNames indexes the tree in dir as lmeval does and writes every name
// it defines.
func writeNames(out, dir string) error {
	src, err := tasktree.Parse(dir)
	if err != nil {
		return err
	}
	if src.Dir == "" {
		return fmt.Errorf("-names needs a directory, not %s", dir)
	}
	r := task.NewRegistry()
	if err := r.AddDir(src.Dir); err != nil {
		return err
	}
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	zw.Write([]byte(strings.Join(r.All(), "\n") + "\n"))
	if err := zw.Close(); err != nil {
		return err
	}
	return os.WriteFile(out, b.Bytes(), 0o644)
}
