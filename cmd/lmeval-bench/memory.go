package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/lmeval/lmeval/engine"
	"github.com/lmeval/lmeval/internal/units"
)

// The per-run memory check: every workload (and a one-question run, the
// smallest a user starts) runs once more in a process of its own, so its
// peak RSS is its own, and is held against the model's file, plus the KV
// cache it ended up using (n_ctx x KV bytes per cell), plus memSlack: the
// compute buffer, the logits and the Go side must fit in that.
var (
	memCheck   = flag.Bool("mem", true, "measure each workload's peak RSS in a process of its own against the model + the KV cache used + 300 MiB")
	childWork  = flag.String("child", "", "internal: run one workload (a, a1, b, c) in this process and print its memory as JSON")
	childModel = flag.String("child-model", "", "internal: the model of -child")
	childCache = flag.String("child-cache", "", "internal: the cache size of -child")
)

const memSlack = 300 << 20

// memReport is what a child run prints.
type memReport struct {
	PeakRSS    int64 `json:"peak_rss"`
	ModelBytes int64 `json:"model_bytes"`
	NCtx       int   `json:"n_ctx"`
	KVBytes    int64 `json:"kv_bytes"`
}

// runChild loads the model once, runs one workload and prints a memReport.
func runChild(c *config) error {
	st := setup{cache: *childCache}
	opts, err := st.options(c)
	if err != nil {
		return err
	}
	if *childWork == "b" {
		opts.MaxLength = c.maxLen
	}
	m, err := engine.Load(*childModel, opts)
	if err != nil {
		return err
	}
	defer m.Close()
	wl := makeWorkloads(m, c)
	ctx := context.Background()
	switch *childWork {
	case "a":
		_, err = m.Loglikelihood(ctx, wl.mc)
	case "a1":
		_, err = m.Loglikelihood(ctx, wl.mc[:min(4, len(wl.mc))])
	case "b":
		_, err = m.LoglikelihoodRolling(ctx, []string{wl.text})
	case "c":
		_, err = m.GenerateUntil(ctx, wl.gen)
	default:
		err = fmt.Errorf("-child %q: want a, a1, b or c", *childWork)
	}
	if err != nil {
		return err
	}
	fi, err := os.Stat(*childModel)
	if err != nil {
		return err
	}
	in := m.Settings()
	return json.NewEncoder(os.Stdout).Encode(memReport{
		PeakRSS: peakRSSBytes(), ModelBytes: fi.Size(), NCtx: in.NCtx, KVBytes: int64(in.NCtx) * in.KVBytesPerToken,
	})
}

// memoryCheck runs every workload of the model at every cache size in a
// child process and prints a table of their peak RSS against the bound.
func memoryCheck(path string, c *config) error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	name := filepath.Base(path)
	works := []struct{ key, what string }{
		{"a1", "(a1) one question, 4 choices"},
		{"a", "(a) multiple choice"},
		{"b", "(b) rolling"},
		{"c", "(c) greedy generation"},
	}
	for _, cache := range c.caches {
		cache = strings.TrimSpace(cache)
		for _, w := range works {
			if !c.runs(w.key[:1]) {
				continue
			}
			args := append(append([]string(nil), os.Args[1:]...), "-child", w.key, "-child-model", path, "-child-cache", cache)
			out, err := exec.Command(exe, args...).Output()
			if err != nil {
				return fmt.Errorf("memory check of %s %s at %s: %w", name, w.what, cache, err)
			}
			var r memReport
			if err := json.Unmarshal(lastJSONLine(out), &r); err != nil {
				return fmt.Errorf("memory check of %s %s at %s: %w (%q)", name, w.what, cache, err, out)
			}
			bound := r.ModelBytes + r.KVBytes + memSlack
			verdict := "within"
			if r.PeakRSS > bound {
				verdict = "OVER"
				c.memOver++
			}
			c.memRows = append(c.memRows, fmt.Sprintf("| %s | %s | %s | %d | %s | %s | %s | %s | %s |", name, cache, w.what, r.NCtx,
				units.Bytes(r.ModelBytes), units.Bytes(r.KVBytes), units.Bytes(r.PeakRSS), units.Bytes(bound), verdict))
		}
	}
	return nil
}

// printMemory prints the memory table and its verdict.
func printMemory(c *config) {
	if len(c.memRows) == 0 {
		return
	}
	fmt.Println("\nPer-run peak memory (each workload alone in a fresh process):")
	fmt.Println()
	fmt.Println("| model | cache | workload | n_ctx used | model file | KV cache used | peak RSS | model + KV + 300 MiB | |")
	fmt.Println("|---|---|---|---:|---:|---:|---:|---:|---|")
	for _, r := range c.memRows {
		fmt.Println(r)
	}
	if c.memOver == 0 {
		c.summary = append(c.summary, fmt.Sprintf("memory: all %d runs within the model + the KV cache used + 300 MiB", len(c.memRows)))
	} else {
		c.summary = append(c.summary, fmt.Sprintf("memory: %d of %d runs OVER the model + the KV cache used + 300 MiB", c.memOver, len(c.memRows)))
	}
}

func lastJSONLine(b []byte) []byte {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return []byte(lines[len(lines)-1])
}

// peakRSSBytes is the process's peak resident set size (Linux; 0 elsewhere).
func peakRSSBytes() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmHWM:" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb << 10
		}
	}
	return 0
}
