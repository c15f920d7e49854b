// Command lmeval-bench measures the engine's end-to-end throughput against
// raw llama_decode on three workloads (multiple choice with shared
// contexts, rolling perplexity over a long text, batched greedy
// generation) for stories260K and a larger random-weight llama model, and
// prints a markdown table. `make bench` runs it; see docs/engine.md.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/lmeval/lmeval/engine"
	"github.com/lmeval/lmeval/gguf"
	"github.com/lmeval/lmeval/gguf/ggufwrite"
	"github.com/lmeval/lmeval/internal/units"
)

type config struct {
	threads, nBatch, questions, ctxToks, endingWords, rollToks, maxLen, genReqs, genToks, genPrompt, rawToks, reps int
	profile                                                                                                        *os.File
	profiled, flashAttn, workloads                                                                                 string
	caches                                                                                                         []string
	cpuToo                                                                                                         bool
	peer                                                                                                           string
	summary, memRows                                                                                               []string
	memOver                                                                                                        int
}

// runs reports whether workload key (a, b or c) is among -workloads.
func (c *config) runs(key string) bool {
	for _, k := range strings.Split(c.workloads, ",") {
		if strings.TrimSpace(k) == key {
			return true
		}
	}
	return false
}

func main() {
	var (
		stories    = flag.String("stories", "../shared/models/stories260K.gguf", "stories260K GGUF (skipped when absent; \"\" leaves it out)")
		models     = flag.String("models", "", "extra GGUF files to bench, comma-separated")
		noRandom   = flag.Bool("no-random", false, "skip the generated random-weight model")
		randEmbd   = flag.Int("random-embd", 768, "n_embd of the random model (12 heads of 64 at 768)")
		randLayers = flag.Int("random-layers", 12, "layers of the random model")
		randFF     = flag.Int("random-ff", 2048, "n_ff of the random model")
		randKV     = flag.Int("random-kv-heads", 0, "KV heads of the random model (0: as many as query heads, 64 wide each)")
		writeDir   = flag.String("write-models", "", "write the random model (the -random-* shape, -vocab's tokenizer) as F16 and Q4_K_M GGUF files into this directory, print their paths and exit")
		randVocab  = flag.Int("random-vocab", 8000, "approximate vocabulary size of the random model when -vocab is absent")
		vocabFile  = flag.String("vocab", "../shared/models/vocab/ggml-vocab-llama-spm.gguf", "GGUF whose tokenizer the random model takes (Llama's 32,000 tokens); the word-list vocabulary when absent")
		caches     = flag.String("caches", "auto,4096", "cache sizes to run every workload at: auto (--batch_size auto) and/or n_ctx values")
		peerDir    = flag.String("peer", "../shared/peer-llama.cpp", "directory with llama.cpp's llama-perplexity and llama-batched-bench for the side-by-side (skipped when absent)")
		compareCPU = flag.Bool("compare-cpu", false, "on a GPU build, run every workload also with n_gpu_layers=0")
		cpuProfile = flag.String("cpuprofile", "", "write a CPU profile of one workload's runs to this file")
		writeModel = flag.String("write-model", "", "write the random model (as -random-* and -vocab give it) to this path and exit: make parity's F16 model")
		c          config
	)
	flag.IntVar(&c.questions, "mc", 60, "multiple-choice questions (4 choices each)")
	flag.IntVar(&c.ctxToks, "mc-tokens", 100, "tokens per multiple-choice context")
	flag.IntVar(&c.endingWords, "mc-ending-words", 0, "words per multiple-choice ending (0: 2 to 5, one more per choice)")
	flag.IntVar(&c.rollToks, "rolling", 4096, "approximate tokens of the rolling-perplexity text")
	flag.IntVar(&c.maxLen, "max-length", 512, "max_length (rolling window) for the rolling workload")
	flag.IntVar(&c.genReqs, "gen", 64, "generation requests")
	flag.IntVar(&c.genPrompt, "gen-prompt", 164, "approximate prompt tokens of each generation request")
	flag.IntVar(&c.genToks, "gen-tokens", 32, "tokens generated per request")
	flag.IntVar(&c.rawToks, "raw-tokens", 4096, "tokens decoded for each raw llama_decode baseline")
	flag.IntVar(&c.reps, "reps", 1, "repetitions of each measurement (the fastest counts)")
	flag.StringVar(&c.profiled, "profile-workload", "a", "workload the CPU profile covers: a, b or c")
	flag.IntVar(&c.threads, "threads", 0, "threads (0: all CPUs)")
	flag.IntVar(&c.nBatch, "n-batch", 512, "n_batch and n_ubatch")
	flag.StringVar(&c.flashAttn, "flash-attn", "auto", "flash_attn: auto, on or off")
	flag.StringVar(&c.workloads, "workloads", "a,b,c", "workloads to run: a (multiple choice), b (rolling), c (generation)")
	flag.Parse()
	log.SetFlags(0)
	if *childWork != "" {
		if err := runChild(&c); err != nil {
			log.Fatal(err)
		}
		return
	}
	if *writeDir != "" {
		if err := writeModels(*writeDir, randomShape(*randEmbd, *randLayers, *randFF, *randKV), *randVocab, *vocabFile, c.threads); err != nil {
			log.Fatal(err)
		}
		return
	}

	if *writeModel != "" {
		if err := writeRandom(*writeModel, randomShape(*randEmbd, *randLayers, *randFF, *randKV), gguf.F16, *randVocab, *vocabFile); err != nil {
			log.Fatal(err)
		}
		return
	}
	var paths []string
	// -stories "" leaves it out on purpose (the device pack's benches).
	if _, err := os.Stat(*stories); err == nil {
		paths = append(paths, *stories)
	} else if *stories != "" {
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
		if err := writeRandom(p, randomShape(*randEmbd, *randLayers, *randFF, *randKV), gguf.F16, *randVocab, *vocabFile); err != nil {
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

	c.caches = strings.Split(*caches, ",")
	c.cpuToo = *compareCPU
	if _, err := os.Stat(filepath.Join(*peerDir, "llama-perplexity")); err == nil {
		c.peer = *peerDir
	} else {
		log.Printf("no llama.cpp peer tools in %s: the side-by-side is skipped", *peerDir)
	}
	fmt.Printf("engine: %s, devices: %s\n\n", engine.LlamaCppCommit, deviceList())
	fmt.Println("| model | cache (n_ctx used) | device | workload | raw llama_decode tok/s | end-to-end tok/s | ratio | tokens decoded / requested | wall s | time in decode / scoring / Go | device memory used |")
	fmt.Println("|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|")
	for _, p := range paths {
		if err := benchModel(p, &c); err != nil {
			log.Fatalf("%s: %v", p, err)
		}
		if *memCheck {
			if err := memoryCheck(p, &c); err != nil {
				log.Fatal(err)
			}
		}
	}
	if err := benchServe(paths, &c); err != nil {
		log.Fatal(err)
	}
	printMemory(&c)
	fmt.Printf("\npeak RSS of this process: %s\n", units.Bytes(peakRSSBytes()))
	fmt.Println("tok/s are tokens per CPU second of the process (user+sys) on the CPU, robust on a shared machine, and per wall second on a GPU (whose work is not the process's CPU time); the fastest of the repetitions; wall s is the fastest wall time. Device memory used: the GPU's free memory before loading the model less after the workload (ggml's CUDA pool only grows, so this is the peak); - on the CPU.")
	if len(c.summary) > 0 {
		fmt.Println()
		for _, l := range c.summary {
			fmt.Println(l)
		}
	}
}

// shape is a llama model's size.
type shape struct{ embd, layers, ff, heads, kvHeads int }

// randomShape is the random model's shape: heads 64 wide, kvHeads of them
// for keys and values (0: all).
func randomShape(embd, layers, ff, kvHeads int) shape {
	heads := max(embd/64, 1)
	if kvHeads <= 0 {
		kvHeads = heads
	}
	return shape{embd: embd, layers: layers, ff: ff, heads: heads, kvHeads: kvHeads}
}

// writeRandom writes a llama model of the shape with deterministic random
// weights of type typ. Its vocabulary is the tokenizer of vocabFile
// (Llama's 32,000 SPM tokens) when that exists, else SPM pieces of English
// words plus random ones.
func writeRandom(path string, sh shape, typ gguf.TensorType, vocab int, vocabFile string) error {
	v, err := vocabFrom(vocabFile)
	if err != nil {
		log.Printf("random model: %v; using the word-list vocabulary", err)
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
		v = ggufwrite.SPMVocab(ggufwrite.SPMPieces(ws...))
	}
	spec := ggufwrite.LlamaSpec{
		Vocab: v, NEmbd: sh.embd, NLayer: sh.layers,
		NHead: sh.heads, NHeadKV: sh.kvHeads, NFF: sh.ff, NCtx: 2048,
		Seed: 7, Type: typ, AddBOS: true, Name: fmt.Sprintf("random %dx%d %v", sh.embd, sh.layers, typ),
		ChatTemplate: llama2ChatTemplate,
	}
	return ggufwrite.WriteLlama(path, spec)
}

// llama2ChatTemplate is Llama 2 chat's template (tokenizer_config.json of
// Llama-2-7b-chat-hf): it writes bos_token itself, so a run with
// --apply_chat_template must not add a second BOS (make parity checks it
// against lm-eval's Hugging Face backend).
const llama2ChatTemplate = "{% if messages[0]['role'] == 'system' %}{% set loop_messages = messages[1:] %}{% set system_message = messages[0]['content'] %}{% else %}{% set loop_messages = messages %}{% set system_message = false %}{% endif %}" +
	"{% for message in loop_messages %}{% if (message['role'] == 'user') != (loop.index0 % 2 == 0) %}{{ raise_exception('Conversation roles must alternate user/assistant/user/assistant/...') }}{% endif %}" +
	"{% if loop.index0 == 0 and system_message != false %}{% set content = '<<SYS>>\\n' + system_message + '\\n<</SYS>>\\n\\n' + message['content'] %}{% else %}{% set content = message['content'] %}{% endif %}" +
	"{% if message['role'] == 'user' %}{{ bos_token + '[INST] ' + content.strip() + ' [/INST]' }}{% elif message['role'] == 'assistant' %}{{ ' '  + content.strip() + ' ' + eos_token }}{% endif %}{% endfor %}"

// vocabFrom reads an SPM tokenizer (tokens, scores, types, special ids)
// from a GGUF file.
func vocabFrom(path string) (ggufwrite.Vocab, error) {
	var v ggufwrite.Vocab
	gf, err := gguf.Open(path)
	if err != nil {
		return v, err
	}
	if m, _ := gf.String("tokenizer.ggml.model"); m != "llama" {
		return v, fmt.Errorf("%s: tokenizer %q, want an SPM (llama) one", path, m)
	}
	arr := func(key string) []any {
		if x, ok := gf.Lookup(key); ok && x.Type == gguf.TypeArray {
			a, _ := x.Data.([]any)
			return a
		}
		return nil
	}
	toks, scores, types := arr("tokenizer.ggml.tokens"), arr("tokenizer.ggml.scores"), arr("tokenizer.ggml.token_type")
	if len(toks) == 0 || len(scores) != len(toks) || len(types) != len(toks) {
		return v, fmt.Errorf("%s: tokenizer arrays of %d, %d, %d entries", path, len(toks), len(scores), len(types))
	}
	for i := range toks {
		t, _ := toks[i].(string)
		sc, _ := strconv.ParseFloat(fmt.Sprint(scores[i]), 32)
		ty, _ := strconv.Atoi(fmt.Sprint(types[i]))
		v.Tokens = append(v.Tokens, t)
		v.Scores = append(v.Scores, float32(sc))
		v.Types = append(v.Types, int32(ty))
	}
	id := func(key string, def int) int {
		if n, ok := gf.Uint(key); ok {
			return int(n)
		}
		return def
	}
	v.BOS, v.EOS, v.UNK = id("tokenizer.ggml.bos_token_id", 1), id("tokenizer.ggml.eos_token_id", 2), id("tokenizer.ggml.unknown_token_id", 0)
	return v, nil
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

// deviceList names the devices the engine can use.
func deviceList() string {
	var out []string
	for _, d := range engine.Devices() {
		out = append(out, fmt.Sprintf("%s (%s)", d.Name, d.Description))
	}
	return strings.Join(out, ", ")
}

// setup is one way of loading the model: a cache size and a device.
type setup struct {
	cache string // "auto" or an n_ctx
	cpu   bool   // n_gpu_layers=0 on a GPU build
}

func (s setup) options(c *config) (engine.Options, error) {
	o := engine.Options{Threads: c.threads, NBatch: c.nBatch, NUBatch: c.nBatch, CPUOnly: s.cpu, FlashAttn: c.flashAttn}
	if s.cache == "auto" {
		o.AutoBatch = true
	} else {
		n, err := strconv.Atoi(s.cache)
		if err != nil || n <= 0 {
			return o, fmt.Errorf("-caches: %q is neither auto nor an n_ctx", s.cache)
		}
		o.NCtx = n
	}
	return o, nil
}

// workloads is what every setup runs.
type workloads struct {
	mc     []engine.LoglikelihoodRequest
	ctxLen int
	text   string
	gen    []engine.GenerateRequest
}

// mcQuestions is the multiple-choice workload: c.questions questions of
// about c.ctxToks tokens, with 4 endings each drawn from r; ctxLen is the
// contexts' mean length in tokens.
func mcQuestions(m *engine.Model, c *config, r *rand.Rand) (mc []engine.LoglikelihoodRequest, ctxLen int) {
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
			words := 2 + k
			if c.endingWords > 0 {
				words = c.endingWords
			}
			mc = append(mc, engine.LoglikelihoodRequest{Context: cx, Continuation: " " + sentence(r, words)})
		}
	}
	return mc, ctxLen / max(c.questions, 1)
}

func makeWorkloads(m *engine.Model, c *config) workloads {
	var w workloads
	r := rand.New(rand.NewSource(42))
	w.mc, w.ctxLen = mcQuestions(m, c, r)
	w.text = sentence(r, c.rollToks*3/4)
	for i := 0; i < c.genReqs; i++ {
		var p string
		var toks []int32
		for words := c.genPrompt / 2; len(toks) < c.genPrompt; words += 4 {
			p = sentence(rand.New(rand.NewSource(int64(1000+i))), words)
			toks, _ = m.Tokenize(p, true, false)
		}
		w.gen = append(w.gen, engine.GenerateRequest{Context: p, MaxGenToks: c.genToks})
	}
	return w
}

// result is one workload's measurement in one setup.
type result struct {
	wall   time.Duration // the fastest repetition
	rate   float64       // end-to-end tokens per second (CPU s on the CPU, wall s on a GPU)
	tokens int64         // tokens requested
	gpu    bool          // the model ran on a GPU
}

func benchModel(path string, c *config) error {
	var setups []setup
	for _, cache := range c.caches {
		setups = append(setups, setup{cache: strings.TrimSpace(cache)})
		if c.cpuToo && engine.GPUOffload() {
			setups = append(setups, setup{cache: strings.TrimSpace(cache), cpu: true})
		}
	}
	name := filepath.Base(path)
	ctx := context.Background()
	var wl workloads
	results := map[string]map[setup]result{} // workload letter -> setup -> result
	for si, st := range setups {
		opts, err := st.options(c)
		if err != nil {
			return err
		}
		free0 := deviceFree()
		m, err := engine.Load(path, opts)
		if err != nil {
			return err
		}
		if si == 0 {
			wl = makeWorkloads(m, c)
		}
		opts.MaxLength = c.maxLen
		err = benchSetup(ctx, name, path, st, m, opts, free0, wl, c, results)
		m.Close()
		if err != nil {
			return err
		}
	}
	// The automatic size against the best fixed one, per workload.
	for _, k := range []string{"a", "b", "c"} {
		for _, cpu := range []bool{false, true} {
			auto, ok := results[k][setup{cache: "auto", cpu: cpu}]
			if !ok {
				continue
			}
			best, bestCache := time.Duration(0), ""
			for st, r := range results[k] {
				if st.cache != "auto" && st.cpu == cpu && (best == 0 || r.wall < best) {
					best, bestCache = r.wall, st.cache
				}
			}
			if best > 0 {
				verdict := "within 10%"
				if float64(auto.wall) > 1.1*float64(best) {
					verdict = "MORE THAN 10% SLOWER"
				}
				c.summary = append(c.summary, fmt.Sprintf("%s (%s): auto %.2f s vs n_ctx %s %.2f s: %.2fx, %s", name, k, auto.wall.Seconds(), bestCache, best.Seconds(), auto.wall.Seconds()/best.Seconds(), verdict))
			}
		}
	}
	if c.peer != "" {
		return peerCompare(ctx, path, name, wl, c, results)
	}
	return nil
}

// benchSetup runs the selected workloads on m, loaded with opts (less
// MaxLength) when the device's free memory was free0; the rolling
// workload runs on a second model loaded with opts' MaxLength, which is
// closed after it, so each workload's device memory is its model's alone.
func benchSetup(ctx context.Context, name, path string, st setup, m *engine.Model, opts engine.Options, free0 int64, wl workloads, c *config, results map[string]map[setup]result) error {
	r := rand.New(rand.NewSource(43))
	type work struct {
		key, name       string
		seqLen, batchLn int
		run             func(*engine.Model) error
	}
	works := []work{
		{"a", fmt.Sprintf("(a) multiple choice, %d×4, ~%d-token contexts", c.questions, wl.ctxLen), wl.ctxLen + 6, 0, func(m *engine.Model) error {
			_, err := m.Loglikelihood(ctx, wl.mc)
			return err
		}},
		{"b", fmt.Sprintf("(b) rolling, %d-token windows", c.maxLen), c.maxLen, 0, func(m *engine.Model) error {
			_, err := m.LoglikelihoodRolling(ctx, []string{wl.text})
			return err
		}},
		{"c", fmt.Sprintf("(c) greedy generation, %d×%d tokens after ~%d-token prompts", c.genReqs, c.genToks, c.genPrompt), c.genPrompt + c.genToks, c.genReqs, func(m *engine.Model) error {
			_, err := m.GenerateUntil(ctx, wl.gen)
			return err
		}},
	}
	for _, w := range works {
		if !c.runs(w.key) {
			continue
		}
		wm, base := m, free0
		if w.key == "b" {
			base = deviceFree()
			rm, err := engine.Load(path, opts)
			if err != nil {
				return err
			}
			defer rm.Close()
			wm = rm
		}
		profiling := c.profile != nil && w.key == c.profiled
		if profiling {
			pprof.StartCPUProfile(c.profile)
		}
		before := wm.Stats()
		w0 := time.Now()
		cpu, wall, err := measure(c.reps, func() error { return w.run(wm) })
		wallTotal := time.Since(w0)
		if profiling {
			pprof.StopCPUProfile()
			c.profile = nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w", w.name, err)
		}
		used := "-"
		in := wm.Settings()
		gpu := in.Backend != "cpu"
		if gpu {
			used = units.Bytes(base - deviceFree())
		}
		after := wm.Stats()
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
			raw, err = rawGenRate(ctx, wm, c, wl.gen, gpu)
		} else {
			raw, err = rawRate(ctx, wm, c, w.seqLen, r, gpu)
		}
		if err != nil {
			return err
		}
		e2e := rate(int(requested), cpu, wall, gpu)
		if results[w.key] == nil {
			results[w.key] = map[setup]result{}
		}
		results[w.key][st] = result{wall: wall, rate: e2e, tokens: requested, gpu: gpu}
		dec := (after.DecodeTime - before.DecodeTime) / time.Duration(reps)
		sc := (after.ScoreTime - before.ScoreTime) / time.Duration(reps)
		avgWall := wallTotal / time.Duration(reps)
		device := in.Backend
		if len(in.Devices) > 0 {
			device = in.Devices[0].Name
		}
		fmt.Printf("| %s | %s (%d) | %s | %s | %.0f | %.0f | %.2f | %d / %d | %.2f | %.0f%% / %.0f%% / %.0f%% | %s |\n", name, st.cache, in.NCtx, device, w.name, raw, e2e, e2e/raw, decoded, requested, wall.Seconds(),
			100*dec.Seconds()/avgWall.Seconds(), 100*sc.Seconds()/avgWall.Seconds(), 100*(avgWall-dec-sc).Seconds()/avgWall.Seconds(), used)
	}
	return nil
}

// deviceFree is the free memory of the GPUs the engine can use (0 when
// there are none).
func deviceFree() int64 {
	var free int64
	for _, d := range engine.Devices() {
		if d.Type == "gpu" || d.Type == "igpu" {
			free += int64(d.Free)
		}
	}
	return free
}

// peerCompare runs llama.cpp's own tools on the same work, side by side
// (same machine, same threads, one after the other, on the device lmeval
// used at the automatic cache size: the GPU with every layer, -ngl 999,
// when it has one), and reports wall times against the engine's:
// llama-perplexity in --hellaswag mode (-c 512) on the multiple-choice
// questions, in perplexity mode on the rolling text, llama-batched-bench in
// the generation's shape, and llama-bench's raw prompt processing (pp512)
// against the multiple-choice run's end-to-end rate. The tools' times
// leave out their model load (the "load time" they print), as lmeval's do.
func peerCompare(ctx context.Context, path, name string, wl workloads, c *config, results map[string]map[setup]result) error {
	dir, err := os.MkdirTemp("", "lmeval-bench-peer")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	threads := c.threads
	if threads <= 0 {
		threads = runtime.NumCPU()
	}
	// --hellaswag input: context, gold index, four endings, one line each
	// (so a newline inside a text becomes a space, or the file's lines
	// shift and llama-perplexity aborts reading a label); llama.cpp joins
	// context and ending with a space, so the endings lose theirs.
	line := strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ")
	var hs strings.Builder
	for q := 0; q < len(wl.mc)/4; q++ {
		fmt.Fprintf(&hs, "%s\n0\n", line.Replace(wl.mc[4*q].Context))
		for k := 0; k < 4; k++ {
			fmt.Fprintf(&hs, "%s\n", line.Replace(strings.TrimPrefix(wl.mc[4*q+k].Continuation, " ")))
		}
	}
	hsPath, textPath := filepath.Join(dir, "hs.txt"), filepath.Join(dir, "text.txt")
	if err := os.WriteFile(hsPath, []byte(hs.String()), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(textPath, []byte(wl.text), 0o644); err != nil {
		return err
	}
	// The device: lmeval's automatic-size run on the GPU when there was
	// one, else on the CPU.
	gpu := false
	for _, k := range []string{"a", "b", "c"} {
		if r, ok := results[k][setup{cache: "auto"}]; ok && r.gpu {
			gpu = true
		}
	}
	ours := setup{cache: "auto", cpu: !gpu && c.cpuToo && engine.GPUOffload()}
	ngl := "0"
	if gpu {
		ngl = "999"
	}
	t := strconv.Itoa(threads)
	pp := strconv.Itoa(c.genPrompt)
	runs := []struct {
		key, what string
		args      []string
	}{
		{"a", "llama-perplexity --hellaswag -c 512", []string{"llama-perplexity", "-m", path, "-f", hsPath, "--hellaswag", "--hellaswag-tasks", strconv.Itoa(len(wl.mc) / 4), "-c", "512", "-b", "512", "-t", t, "-ngl", ngl}},
		{"b", fmt.Sprintf("llama-perplexity -c %d", c.maxLen), []string{"llama-perplexity", "-m", path, "-f", textPath, "-c", strconv.Itoa(c.maxLen), "-b", strconv.Itoa(c.nBatch), "-t", t, "-ngl", ngl}},
		{"c", "llama-batched-bench (one unified cache)", []string{"llama-batched-bench", "-m", path, "-c", strconv.Itoa(c.genReqs*(c.genPrompt+c.genToks) + 256), "-b", "2048", "-ub", strconv.Itoa(c.nBatch),
			"-npp", pp, "-ntg", strconv.Itoa(c.genToks), "-npl", strconv.Itoa(c.genReqs), "-t", t, "-ngl", ngl}},
	}
	for _, r := range runs {
		res, ok := results[r.key][ours]
		if !ok {
			continue
		}
		cmd := exec.CommandContext(ctx, filepath.Join(c.peer, r.args[0]), r.args[1:]...)
		t0 := time.Now()
		out, err := cmd.CombinedOutput()
		wall := time.Since(t0)
		if err != nil {
			c.summary = append(c.summary, fmt.Sprintf("%s (%s): %s failed: %v (%s)", name, r.key, r.what, err, lastLine(out)))
			continue
		}
		load := peerLoadTime(out)
		work := wall - load
		c.summary = append(c.summary, fmt.Sprintf("%s (%s): %s %.2f s (%.2f s with its %.2f s model load), lmeval at auto %.2f s: lmeval %.2fx faster",
			name, r.key, r.what, work.Seconds(), wall.Seconds(), load.Seconds(), res.wall.Seconds(), work.Seconds()/res.wall.Seconds()))
	}
	// Raw prompt processing: llama-bench pp512, the physical limit of the
	// multiple-choice run's end-to-end rate.
	if res, ok := results["a"][ours]; ok {
		args := []string{"-m", path, "-p", "512", "-n", "0", "-t", t, "-ngl", ngl, "-o", "json"}
		out, err := exec.CommandContext(ctx, filepath.Join(c.peer, "llama-bench"), args...).Output()
		if pp, perr := llamaBenchRate(out); err != nil || perr != nil {
			c.summary = append(c.summary, fmt.Sprintf("%s: llama-bench pp512 failed: %v %v", name, err, perr))
		} else {
			// Per wall second, as llama-bench counts.
			ours := float64(res.tokens) / res.wall.Seconds()
			c.summary = append(c.summary, fmt.Sprintf("%s (a): llama-bench pp512 %.0f tok/s, lmeval's end-to-end multiple choice %.0f tok/s (wall): %.2fx of pp512",
				name, pp, ours, ours/pp))
		}
	}
	return nil
}

// peerLoadTime is the model load time llama.cpp's tools print
// (llama_perf_context_print: "load time = 1234.56 ms"), or 0.
func peerLoadTime(out []byte) time.Duration {
	for _, l := range strings.Split(string(out), "\n") {
		if i := strings.Index(l, "load time ="); i >= 0 {
			f := strings.Fields(l[i+len("load time ="):])
			if len(f) > 0 {
				if ms, err := strconv.ParseFloat(f[0], 64); err == nil {
					return time.Duration(ms * float64(time.Millisecond))
				}
			}
		}
	}
	return 0
}

// llamaBenchRate is the mean tokens per second of llama-bench's first test
// in its JSON output (-o json).
func llamaBenchRate(out []byte) (float64, error) {
	var tests []struct {
		AvgTS float64 `json:"avg_ts"`
	}
	if i := strings.IndexByte(string(out), '['); i >= 0 {
		out = out[i:]
	}
	if err := json.Unmarshal(out, &tests); err != nil {
		return 0, fmt.Errorf("llama-bench output: %w", err)
	}
	if len(tests) == 0 || tests[0].AvgTS <= 0 {
		return 0, errors.New("llama-bench output: no test")
	}
	return tests[0].AvgTS, nil
}

func lastLine(b []byte) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return lines[len(lines)-1]
}

// rawRate measures raw llama_decode tokens per second (per CPU second, per
// wall second on a GPU) on random tokens in sequences of seqLen packed
// into full batches.
func rawRate(ctx context.Context, m *engine.Model, c *config, seqLen int, r *rand.Rand, gpu bool) (float64, error) {
	nv := m.Settings().NVocab
	toks := make([]int32, c.rawToks)
	for i := range toks {
		toks[i] = int32(3 + r.Intn(nv-3))
	}
	n := 0
	cpu, wall, err := measure(c.reps, func() error {
		d, _, err := m.RawDecode(ctx, toks, seqLen, 0)
		n = d
		return err
	})
	if err != nil {
		return 0, err
	}
	return rate(n, cpu, wall, gpu), nil
}

// rawGenRate measures raw llama_decode in generation's shape: the same
// prompts, then one token per sequence per step.
func rawGenRate(ctx context.Context, m *engine.Model, c *config, gen []engine.GenerateRequest, gpu bool) (float64, error) {
	var prompts [][]int32
	for _, g := range gen {
		toks, err := m.Tokenize(g.Context, true, false)
		if err != nil {
			return 0, err
		}
		prompts = append(prompts, toks)
	}
	n := 0
	cpu, wall, err := measure(c.reps, func() error {
		d, _, err := m.RawGenerate(ctx, prompts, c.genToks-1)
		n = d
		return err
	})
	if err != nil {
		return 0, err
	}
	return rate(n, cpu, wall, gpu), nil
}

// rate is n tokens per CPU second, or per wall second on a GPU.
func rate(n int, cpu, wall time.Duration, gpu bool) float64 {
	if gpu {
		return float64(n) / wall.Seconds()
	}
	return float64(n) / cpu.Seconds()
}
