package shard_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lmeval/lmeval/backend/dummy"
	"github.com/lmeval/lmeval/harness/config"
)

// BenchmarkMerge100k measures lmeval merge on 100,000 documents (a
// two-choice task: 200,000 log-likelihood answers in 4 shard files, with
// samples): reading and checking the shard files, building the run again,
// replaying the answers, scoring, aggregating with bootstrap stderrs and
// writing the samples files. BenchmarkEvaluate100k is the same run
// unsharded with the dummy model, for scale: a merge costs what
// evaluating the documents costs without a model.
func BenchmarkMerge100k(b *testing.B) {
	for _, samples := range []bool{true, false} {
		b.Run(fmt.Sprint("samples=", samples), func(b *testing.B) { benchMerge(b, samples) })
	}
}

func benchMerge(b *testing.B, samples bool) {
	e, dir := bench100k(b, samples)
	var paths []string
	for i := range 4 {
		paths = append(paths, e.runShard(i, 4, filepath.Join(dir, "shards")))
	}
	b.ResetTimer()
	cpu := cpuTime()
	for n := range b.N {
		if _, err := e.merge(paths, filepath.Join(dir, fmt.Sprint("merged", n))); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((cpuTime()-cpu).Seconds()/float64(b.N), "cpu-s/op")
}

func BenchmarkEvaluate100k(b *testing.B) {
	for _, samples := range []bool{true, false} {
		b.Run(fmt.Sprint("samples=", samples), func(b *testing.B) { benchEvaluate(b, samples) })
	}
}

func benchEvaluate(b *testing.B, samples bool) {
	e, dir := bench100k(b, samples)
	b.ResetTimer()
	cpu := cpuTime()
	for n := range b.N {
		e.evaluate(filepath.Join(dir, fmt.Sprint("unsharded", n)))
	}
	b.ReportMetric((cpuTime()-cpu).Seconds()/float64(b.N), "cpu-s/op")
}

// cpuTime is the process's CPU time so far (user and system): the
// benchmark's machine may be shared, which inflates wall times only.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// bench100k writes the 100,000-document task and returns its env.
func bench100k(b *testing.B, samples bool) (*env, string) {
	dir := b.TempDir()
	var sb strings.Builder
	for i := range 100000 {
		d := map[string]any{"q": fmt.Sprintf("Is %d even?", i), "choices": []string{"yes", "no"}, "label": i % 2}
		js, _ := json.Marshal(d)
		sb.Write(js)
		sb.WriteByte('\n')
	}
	data := filepath.Join(dir, "docs.jsonl")
	if err := os.WriteFile(data, []byte(sb.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	yaml := fmt.Sprintf(`task: even
dataset_path: json
dataset_kwargs:
  data_files:
    test: %s
test_split: test
output_type: multiple_choice
doc_to_text: "{{q}}"
doc_to_choice: "{{choices}}"
doc_to_target: label
metric_list:
  - metric: acc
  - metric: acc_norm
`, data)
	tasks := filepath.Join(dir, "tasks")
	os.MkdirAll(tasks, 0o755)
	if err := os.WriteFile(filepath.Join(tasks, "even.yaml"), []byte(yaml), 0o644); err != nil {
		b.Fatal(err)
	}
	lm, _ := dummy.New(nil)
	e := &env{t: b, lm: lm, layers: []config.Layer{{Source: "bench", Flags: true, Values: map[string]any{
		"model": "dummy", "tasks": []string{"even"}, "include_path": []string{tasks},
		"log_samples": fmt.Sprint(samples), "output_path": "unused", "bootstrap_iters": "1000",
	}}}}
	reg, err := newRegistry(e.config())
	if err != nil {
		b.Fatal(err)
	}
	e.reg = reg
	return e, dir
}
