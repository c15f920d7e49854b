//go:build ignore

// gen writes the documents of the sharding tests' tasks (tasks/*.yaml):
// deterministic text of varied lengths, so that shards differ in size and
// some prompts exceed a small model's context.
//
//	go run harness/testdata/shard/gen.go
//
// -scale N writes N times as many documents (the measurement of
// scripts/scale/measure.sh), -out DIR elsewhere than data/.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

var words = strings.Fields(`once upon a time there was a little girl named lily she liked to play
outside with her dog max one day they went to the park and saw a big red ball the sun was warm and
the sky was blue tom was her friend he had a small boat they sailed it on the pond a bird sang in
the tree mom called them home for dinner they ate soup and bread then they went to sleep happy`)

func text(r *rand.Rand, n int) string {
	out := make([]string, n)
	for i := range out {
		out[i] = words[r.IntN(len(words))]
	}
	s := strings.Join(out, " ")
	return strings.ToUpper(s[:1]) + s[1:] + "."
}

var (
	scale = flag.Int("scale", 1, "documents, as a multiple of the tests'")
	out   = flag.String("out", "", "directory of the data files (default: data/ beside gen.go)")
)

func write(name string, docs []map[string]any) {
	dir := *out
	if dir == "" {
		_, file, _, _ := runtime.Caller(0)
		dir = filepath.Join(filepath.Dir(file), "data")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		panic(err)
	}
	var b strings.Builder
	for _, d := range docs {
		js, err := json.Marshal(d)
		if err != nil {
			panic(err)
		}
		b.Write(js)
		b.WriteByte('\n')
	}
	if err := os.WriteFile(filepath.Join(dir, name), []byte(b.String()), 0o644); err != nil {
		panic(err)
	}
}

func main() {
	flag.Parse()
	r := rand.New(rand.NewPCG(27, 1))
	var mc []map[string]any
	for i := range 80 * *scale {
		// Mostly short questions, a few long ones: costs differ by 50x.
		n := 4 + r.IntN(30)
		if i%13 == 0 {
			n = 150 + r.IntN(150)
		}
		choices := make([]string, 4)
		for j := range choices {
			choices[j] = text(r, 1+r.IntN(6))
		}
		mc = append(mc, map[string]any{"question": text(r, n), "choices": choices, "label": r.IntN(4)})
	}
	write("mc.jsonl", mc)
	var gen []map[string]any
	for range 24 * *scale {
		gen = append(gen, map[string]any{"prompt": text(r, 3+r.IntN(40)), "answer": words[r.IntN(len(words))]})
	}
	write("gen.jsonl", gen)
	var ppl []map[string]any
	for range 16 * *scale {
		ppl = append(ppl, map[string]any{"text": text(r, 10+r.IntN(250))})
	}
	write("ppl.jsonl", ppl)
	fmt.Println("wrote mc.jsonl, gen.jsonl, ppl.jsonl")
}
