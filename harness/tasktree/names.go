package tasktree

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"io"
	"path"
	"strings"
	"sync"
)

//go:embed pinned-names.txt.gz
var pinnedNamesGz []byte

// PinnedNames are the task, group and tag names lm-eval's task tree at
// PinnedCommit defines, as lmeval indexes it, sorted: so that a run can
// tell, before downloading the tree, whether it has a name. scripts/
// tasktree-pin -names writes them when PinnedCommit changes.
var PinnedNames = sync.OnceValue(func() []string {
	zr, err := gzip.NewReader(bytes.NewReader(pinnedNamesGz))
	if err != nil {
		panic("tasktree: pinned-names.txt.gz: " + err.Error())
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		panic("tasktree: pinned-names.txt.gz: " + err.Error())
	}
	return strings.Fields(string(b))
})

// PinnedHas reports whether the tree at PinnedCommit has name, or a name
// the wildcard pattern matches.
func PinnedHas(pattern string) bool {
	for _, n := range PinnedNames() {
		if n == pattern {
			return true
		}
		if strings.ContainsAny(pattern, "*?[") {
			if ok, _ := path.Match(pattern, n); ok {
				return true
			}
		}
	}
	return false
}

// None is the --tasks_source (or LMEVAL_TASKS_SOURCE) that turns lm-eval's
// task tree off: only the built-in tasks and the include paths are used,
// and nothing is downloaded.
const None = "none"
