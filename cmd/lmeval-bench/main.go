// Command lmeval-bench measures the engine's end-to-end throughput against
// raw llama_decode on three workloads (multiple choice with shared
// contexts, rolling perplexity over a long text, batched greedy
// generation) for stories260K and a larger random-weight llama model, and
// prints a markdown table. `make bench` runs it; see docs/engine.md.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"math/rand"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strconv"
	"strings"
	"syscall"
	"time"

	"lmeval/engine"
	"lmeval/gguf"
	"lmeval/gguf/ggufwrite"
)

type config struct {
	threads, nBatch, questions, ctxToks, rollToks, maxLen, genReqs, genToks, rawToks, reps int
	profile                                                                                *os.File
	profiled                                                                               string
}

func main() {
	var (
		stories    = flag.String("stories", "../shared/models/stories260K.gguf", "stories260K GGUF (skipped when absent)")
		models     = flag.String("models", "", "extra GGUF files to bench, comma-separated")
		noRandom   = flag.Bool("no-random", false, "skip the generated random-weight model")
		randEmbd   = flag.Int("random-embd", 512, "n_embd of the random model")
		randLayers = flag.Int("random-layers", 8, "layers of the random model")
		randVocab  = flag.Int("random-vocab", 8000, "approximate vocabulary size of the random model")
		cpuProfile = flag.String("cpuprofile", "", "write a CPU profile of one workload's runs to this file")
		c          config
	)
	flag.IntVar(&c.questions, "mc", 48, "multiple-choice questions (4 choices each)")
	flag.IntVar(&c.ctxToks, "mc-tokens", 100, "tokens per multiple-choice context")
	flag.IntVar(&c.rollToks, "rolling", 4096, "approximate tokens of the rolling-perplexity text")
	flag.IntVar(&c.maxLen, "max-length", 512, "max_length (rolling window) for the rolling workload")
	flag.IntVar(&c.genReqs, "gen", 32, "generation requests")
	flag.IntVar(&c.genToks, "gen-tokens", 32, "tokens generated per request")
	flag.IntVar(&c.rawToks, "raw-tokens", 4096, "tokens decoded for each raw llama_decode baseline")
	flag.IntVar(&c.reps, "reps", 2, "repetitions of each measurement (the fastest counts)")
	flag.StringVar(&c.profiled, "profile-workload", "a", "workload the CPU profile covers: a, b or c")
	flag.IntVar(&c.threads, "threads", 0, "threads (0: all CPUs)")
	flag.IntVar(&c.nBatch, "n-batch", 512, "n_batch and n_ubatch")
	flag.Parse()
	log.SetFlags(0)

	var paths []string
	if _, err := os.Stat(*stories); err == nil {
		paths = append(paths, *stories)
	} else {
		log.Printf("skipping stories260K: %v", err)
	}
	if *models != "" {
		paths = append(paths, strings.Split(*models, ",")...)
	}
	if !*noRandom {
		dir, err := os.MkdirTemp("", "lmeval-bench")
		if err != nil {
			log.Fatal(err)
		}
		defer os.RemoveAll(dir)
		p := filepath.Join(dir, fmt.Sprintf("random-%dx%d.gguf", *randEmbd, *randLayers))
		if err := writeRandom(p, *randEmbd, *randLayers, *randVocab); err != nil {
			log.Fatal(err)
		}
		paths = append(paths, p)
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			log.Fatal(err)
		}
		defer f.Close()
		c.profile = f
	}

	fmt.Println("| model | workload | raw llama_decode tok/s | end-to-end tok/s | ratio | tokens decoded / requested | wall s | time in decode / scoring / Go |")
	fmt.Println("|---|---|---:|---:|---:|---:|---:|---:|")
	for _, p := range paths {
		if err := benchModel(p, &c); err != nil {
			log.Fatalf("%s: %v", p, err)
		}
	}
	if err := benchServe(paths, &c); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("\npeak RSS: %s\n", peakRSS())
	fmt.Println("tok/s are tokens per CPU second of the process (user+sys), the fastest of the repetitions: robust on a shared machine.")
}

// writeRandom writes a llama model with deterministic random F16 weights
// and an SPM vocabulary of English words plus random pieces.
func writeRandom(path string, embd, layers, vocab int) error {
	r := rand.New(rand.NewSource(1))
	words := append([]string(nil), wordList...)
	for len(words) < vocab/3 {
		b := make([]byte, 3+r.Intn(5))
		for i := range b {
			b[i] = byte('a' + r.Intn(26))
		}
		words = append(words, string(b))
	}
	ws := make([]string, len(words))
	for i, w := range words {
		ws[i] = "▁" + w
	}
	spec := ggufwrite.LlamaSpec{
		Vocab: ggufwrite.SPMVocab(ggufwrite.SPMPieces(ws...)), NEmbd: embd, NLayer: layers,
		NHead: max(embd/64, 1), NHeadKV: max(embd/64, 1), NFF: max(embd*8/3/64*64, 64), NCtx: 2048,
		Seed: 7, Type: gguf.F16, AddBOS: true, Name: fmt.Sprintf("random %dx%d F16", embd, layers),
	}
	return ggufwrite.WriteLlama(path, spec)
}

var wordList = strings.Fields(`the a little girl boy named lily tom ben sue mom dad dog cat bird ball park tree house
garden sun rain day night happy sad big small red blue green saw went ran played liked loved wanted said asked
found gave took made looked jumped smiled laughed cried and but so then when one once upon time there was were
is are they she he it her his their with to in on at of for up down into out very all every friend friends toy
box car book cake apple water flower sky home school shop farm sea fish hat door window bed table chair`)

func sentence(r *rand.Rand, n int) string {
	var sb strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(wordList[r.Intn(len(wordList))])
	}
	return sb.String()
}

// cpuTime is the process's user+sys time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// measure runs f reps times and returns the smallest CPU and wall times.
func measure(reps int, f func() error) (cpu, wall time.Duration, err error) {
	for i := 0; i < reps; i++ {
		c0, w0 := cpuTime(), time.Now()
		if err := f(); err != nil {
			return 0, 0, err
		}
		c, w := cpuTime()-c0, time.Since(w0)
		if i == 0 || c < cpu {
			cpu = c
		}
		if i == 0 || w < wall {
			wall = w
		}
	}
	return cpu, wall, nil
}

func benchModel(path string, c *config) error {
	opts := engine.Options{Threads: c.threads, NBatch: c.nBatch, NUBatch: c.nBatch}
	m, err := engine.Load(path, opts)
	if err != nil {
		return err
	}
	defer m.Close()
	opts.MaxLength = c.maxLen
	rm, err := engine.Load(path, opts)
	if err != nil {
		return err
	}
	defer rm.Close()
	name := filepath.Base(path)
	ctx := context.Background()
	r := rand.New(rand.NewSource(42))

	var mc []engine.LoglikelihoodRequest
	ctxLen := 0
	for q := 0; q < c.questions; q++ {
		// Words until the context has about c.ctxToks tokens.
		var cx string
		var toks []int32
		for words := 8; len(toks) < c.ctxToks; words += 4 {
			cx = "Question: " + sentence(rand.New(rand.NewSource(int64(q))), words) + "?\nAnswer:"
			toks, _ = m.Tokenize(cx, true, false)
		}
		ctxLen += len(toks)
		for k := 0; k < 4; k++ {
			mc = append(mc, engine.LoglikelihoodRequest{Context: cx, Continuation: " " + sentence(r, 2+k)})
		}
	}
	ctxLen /= max(c.questions, 1)
	text := sentence(r, c.rollToks*3/4)
	var gen []engine.GenerateRequest
	for i := 0; i < c.genReqs; i++ {
		gen = append(gen, engine.GenerateRequest{Context: sentence(r, 20+r.Intn(20)), MaxGenToks: c.genToks})
	}

	type work struct {
		name            string
		m               *engine.Model
		seqLen, batchLn int
		run             func() error
	}
	works := []work{
		{fmt.Sprintf("(a) multiple choice, %d×4, ~%d-token contexts", c.questions, ctxLen), m, ctxLen + 6, 0, func() error {
			_, err := m.Loglikelihood(ctx, mc)
			return err
		}},
		{fmt.Sprintf("(b) rolling, %d-token windows", c.maxLen), rm, c.maxLen, 0, func() error {
			_, err := rm.LoglikelihoodRolling(ctx, []string{text})
			return err
		}},
		{fmt.Sprintf("(c) greedy generation, %d×%d tokens", c.genReqs, c.genToks), m, 30 + c.genToks, c.genReqs, func() error {
			_, err := m.GenerateUntil(ctx, gen)
			return err
		}},
	}
	for i, w := range works {
		profiling := c.profile != nil && string(rune('a'+i)) == c.profiled
		if profiling {
			pprof.StartCPUProfile(c.profile)
		}
		before := w.m.Stats()
		w0 := time.Now()
		cpu, wall, err := measure(c.reps, w.run)
		wallTotal := time.Since(w0)
		if profiling {
			pprof.StopCPUProfile()
			c.profile = nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w", w.name, err)
		}
		after := w.m.Stats()
		reps := int64(c.reps)
		requested := (after.TokensRequested - before.TokensRequested) / reps
		decoded := (after.TokensDecoded - before.TokensDecoded) / reps
		if w.batchLn > 0 {
			// Generation: the work is every token decoded (prompts, then
			// one token per live sequence per step).
			requested = decoded
		}
		var raw float64
		if w.batchLn > 0 {
			raw, err = rawGenRate(ctx, w.m, c, gen)
		} else {
			raw, err = rawRate(ctx, w.m, c, w.seqLen, r)
		}
		if err != nil {
			return err
		}
		e2e := float64(requested) / cpu.Seconds()
		dec := (after.DecodeTime - before.DecodeTime) / time.Duration(reps)
		sc := (after.ScoreTime - before.ScoreTime) / time.Duration(reps)
		avgWall := wallTotal / time.Duration(reps)
		fmt.Printf("| %s | %s | %.0f | %.0f | %.2f | %d / %d | %.2f | %.0f%% / %.0f%% / %.0f%% |\n", name, w.name, raw, e2e, e2e/raw, decoded, requested, wall.Seconds(),
			100*dec.Seconds()/avgWall.Seconds(), 100*sc.Seconds()/avgWall.Seconds(), 100*(avgWall-dec-sc).Seconds()/avgWall.Seconds())
	}
	return nil
}

// rawRate measures raw llama_decode tokens per CPU second on random tokens
// in sequences of seqLen packed into full batches.
func rawRate(ctx context.Context, m *engine.Model, c *config, seqLen int, r *rand.Rand) (float64, error) {
	nv := m.Info().NVocab
	toks := make([]int32, c.rawToks)
	for i := range toks {
		toks[i] = int32(3 + r.Intn(nv-3))
	}
	n := 0
	cpu, _, err := measure(c.reps, func() error {
		d, _, err := m.RawDecode(ctx, toks, seqLen, 0)
		n = d
		return err
	})
	if err != nil {
		return 0, err
	}
	return float64(n) / cpu.Seconds(), nil
}

// rawGenRate measures raw llama_decode in generation's shape: the same
// prompts, then one token per sequence per step.
func rawGenRate(ctx context.Context, m *engine.Model, c *config, gen []engine.GenerateRequest) (float64, error) {
	var prompts [][]int32
	for _, g := range gen {
		toks, err := m.Tokenize(g.Context, true, false)
		if err != nil {
			return 0, err
		}
		prompts = append(prompts, toks)
	}
	n := 0
	cpu, _, err := measure(c.reps, func() error {
		d, _, err := m.RawGenerate(ctx, prompts, c.genToks-1)
		n = d
		return err
	})
	if err != nil {
		return 0, err
	}
	return float64(n) / cpu.Seconds(), nil
}

// peakRSS reads the process's peak resident set size (Linux).
func peakRSS() string {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "unknown"
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmHWM:" {
			kb, _ := strconv.Atoi(f[1])
			return fmt.Sprintf("%.1f MiB", float64(kb)/1024)
		}
	}
	return "unknown"
}
