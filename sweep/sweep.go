// Package sweep compares quantizations of a model in one run: perplexity
// (llama.cpp's chunked layout and lm-eval's rolling one, with standard
// errors), KL divergence against a base model with the statistics of
// llama.cpp's perplexity tool, optional task accuracy with paired
// significance tests, and a table, JSON, CSV and SVG chart of the
// results.
//
// The base's next-token distributions are computed once and kept in the
// SQLite cache in compact form (top-k log-probs, the mass of the rest and
// the exact log-prob of the actual token); every model's results are kept
// there too, keyed by file hash and settings, so an interrupted or
// repeated sweep resumes without recomputing.
package sweep

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/lmeval/lmeval/engine"
	"github.com/lmeval/lmeval/gguf"
	"github.com/lmeval/lmeval/harness/cache"
	"github.com/lmeval/lmeval/harness/progress"
	"github.com/lmeval/lmeval/stats"
)

// Config describes a sweep.
type Config struct {
	// Base is the reference model every other model is compared with. When
	// empty, the first of Models is the base.
	Base string
	// Models are GGUF files compared with the base.
	Models []string
	// Quants are file types ("Q8_0", "Q4_K_M", ...) made from Base with
	// llama.cpp's quantizer into QuantDir; files already there are reused.
	Quants   []string
	QuantDir string
	// Imatrix is an importance-matrix file for the quantizer (GGUF or
	// legacy .dat).
	Imatrix string

	// Docs are the texts perplexity is measured on: each is one document
	// of lm-eval's rolling perplexity; joined by "\n\n" they are the text
	// llama.cpp's chunked perplexity reads.
	Docs []string
	// ChunkSize is llama.cpp's perplexity context (n_ctx); 0: 512.
	ChunkSize int
	// MaxLength is lm-eval's max_length for rolling windows; 0: ChunkSize.
	MaxLength int
	// TopK is how many of the base's most probable tokens are stored per
	// position; 0: 32.
	TopK int
	// RollingMetrics, when set, computes a perplexity task's own metrics
	// from the per-document log-likelihoods (PPLTask.Metrics); without it
	// the word and byte perplexities count the documents' own words and
	// bytes, as lm-eval's default process_results does.
	RollingMetrics func(ctx context.Context, logliks []float64) (map[string]float64, error)

	// Engine are the options every model is loaded with; NCtx and
	// MaxLength are set by the sweep.
	Engine engine.Options
	// NCtx, when set, is the context size instead of the sweep's own (as
	// many whole sequences as Engine.NBatch holds); it must hold one
	// sequence of max(ChunkSize, MaxLength) tokens.
	NCtx int
	// Store keeps the sweep's results (required).
	Store *cache.Cache
	// Tasks, when not nil, evaluates tasks on each model.
	Tasks TaskRunner
	// LogSamples keeps each model's task run (results and per-document
	// samples, lm-eval's formats) in the store and in the Report, for
	// WriteFiles to write as run directories that lmeval compare reads.
	// Stored task results without them are recomputed.
	LogSamples bool
	// Progress shows one bar over the whole sweep; nil draws nothing.
	Progress *progress.Display
	// Log receives one line per notable event (quantizing, a refused
	// quantization, loading); nil discards them.
	Log io.Writer
}

// TaskRunner evaluates tasks on a loaded model.
type TaskRunner interface {
	// Key identifies the tasks and every setting that changes their
	// scores, for the store.
	Key() string
	// Run evaluates the tasks; with logSamples the TaskRun keeps the
	// run's files.
	Run(ctx context.Context, m *engine.Model, logSamples bool) (*TaskRun, error)
}

// TaskRun is one model's evaluation of the tasks.
type TaskRun struct {
	Scores []TaskScore `json:"scores"`
	// Files of the run, when asked for.
	Files *RunFiles `json:"files,omitempty"`
}

// RunFiles are a task run's files in lm-eval's formats: the results
// object and each task's samples (JSON Lines), with the run's start time
// for their names.
type RunFiles struct {
	Start   time.Time         `json:"start"`
	Results json.RawMessage   `json:"results"`
	Samples map[string][]byte `json:"samples"`
}

// TaskScore is one task metric of one model.
type TaskScore struct {
	Task   string  `json:"task"`
	Metric string  `json:"metric"` // "acc,none"
	Value  float64 `json:"value"`
	Stderr float64 `json:"stderr"`
	// PerDoc holds the per-document values in document order, for the
	// paired test; Binary when each is 0 or 1.
	PerDoc []float64 `json:"per_doc,omitempty"`
	Binary bool      `json:"binary"`
	// Against the base (not set on the base's own scores): Delta is
	// Value - base Value; with per-document values, Paired holds the
	// paired statistics of package stats (the same lmeval compare
	// reports), P and Test its test's p-value and name ("mcnemar_exact"
	// or "paired_t"), PHolm the p-value Holm-corrected over the model's
	// task metrics.
	Delta  *float64      `json:"delta,omitempty"`
	P      *float64      `json:"p_value,omitempty"`
	Test   string        `json:"test,omitempty"`
	PHolm  *float64      `json:"p_holm,omitempty"`
	Paired *stats.Result `json:"paired,omitempty"`
}

// Report is the outcome of a sweep.
type Report struct {
	Base      string    `json:"base"`
	ChunkSize int       `json:"chunk_size"`
	MaxLength int       `json:"max_length"`
	TopK      int       `json:"top_k"`
	Docs      int       `json:"documents"`
	Models    []*Result `json:"models"`
	// Computed counts the model passes run in this sweep (0 when resumed
	// from a complete cache); Loaded the models loaded.
	Computed int `json:"computed_passes"`
	Loaded   int `json:"models_loaded"`
}

// Result is one model's row.
type Result struct {
	Name          string  `json:"name"` // the quantization, or the file name when ambiguous
	Path          string  `json:"path"`
	FileType      string  `json:"file_type"`
	FileSize      int64   `json:"file_size"`
	Params        uint64  `json:"params"`
	BitsPerWeight float64 `json:"bits_per_weight"`
	SHA256        string  `json:"sha256"`
	IsBase        bool    `json:"is_base"`
	Quantized     bool    `json:"quantized,omitempty"` // made from the base by this sweep (or an earlier one)
	// Error says why the model has no results (a refused quantization).
	Error string `json:"error,omitempty"`

	// PPL is llama.cpp's chunked perplexity; DeltaPPL its change against
	// the base in percent.
	PPL      *PPL     `json:"ppl,omitempty"`
	DeltaPPL *float64 `json:"delta_ppl_pct,omitempty"`
	// Rolling is lm-eval's rolling perplexity over the documents.
	Rolling *Rolling `json:"rolling,omitempty"`
	// KLD compares the model with the base over the chunked positions;
	// nil for the base.
	KLD   *Divergence `json:"kld,omitempty"`
	Tasks []TaskScore `json:"tasks,omitempty"`
	// Files are the task run's files (Config.LogSamples); RunDir where
	// WriteFiles wrote them, relative to the output directory.
	Files  *RunFiles `json:"-"`
	RunDir string    `json:"run_dir,omitempty"`
}

// Rolling is lm-eval's loglikelihood_rolling perplexity: token-level with
// its uncertainty, and the word and byte perplexities of lm-eval's
// wikitext task (words split on whitespace runs, UTF-8 bytes).
type Rolling struct {
	PPL
	Docs           int     `json:"documents"`
	LogLikelihood  float64 `json:"loglikelihood"`
	WordPerplexity float64 `json:"word_perplexity"`
	BytePerplexity float64 `json:"byte_perplexity"`
	BitsPerByte    float64 `json:"bits_per_byte"`
	// VsBase is the rolling perplexity's ratio to the base's over the same
	// tokens; nil for the base.
	VsBase *Ratio `json:"vs_base,omitempty"`
	// TaskMetrics are the perplexity task's metrics as the harness scores
	// them ("word_perplexity,none", ...), with Config.RollingMetrics.
	TaskMetrics map[string]float64 `json:"task_metrics,omitempty"`
}

type entry struct {
	res   *Result
	path  string
	vocab string // tokenizer model and size: models compared must share the base's
}

func (c *Config) logf(format string, args ...any) {
	if c.Log != nil {
		fmt.Fprintf(c.Log, "sweep: "+format+"\n", args...)
	}
}

// Run runs the sweep: it settles the settings (defaults, the engine
// options, the token layouts), looks up what the store already holds,
// computes the rest one model at a time, and derives the statistics.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	if err := cfg.defaults(); err != nil {
		return nil, err
	}
	models, err := cfg.resolve()
	if err != nil {
		return nil, err
	}
	base := models[0]
	rep := &Report{Base: base.path, ChunkSize: cfg.ChunkSize, MaxLength: cfg.MaxLength, TopK: cfg.TopK, Docs: len(cfg.Docs)}
	for _, m := range models {
		rep.Models = append(rep.Models, m.res)
	}
	s, err := cfg.newSweepRun(base, rep)
	if err != nil {
		return nil, err
	}
	ws, total, err := s.stored(models)
	if err != nil {
		return nil, err
	}
	baseDists, err := s.compute(ctx, ws, total)
	if err != nil {
		return nil, err
	}
	if err := s.statistics(ctx, ws, baseDists); err != nil {
		return nil, err
	}
	return rep, nil
}

// defaults fills the settings left zero and checks them.
func (cfg *Config) defaults() error {
	if cfg.Store == nil {
		return errors.New("sweep: no store")
	}
	if cfg.ChunkSize == 0 {
		cfg.ChunkSize = 512
	}
	if cfg.MaxLength == 0 {
		cfg.MaxLength = cfg.ChunkSize
	}
	if cfg.TopK == 0 {
		cfg.TopK = 32
	}
	if cfg.ChunkSize < 4 || cfg.MaxLength < 1 || cfg.TopK < 1 {
		return fmt.Errorf("sweep: chunk size %d, max length %d, top-k %d: too small", cfg.ChunkSize, cfg.MaxLength, cfg.TopK)
	}
	if len(cfg.Docs) == 0 {
		return errors.New("sweep: no text to measure perplexity on")
	}
	return nil
}

// engineOptions are the options every model loads with: as llama.cpp's
// perplexity tool, n_batch / n_ctx sequences decoded together when the
// batch is larger than a sequence.
func (cfg *Config) engineOptions() (engine.Options, error) {
	opts := cfg.Engine
	seqLen := max(cfg.ChunkSize, cfg.MaxLength)
	if opts.NBatch <= 0 {
		opts.NBatch = 512
	}
	opts.NCtx = seqLen * max(1, opts.NBatch/seqLen)
	if cfg.NCtx > 0 {
		if cfg.NCtx < seqLen {
			return opts, fmt.Errorf("sweep: n_ctx %d cannot hold a sequence of %d tokens (chunk size %d, max length %d)", cfg.NCtx, seqLen, cfg.ChunkSize, cfg.MaxLength)
		}
		opts.NCtx = cfg.NCtx
	}
	opts.MaxLength = cfg.MaxLength
	opts.VocabOnly = false
	return opts, nil
}

// settingsHash hashes the settings that change the numbers (beyond the
// files and tokens, which have their own hashes): the engine build, where
// layers run, the KV cache types, the attention kernel, and the batch
// layout (with an f16 KV cache results move by ~1e-3 between layouts).
func settingsHash(opts engine.Options) string {
	settings := hashOf(engine.LlamaCppCommit, engine.GPUOffload() && !opts.CPUOnly, opts.NGPULayers,
		strings.ToLower(opts.TypeK), strings.ToLower(opts.TypeV), strings.ToLower(opts.FlashAttn),
		opts.NCtx, opts.NBatch, opts.NUBatch)
	if opts.MainGPU != 0 || opts.SplitMode != "" || len(opts.TensorSplit) > 0 || opts.NSeqMax != 0 {
		// Placement and sequence limits from --model_args; hashed only when
		// set, so results stored without them keep their keys.
		settings = hashOf(settings, opts.MainGPU, strings.ToLower(opts.SplitMode), fmt.Sprint(opts.TensorSplit), opts.NSeqMax)
	}
	return settings
}

// sweepRun is one Run's settled settings: the engine options, the token
// layouts of both perplexities and the store keys they give.
type sweepRun struct {
	cfg           *Config
	rep           *Report
	opts          engine.Options
	chunks, rolls []engine.DistRequest
	docPos        []int // rolling positions per document
	st            store
	settings      string
	rollKey       string // the rolling layout's hash
	baseKey       string // the base's distributions
	nChunk, nRoll int
}

func (cfg *Config) newSweepRun(base *entry, rep *Report) (*sweepRun, error) {
	opts, err := cfg.engineOptions()
	if err != nil {
		return nil, err
	}
	chunks, rolls, docPos, err := cfg.layouts(base.path, opts)
	if err != nil {
		return nil, err
	}
	s := &sweepRun{cfg: cfg, rep: rep, opts: opts, chunks: chunks, rolls: rolls, docPos: docPos,
		st: store{cfg.Store}, settings: settingsHash(opts)}
	s.rollKey = layoutHash(rolls)
	s.nChunk, s.nRoll = engine.Positions(chunks), engine.Positions(rolls)
	s.baseKey = fmt.Sprintf("base/%s/%s/%s/k%d", base.res.SHA256, s.settings, layoutHash(chunks), cfg.TopK)
	return s, nil
}

// work is what one model has from the store and what it still needs.
type work struct {
	m                    *entry
	dists                *engine.Dists
	div                  *engine.Divergence
	roll                 []float64
	tasks                *TaskRun
	needDists, needRolls bool
	needDiv, needTasks   bool
}

// scores are the run's scores (none without a run).
func (t *TaskRun) scores() []TaskScore {
	if t == nil {
		return nil
	}
	return t.Scores
}

func (w *work) needs() bool { return w.needDists || w.needDiv || w.needRolls || w.needTasks }

// stored reads what the store holds for each model (those with an error
// are left out) and counts the tokens still to run, to size the one
// progress bar.
func (s *sweepRun) stored(models []*entry) ([]*work, int, error) {
	var ws []*work
	total := 0
	for i, m := range models {
		if m.res.Error != "" {
			continue
		}
		w := &work{m: m}
		if i == 0 {
			ok, err := s.st.get(s.baseKey, func(b []byte) (e error) { w.dists, e = decodeDists(b, s.nChunk); return })
			if err != nil {
				return nil, 0, fmt.Errorf("sweep: %w", err)
			}
			w.needDists = !ok
		} else {
			ok, err := s.st.get(cmpKey(m.res.SHA256, s.settings, s.baseKey), func(b []byte) (e error) { w.div, e = decodeDivergence(b, s.nChunk); return })
			if err != nil {
				return nil, 0, fmt.Errorf("sweep: %w", err)
			}
			w.needDiv = !ok
		}
		ok, err := s.st.get(rollKeyOf(m.res.SHA256, s.settings, s.rollKey), func(b []byte) (e error) { w.roll, e = decodeFloats(b, s.nRoll); return })
		if err != nil {
			return nil, 0, fmt.Errorf("sweep: %w", err)
		}
		w.needRolls = !ok
		if s.cfg.Tasks != nil {
			ok, err := s.st.get(taskKey(m.res.SHA256, s.settings, s.cfg.Tasks.Key()), func(b []byte) error { return json.Unmarshal(b, &w.tasks) })
			if err != nil {
				return nil, 0, fmt.Errorf("sweep: %w", err)
			}
			w.needTasks = !ok || (s.cfg.LogSamples && w.tasks.Files == nil)
		}
		if w.needDists || w.needDiv {
			total += tokens(s.chunks)
		}
		if w.needRolls {
			total += tokens(s.rolls)
		}
		ws = append(ws, w)
	}
	return ws, total, nil
}

// compute loads each model that still needs something, in order (the base
// first: the others compare with its distributions), and runs what it
// needs; it returns the base's distributions.
func (s *sweepRun) compute(ctx context.Context, ws []*work, total int) (*engine.Dists, error) {
	bar := s.cfg.Progress.Phase("sweep", len(ws), total)
	defer bar.Finish()
	var baseDists *engine.Dists
	for _, w := range ws {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if w.needs() {
			if w.needDiv && baseDists == nil {
				return nil, errors.New("sweep: internal error: base distributions missing")
			}
			if err := s.evaluate(ctx, w, baseDists, bar); err != nil {
				return nil, err
			}
		}
		bar.Add(1, 0)
		if w.m.res.IsBase {
			baseDists = w.dists
		}
	}
	return baseDists, nil
}

// evaluate loads one model and runs the passes it needs, storing each
// result as soon as it is computed.
func (s *sweepRun) evaluate(ctx context.Context, w *work, baseDists *engine.Dists, bar *progress.Phase) error {
	cfg, st, rep := s.cfg, s.st, s.rep
	// The engine reports cumulative tokens per pass; the bar wants steps.
	report := func() func(int, int) {
		last := 0
		return func(_, toks int) { bar.Add(0, toks-last); last = toks }
	}
	cfg.logf("evaluating %s (%s)", w.m.res.Name, w.m.path)
	lm, err := engine.Load(w.m.path, s.opts)
	if err != nil {
		return fmt.Errorf("sweep: %w", err)
	}
	rep.Loaded++
	err = func() error {
		defer lm.Close()
		if w.needDists {
			if w.dists, err = lm.TopK(ctx, s.chunks, cfg.TopK, report()); err != nil {
				return err
			}
			rep.Computed++
			if err := st.put(s.baseKey, encodeDists(w.dists)); err != nil {
				return err
			}
		}
		if w.needDiv {
			if w.div, err = lm.Compare(ctx, s.chunks, baseDists, report()); err != nil {
				return err
			}
			rep.Computed++
			if err := st.put(cmpKey(w.m.res.SHA256, s.settings, s.baseKey), encodeDivergence(w.div)); err != nil {
				return err
			}
		}
		if w.needRolls {
			d, err := lm.TopK(ctx, s.rolls, 1, report())
			if err != nil {
				return err
			}
			w.roll = d.LogProb
			rep.Computed++
			if err := st.put(rollKeyOf(w.m.res.SHA256, s.settings, s.rollKey), encodeFloats(w.roll)); err != nil {
				return err
			}
		}
		if w.needTasks {
			if w.tasks, err = cfg.Tasks.Run(ctx, lm, cfg.LogSamples); err != nil {
				return err
			}
			rep.Computed++
			b, err := json.Marshal(w.tasks)
			if err != nil {
				return err
			}
			if err := st.put(taskKey(w.m.res.SHA256, s.settings, cfg.Tasks.Key()), b); err != nil {
				return err
			}
		}
		return nil
	}()
	if err != nil {
		return fmt.Errorf("sweep: %s: %w", w.m.path, err)
	}
	return nil
}

// statistics fills each model's row: perplexities, divergence from the
// base, the rolling perplexity with the task's own metrics, and the paired
// tests of the task scores.
func (s *sweepRun) statistics(ctx context.Context, ws []*work, baseDists *engine.Dists) error {
	var baseTasks []TaskScore
	for _, w := range ws {
		r := w.m.res
		if r.IsBase {
			p := Perplexity(w.dists.LogProb)
			p.Windows = len(s.chunks)
			r.PPL = &p
			baseTasks = w.tasks.scores()
		} else {
			p := Perplexity(w.div.LogProb)
			p.Windows = len(s.chunks)
			r.PPL = &p
			d := Compare(baseDists.LogProb, w.div.LogProb, baseDists.Argmax, w.div.Argmax, w.div.KLDLow, w.div.KLDHigh)
			r.KLD = &d
		}
		r.Rolling = rollingStats(w.roll, s.cfg.Docs)
		if s.cfg.RollingMetrics != nil {
			if err := s.taskMetrics(ctx, w); err != nil {
				return err
			}
		}
		r.Tasks = w.tasks.scores()
		if w.tasks != nil && s.cfg.LogSamples {
			r.Files = w.tasks.Files
		}
	}
	basePPL := s.rep.Models[0].PPL
	baseRoll := ws[0].roll
	for _, w := range ws {
		r := w.m.res
		if !r.IsBase && r.Rolling != nil {
			ratio := PPLRatio(baseRoll, w.roll)
			r.Rolling.VsBase = &ratio
		}
		if basePPL != nil && r.PPL != nil {
			d := (r.PPL.PPL/basePPL.PPL - 1) * 100
			r.DeltaPPL = &d
		}
		if !r.IsBase {
			pairTasks(baseTasks, r.Tasks)
		}
	}
	return nil
}

// taskMetrics computes the perplexity task's own metrics from the model's
// per-document log-likelihoods (Config.RollingMetrics); the task's
// definitions (wikitext counts the original page's words) replace the
// defaults.
func (s *sweepRun) taskMetrics(ctx context.Context, w *work) error {
	r := w.m.res
	ll := make([]float64, len(s.docPos))
	at := 0
	for d, n := range s.docPos {
		for _, lp := range w.roll[at : at+n] {
			ll[d] += lp
		}
		at += n
	}
	var err error
	if r.Rolling.TaskMetrics, err = s.cfg.RollingMetrics(ctx, ll); err != nil {
		return fmt.Errorf("sweep: %s: %w", r.Name, err)
	}
	for key, dst := range map[string]*float64{"word_perplexity,none": &r.Rolling.WordPerplexity,
		"byte_perplexity,none": &r.Rolling.BytePerplexity, "bits_per_byte,none": &r.Rolling.BitsPerByte} {
		if v, ok := r.Rolling.TaskMetrics[key]; ok {
			*dst = v
		}
	}
	return nil
}

func tokens(reqs []engine.DistRequest) int {
	n := 0
	for _, r := range reqs {
		n += len(r.Input)
	}
	return n
}

func cmpKey(sha, settings, baseKey string) string {
	return fmt.Sprintf("cmp/%s/%s/%s", sha, settings, hashOf(baseKey))
}

func rollKeyOf(sha, settings, layout string) string {
	return fmt.Sprintf("roll/%s/%s/%s", sha, settings, layout)
}

func taskKey(sha, settings, tasks string) string {
	return fmt.Sprintf("tasks/%s/%s/%s", sha, settings, hashOf(tasks))
}

// resolve lists the models, base first, quantizing what is asked for.
func (cfg *Config) resolve() ([]*entry, error) {
	paths := cfg.Models
	basePath := cfg.Base
	if basePath == "" {
		if len(paths) == 0 {
			return nil, errors.New("sweep: give a base model or a list of models")
		}
		basePath, paths = paths[0], paths[1:]
	}
	if len(cfg.Quants) > 0 && cfg.Base == "" {
		return nil, errors.New("sweep: quantizations need a base model to quantize (--base)")
	}
	var models []*entry
	add := func(path string, isBase bool) (*entry, error) {
		m := &entry{path: path, res: &Result{Path: path, IsBase: isBase}}
		if err := cfg.describe(m); err != nil {
			return nil, err
		}
		models = append(models, m)
		return m, nil
	}
	base, err := add(basePath, true)
	if err != nil {
		return nil, err
	}
	for _, p := range paths {
		if _, err := add(p, false); err != nil {
			return nil, err
		}
	}
	if len(cfg.Quants) > 0 {
		var imatrix map[string][]float32
		tag := ""
		if cfg.Imatrix != "" {
			var err error
			if imatrix, err = engine.LoadImatrix(cfg.Imatrix); err != nil {
				return nil, fmt.Errorf("sweep: --imatrix: %w", err)
			}
			sum, err := cfg.Store.Fingerprint(cfg.Imatrix)
			if err != nil {
				return nil, fmt.Errorf("sweep: --imatrix: %w", err)
			}
			tag = "-imat" + sum[:8]
		}
		dir := cfg.QuantDir
		if dir == "" {
			dir = filepath.Dir(basePath)
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("sweep: quantization directory: %w", err)
		}
		// The base's hash is in the name: bases of the same file name
		// (model-f16.gguf of two fine-tunes) share the default directory,
		// and one's quantizations must not be reused for the other.
		stem := strings.TrimSuffix(filepath.Base(basePath), filepath.Ext(basePath)) + "-" + base.res.SHA256[:8]
		for _, q := range cfg.Quants {
			ft, err := gguf.ParseFileType(q)
			if err != nil {
				return nil, fmt.Errorf("sweep: --quants: %w", err)
			}
			out := filepath.Join(dir, fmt.Sprintf("%s-%s%s.gguf", stem, ft, tag))
			if _, err := os.Stat(out); err == nil {
				cfg.logf("%s: reusing %s", ft, out)
			} else {
				cfg.logf("%s: quantizing %s", ft, basePath)
				err := engine.Quantize(basePath, out, engine.QuantizeOptions{FileType: ft.String(), Threads: cfg.Engine.Threads, Imatrix: imatrix})
				if err != nil {
					if !errors.Is(err, engine.ErrQuantizeRefused) {
						return nil, fmt.Errorf("sweep: %w", err)
					}
					cfg.logf("%s: %v; continuing with the rest", ft, err)
					models = append(models, &entry{path: out, res: &Result{Name: ft.String(), Path: out, FileType: ft.String(), Quantized: true,
						Error: fmt.Sprintf("llama.cpp refused to quantize %s to %s (see the log; block quantizations need rows that are a multiple of the block size)", filepath.Base(basePath), ft)}})
					continue
				}
			}
			m, err := add(out, false)
			if err != nil {
				return nil, err
			}
			m.res.Quantized = true
		}
	}
	for _, m := range models[1:] {
		if m.res.Error == "" && m.vocab != models[0].vocab {
			return nil, fmt.Errorf("sweep: %s has a %s, the base %s a %s: KL divergence needs the same vocabulary", m.path, m.vocab, models[0].path, models[0].vocab)
		}
	}
	// Names: the file type, or the file name where types repeat.
	count := map[string]int{}
	for _, m := range models {
		count[m.res.FileType]++
	}
	for _, m := range models {
		if m.res.Name == "" {
			m.res.Name = m.res.FileType
			if count[m.res.FileType] > 1 {
				m.res.Name = strings.TrimSuffix(filepath.Base(m.path), ".gguf")
			}
		}
	}
	return models, nil
}

// describe fills a model's file facts and hash.
func (cfg *Config) describe(m *entry) error {
	gf, err := gguf.Open(m.path)
	if err != nil {
		return fmt.Errorf("sweep: %w", err)
	}
	f := gf.Facts()
	m.vocab = fmt.Sprintf("%s tokenizer with %d tokens", f.TokenizerModel, f.VocabSize)
	if len(gf.Tensors) == 0 {
		return fmt.Errorf("sweep: %s has no tensors (a vocabulary-only GGUF?)", m.path)
	}
	m.res.FileType, m.res.FileSize, m.res.Params, m.res.BitsPerWeight = f.FileType, f.FileSize, f.Params, f.BitsPerWeight
	if m.res.SHA256, err = cfg.Store.Fingerprint(m.path); err != nil {
		return fmt.Errorf("sweep: %w", err)
	}
	return nil
}

// layouts tokenizes the text with the base's tokenizer and lays out the
// llama.cpp chunks and the lm-eval rolling windows.
// docPos[i] is the number of rolling positions of document i.
func (cfg *Config) layouts(path string, opts engine.Options) (chunks, rolls []engine.DistRequest, docPos []int, err error) {
	vo := opts
	vo.VocabOnly = true
	m, err := engine.Load(path, vo)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("sweep: %w", err)
	}
	defer m.Close()
	info := m.Settings()
	addBOS := info.AddBOS // Options.AddBOS applied
	// llama.cpp: the whole text tokenized once, BOS added when the model
	// adds one, special-token texts left as text.
	toks, err := m.Tokenize(strings.Join(cfg.Docs, "\n\n"), addBOS, false)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("sweep: %w", err)
	}
	bos := int32(-1)
	if addBOS {
		bos = info.BOS
	}
	if len(toks) < 2*cfg.ChunkSize {
		return nil, nil, nil, fmt.Errorf("sweep: the text has %d tokens; llama.cpp's perplexity with chunk size %d needs at least %d (use a smaller --chunk_size or more text)", len(toks), cfg.ChunkSize, 2*cfg.ChunkSize)
	}
	if chunks, err = engine.PerplexityRequests(toks, cfg.ChunkSize, bos); err != nil {
		return nil, nil, nil, fmt.Errorf("sweep: %w", err)
	}
	// lm-eval: each document encoded as tok_encode does (Model.Encode),
	// windows of max_length with the prefix token (prefix_token_id: BOS,
	// else EOS) before the first, as Model.LoglikelihoodRolling.
	prefix := info.PrefixToken
	for i, doc := range cfg.Docs {
		t, err := m.Encode(doc)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("sweep: document %d: %w", i, err)
		}
		if opts.SkipLeadingBOS && len(t) > 0 && t[0] == prefix {
			t = t[1:]
		}
		wins, err := engine.RollingWindows(t, prefix, cfg.MaxLength, 1)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("sweep: document %d: %w", i, err)
		}
		docPos = append(docPos, len(t))
		for _, w := range wins {
			full := append(append([]int32(nil), w.Context...), w.Continuation...)
			rolls = append(rolls, engine.DistRequest{Input: full[:len(full)-1], Targets: w.Continuation})
		}
	}
	if len(rolls) == 0 {
		return nil, nil, nil, errors.New("sweep: the documents have no tokens")
	}
	return chunks, rolls, docPos, nil
}

var wordSplit = regexp.MustCompile(`\s+`)

// rollingStats sums the per-token log-probs into lm-eval's rolling
// metrics. The documents' positions are consecutive in lps.
func rollingStats(lps []float64, docs []string) *Rolling {
	if lps == nil {
		return nil
	}
	r := &Rolling{PPL: Perplexity(lps), Docs: len(docs)}
	words, bytes := 0, 0
	for _, d := range docs {
		// lm-eval's wikitext: len(re.split(r"\s+", doc)), len(doc.encode()).
		words += len(wordSplit.Split(d, -1))
		bytes += len(d)
	}
	for _, lp := range lps {
		r.LogLikelihood += lp
	}
	r.WordPerplexity = math.Exp(-r.LogLikelihood / float64(words))
	r.BytePerplexity = math.Exp(-r.LogLikelihood / float64(bytes))
	r.BitsPerByte = -r.LogLikelihood / float64(bytes) / math.Ln2
	return r
}

// pairTasks fills each model score's difference against the base's and,
// with per-document values, the paired statistics (stats.Compare: the
// bootstrap seeded per task metric) and Holm's correction over the
// model's tested metrics.
func pairTasks(base, model []TaskScore) {
	var tested []*TaskScore
	for i := range model {
		s := &model[i]
		for _, b := range base {
			if b.Task != s.Task || b.Metric != s.Metric {
				continue
			}
			d := s.Value - b.Value
			s.Delta = &d
			// Paired statistics need per-document values whose mean is the
			// score (not a corpus-level metric such as perplexity).
			if len(b.PerDoc) == len(s.PerDoc) && len(s.PerDoc) > 0 && stats.IsMean(b.PerDoc, b.Value) && stats.IsMean(s.PerDoc, s.Value) {
				r := stats.Compare(b.PerDoc, s.PerDoc, stats.Options{Seed: taskSeed(s.Task, s.Metric)})
				r.Replicates = nil
				s.Paired, s.Test = &r, r.Test
				if !math.IsNaN(r.P) {
					// No p-value (every document scored the same, or one
					// document): P stays unset, JSON has no NaN.
					s.P = &r.P
					tested = append(tested, s)
				}
			}
		}
	}
	ps := make([]float64, len(tested))
	for i, s := range tested {
		ps[i] = *s.P
	}
	for i, p := range stats.Holm(ps) {
		if !math.IsNaN(p) {
			tested[i].PHolm = &p
		}
	}
}

// taskSeed is the bootstrap seed of a task metric: fixed, and different
// per metric so that the bootstraps are independent.
func taskSeed(task, metric string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(task + "\x00" + metric))
	return 1234 ^ h.Sum64()
}
