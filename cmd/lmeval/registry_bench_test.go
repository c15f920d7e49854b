package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

var (
	corpusOnce  sync.Once
	corpusCache string
	corpusCold  map[string]time.Duration
)

// BenchmarkRegistryCorpus times the lmeval binary over lm-eval's whole task
// tree (../shared/lm-eval) with a warm registry cache: `ls tasks` and
// `validate --no_docs -t arc_easy`, each a fresh process. The cold runs,
// which build the cache, are reported as cold-s. `make bench` runs it.
func BenchmarkRegistryCorpus(b *testing.B) {
	tasksDir, err := filepath.Abs(filepath.Join("..", "..", "..", "shared", "lm-eval", "lm_eval", "tasks"))
	if err != nil {
		b.Fatal(err)
	}
	if _, err := os.Stat(tasksDir); err != nil {
		b.Skip("../shared/lm-eval not available")
	}
	bin := buildBinary(b)
	cmds := []struct {
		name string
		args []string
	}{
		{"ls_tasks", []string{"ls", "tasks", "--include_path", tasksDir}},
		{"validate_arc_easy", []string{"validate", "--no_docs", "--include_path", tasksDir, "-t", "arc_easy"}},
	}
	run := func(args []string) {
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), "LMEVAL_CACHE_DIR="+corpusCache)
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("lmeval %v: %v\n%s", args, err, out)
		}
	}
	corpusOnce.Do(func() {
		dir, err := os.MkdirTemp("", "lmeval-bench-cache-")
		if err != nil {
			b.Fatal(err)
		}
		corpusCache = dir
		corpusCold = map[string]time.Duration{}
		for _, c := range cmds {
			start := time.Now()
			run(c.args)
			corpusCold[c.name] = time.Since(start)
		}
	})
	for _, c := range cmds {
		b.Run(c.name, func(b *testing.B) {
			for range b.N {
				run(c.args)
			}
			b.ReportMetric(corpusCold[c.name].Seconds(), "cold-s")
		})
	}
}
