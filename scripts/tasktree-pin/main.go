// Command tasktree-pin prints the pin (file count, bytes, content digest)
// of an lm-eval task tree, for harness/tasktree's Pinned when
// PinnedCommit changes:
//
//	git -C lm-evaluation-harness checkout COMMIT
//	go run ./scripts/tasktree-pin lm-evaluation-harness        # a checkout (or lm_eval/tasks itself)
//	go run ./scripts/tasktree-pin COMMIT.tar.gz                # GitHub's archive of the commit
//
// Both give the same digest for the same commit: only the content of the
// regular files under lm_eval/tasks counts.
package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/lmeval/lmeval/harness/tasktree"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: tasktree-pin DIR|ARCHIVE.tar.gz")
		os.Exit(2)
	}
	var (
		pin tasktree.Pin
		err error
	)
	if arg := os.Args[1]; strings.HasSuffix(arg, ".tar.gz") || strings.HasSuffix(arg, ".tgz") {
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
