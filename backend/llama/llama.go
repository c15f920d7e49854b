// Package llama adapts the in-process llama.cpp engine to the harness's
// model.LM interface and registers it as the "llama" and "gguf" backends.
//
// model_args follow lm-eval's style (pretrained=model.gguf,n_ctx=4096); see
// docs/engine.md for each one.
package llama

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/lmeval/lmeval/engine"
	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/harness/progress"
	"github.com/lmeval/lmeval/hub"
	"github.com/lmeval/lmeval/internal/filehash"
)

func init() {
	model.Register("llama", New)
	model.Register("gguf", New)
}

// LM is an engine.Model seen as a model.LM.
type LM struct {
	m    *engine.Model
	hash *fileHash // the model file's sha256 (New)
}

var (
	_ model.LM                 = (*LM)(nil)
	_ model.Closer             = (*LM)(nil)
	_ model.Describer          = (*LM)(nil)
	_ model.FileHasher         = (*LM)(nil)
	_ model.TokenCounter       = (*LM)(nil)
	_ model.ChatTemplateSource = (*LM)(nil)
	_ model.TokenPiecer        = (*LM)(nil)
	_ model.Generator          = (*LM)(nil)
)

// A modelArg is one model_arg of the llama backend, defined once: its
// names (the first canonical, the others aliases), how its value sets the
// engine's options, and whether it is a Hugging Face argument accepted and
// ignored. The error on unknown arguments lists them, and a test checks
// the README's and docs/engine.md's model_args tables against them.
type modelArg struct {
	names []string
	set   func(o *engine.Options, v string) error // nil: no engine option (the path, ignored arguments)
	// ignored: a Hugging Face argument with no meaning for a GGUF file,
	// accepted so that lm-eval command lines carry over.
	ignored bool
}

var modelArgs = []modelArg{
	{names: []string{"pretrained", "model"}}, // the model's path: Options reads it
	// Sizes are positive: 0 would silently mean the default. llama.cpp
	// raises some (n_ctx to a multiple of 256); New says so.
	{names: []string{"n_ctx"}, set: intOpt(1, 0, "", func(o *engine.Options) *int { return &o.NCtx })},
	{names: []string{"max_length"}, set: intOpt(1, 0, "", func(o *engine.Options) *int { return &o.MaxLength })},
	{names: []string{"n_batch"}, set: intOpt(1, 0, "", func(o *engine.Options) *int { return &o.NBatch })},
	{names: []string{"n_ubatch"}, set: intOpt(1, 0, "", func(o *engine.Options) *int { return &o.NUBatch })},
	{names: []string{"n_seq_max"}, set: intOpt(1, engine.MaxSequences, "", func(o *engine.Options) *int { return &o.NSeqMax })},
	{names: []string{"batch_size"}, set: setBatchSize},
	{names: []string{"threads", "n_threads"}, set: intOpt(1, 0, "", func(o *engine.Options) *int { return &o.Threads })},
	{names: []string{"n_gpu_layers"}, set: func(o *engine.Options, v string) error {
		err := intOpt(-1, 0, " (-1: all layers, 0: none)", func(o *engine.Options) *int { return &o.NGPULayers })(o, v)
		if err == nil && o.NGPULayers == 0 {
			o.CPUOnly = true
		}
		return err
	}},
	{names: []string{"cpu_only"}, set: boolOpt(func(o *engine.Options) *bool { return &o.CPUOnly })},
	{names: []string{"main_gpu"}, set: intOpt(0, 0, "", func(o *engine.Options) *int { return &o.MainGPU })},
	{names: []string{"split_mode"}, set: func(o *engine.Options, v string) error { o.SplitMode = v; return nil }},
	{names: []string{"tensor_split"}, set: func(o *engine.Options, v string) error {
		for _, f := range strings.FieldsFunc(v, func(r rune) bool { return r == '/' || r == ';' || r == ' ' }) {
			x, err := strconv.ParseFloat(f, 32)
			if err != nil || x < 0 || math.IsNaN(x) || math.IsInf(x, 0) {
				return errors.New("want non-negative proportions such as 3/1")
			}
			o.TensorSplit = append(o.TensorSplit, float32(x))
		}
		return nil
	}},
	{names: []string{"flash_attn"}, set: func(o *engine.Options, v string) error { o.FlashAttn = v; return nil }},
	{names: []string{"type_k"}, set: func(o *engine.Options, v string) error { o.TypeK = v; return nil }},
	{names: []string{"type_v"}, set: func(o *engine.Options, v string) error { o.TypeV = v; return nil }},
	{names: []string{"add_bos_token"}, set: func(o *engine.Options, v string) error {
		b, err := parseBool(v)
		o.AddBOS = &b
		return err
	}},
	{names: []string{"prefix_token_id"}, set: func(o *engine.Options, v string) error {
		var n int // below the vocabulary's size, which Load checks
		if err := intOpt(0, 0, "", func(*engine.Options) *int { return &n })(o, v); err != nil {
			return err
		}
		t := int32(min(n, math.MaxInt32))
		o.PrefixToken = &t
		return nil
	}},
	{names: []string{"seed"}, set: func(o *engine.Options, v string) error {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return errors.New("not an integer")
		}
		o.Seed = n
		return nil
	}},
	{names: []string{"prefix_sharing"}, set: func(o *engine.Options, v string) error {
		b, err := parseBool(v)
		o.NoPrefixSharing = !b
		return err
	}},
	{names: []string{"skip_leading_bos"}, set: boolOpt(func(o *engine.Options) *bool { return &o.SkipLeadingBOS })},
	{names: []string{"use_mmap"}, set: func(o *engine.Options, v string) error {
		b, err := parseBool(v)
		o.NoMmap = !b
		return err
	}},
	// The most sequences auto may pick.
	{names: []string{"max_batch_size"}, set: intOpt(1, engine.MaxSequences, "", func(o *engine.Options) *int { return &o.MaxBatchSize })},
	{names: []string{"memory_budget"}, set: func(o *engine.Options, v string) (err error) {
		o.MemoryBudget, err = parseBytes(v)
		return err
	}},
	{names: []string{"device"}, ignored: true},
	{names: []string{"dtype"}, ignored: true},
	{names: []string{"trust_remote_code"}, ignored: true},
}

// argNames lists every accepted model_arg, aliases included, in the
// table's order, for the error on unknown ones; argsByName finds each.
var argNames, argsByName = func() ([]string, map[string]*modelArg) {
	var names []string
	byName := map[string]*modelArg{}
	for i := range modelArgs {
		for _, n := range modelArgs[i].names {
			names = append(names, n)
			byName[n] = &modelArgs[i]
		}
	}
	return names, byName
}()

// intOpt sets an integer option from lo to hi (hi 0: no bound); note
// follows the range in the error.
func intOpt(lo, hi int, note string, field func(*engine.Options) *int) func(*engine.Options, string) error {
	want := fmt.Sprintf("want an integer from %d up%s", lo, note)
	if hi != 0 {
		want = fmt.Sprintf("want an integer from %d to %d%s", lo, hi, note)
	}
	return func(o *engine.Options, v string) error {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		switch {
		case err != nil:
			return errors.New("not an integer; " + want)
		case n < lo || (hi != 0 && n > hi):
			return errors.New(want)
		}
		*field(o) = n
		return nil
	}
}

func boolOpt(field func(*engine.Options) *bool) func(*engine.Options, string) error {
	return func(o *engine.Options, v string) error {
		b, err := parseBool(v)
		*field(o) = b
		return err
	}
}

// setBatchSize reads lm-eval's batch size with the parser every layer
// uses (model.ParseBatchSize). auto sizes the context to free memory;
// auto:N is auto (lm-eval re-tunes N times as requests get shorter; the
// engine re-packs every decode by tokens, so there is nothing to re-tune).
// A fixed size is bounded by llama.cpp's limit on sequences.
func setBatchSize(o *engine.Options, v string) error {
	b, err := model.ParseBatchSize(v)
	switch {
	case err == nil && b.Auto:
		o.AutoBatch = true
	case err == nil && b.Size <= engine.MaxSequences:
		o.BatchSize = b.Size
	case strings.HasPrefix(strings.ToLower(strings.TrimSpace(v)), "auto"):
		return fmt.Errorf("want %s", model.BatchSizeForms)
	default:
		return fmt.Errorf("want 1 to %d (llama.cpp's limit on sequences), auto, or auto:N", engine.MaxSequences)
	}
	return nil
}

// Options parses model_args into engine options and the model path (or Hub
// reference) to load.
func Options(args model.Args) (string, engine.Options, error) {
	path := args["pretrained"]
	if path == "" {
		path = args["model"]
	}
	if path == "" {
		return "", engine.Options{}, fmt.Errorf("model_args: pretrained=PATH.gguf is required")
	}
	o, err := EngineOptions(args)
	if err != nil {
		return "", o, err
	}
	return path, o, nil
}

// EngineOptions parses every model_arg but the model's path (pretrained,
// model, which it ignores) into engine options: what Options does for
// commands, such as sweep, that name their models otherwise.
func EngineOptions(args model.Args) (engine.Options, error) {
	var o engine.Options
	for _, k := range slices.Sorted(maps.Keys(args)) {
		v := args[k]
		a, ok := argsByName[k]
		if !ok {
			return o, fmt.Errorf("model_args: unknown argument %q (known: %s)", k, strings.Join(argNames, ", "))
		}
		if a.set == nil {
			continue
		}
		if err := a.set(&o, v); err != nil {
			return o, fmt.Errorf("model_args: %s=%s: %w", k, v, err)
		}
	}
	return o, nil
}

// parseBytes reads a byte count: a number with an optional unit (K, M,
// G, T, binary: 8G is 8 GiB).
func parseBytes(s string) (int64, error) {
	t := strings.TrimSuffix(strings.TrimSuffix(strings.ToUpper(strings.TrimSpace(s)), "B"), "I")
	mult := int64(1)
	if t != "" {
		if i := strings.IndexByte("KMGT", t[len(t)-1]); i >= 0 {
			mult = int64(1) << (10 * (i + 1))
			t = t[:len(t)-1]
		}
	}
	x, err := strconv.ParseFloat(strings.TrimSpace(t), 64)
	if err != nil || x <= 0 || x*float64(mult) > 1<<62 {
		return 0, fmt.Errorf("want a positive byte count such as 8G or 512M")
	}
	return int64(x * float64(mult)), nil
}

func parseBool(s string) (bool, error) {
	switch strings.ToLower(s) {
	case "1", "true", "yes", "on":
		return true, nil
	case "0", "false", "no", "off":
		return false, nil
	}
	return false, fmt.Errorf("not a boolean")
}

// New loads the model named by args (a local GGUF path or a Hub reference,
// which is downloaded first). The download and the loading get bars from
// the progress display in ctx (progress.NewContext), when it draws them.
func New(ctx context.Context, args model.Args) (model.LM, error) {
	path, opts, err := Options(args)
	if err != nil {
		return nil, err
	}
	disp := progress.FromContext(ctx)
	if _, statErr := os.Stat(path); statErr != nil {
		if _, ok := hub.ParseModelRef(path); ok {
			path, err = hub.New(hub.Options{Progress: disp.Writer()}).ResolveModel(ctx, path)
			if err != nil {
				return nil, fmt.Errorf("model %s: %w", args["pretrained"], err)
			}
		}
	}
	if disp.Enabled() {
		var size int64
		if fi, err := os.Stat(path); err == nil {
			size = fi.Size()
		}
		bar := disp.Meter("loading "+filepath.Base(path), size)
		defer bar.Close()
		opts.LoadProgress = bar.Set
	}
	m, err := engine.Load(path, opts)
	if err != nil {
		return nil, err
	}
	sayAdjusted(opts, m.Settings())
	// The file's sha256 is for the results; it is computed while the
	// model runs.
	return &LM{m: m, hash: hashInBackground(m.Settings().Path)}, nil
}

// sayAdjusted warns about the sizes given in model_args that the engine
// did not use as given (llama.cpp pads n_ctx to a multiple of 256, caps
// n_ubatch at n_batch): the run's settings are then not the ones asked
// for, and the results record the ones used.
func sayAdjusted(o engine.Options, in engine.Settings) {
	for _, a := range []struct {
		arg         string
		asked, used int
		why         string
	}{
		{"n_ctx", o.NCtx, in.NCtx, "llama.cpp pads the KV cache to a multiple of 256 cells"},
		{"max_length", o.MaxLength, in.MaxLength, ""},
		{"n_batch", o.NBatch, in.NBatch, ""},
		{"n_ubatch", o.NUBatch, in.NUBatch, "llama.cpp keeps n_ubatch at most n_batch"},
		{"n_seq_max", o.NSeqMax, in.NSeqMax, ""},
		{"threads", o.Threads, in.Threads, ""},
	} {
		if a.asked <= 0 || a.asked == a.used {
			continue
		}
		verb := "raised"
		if a.used < a.asked {
			verb = "lowered"
		}
		args := []any{"arg", a.arg, "asked", a.asked, "used", a.used}
		if a.why != "" {
			args = append(args, "why", a.why)
		}
		slog.Warn("model_args: "+a.arg+" "+verb+" by the engine", args...)
	}
}

// withProgress passes the harness's progress reporter in ctx, if any, on to
// the engine, which reports requests as they finish.
func withProgress(ctx context.Context) context.Context {
	if r := progress.ReporterFromContext(ctx); r != nil {
		return engine.WithProgress(ctx, r.Add)
	}
	return ctx
}

// Wrap adapts an already loaded model.
func Wrap(m *engine.Model) *LM { return &LM{m: m} }

// Model returns the underlying engine model.
func (l *LM) Model() *engine.Model { return l.m }

// Loglikelihood implements model.LM.
func (l *LM) Loglikelihood(ctx context.Context, reqs []model.LoglikelihoodRequest) ([]model.LoglikelihoodResult, error) {
	in := make([]engine.LoglikelihoodRequest, len(reqs))
	for i, r := range reqs {
		in[i] = engine.LoglikelihoodRequest{Context: r.Context, Continuation: r.Continuation}
	}
	res, err := l.m.Loglikelihood(withProgress(ctx), in)
	if err != nil {
		return nil, requestError(err)
	}
	out := make([]model.LoglikelihoodResult, len(res))
	for i, r := range res {
		out[i] = model.LoglikelihoodResult{LogProb: r.LogProb, IsGreedy: r.IsGreedy, NumTokens: r.NumTokens}
	}
	return out, nil
}

// LoglikelihoodRolling implements model.LM.
func (l *LM) LoglikelihoodRolling(ctx context.Context, reqs []model.RollingRequest) ([]model.RollingResult, error) {
	texts := make([]string, len(reqs))
	for i, r := range reqs {
		texts[i] = r.Text
	}
	res, err := l.m.LoglikelihoodRolling(withProgress(ctx), texts)
	if err != nil {
		return nil, requestError(err)
	}
	out := make([]model.RollingResult, len(res))
	for i, r := range res {
		out[i] = model.RollingResult{LogProb: r.LogProb, NumTokens: r.NumTokens}
	}
	return out, nil
}

// GenerateUntil implements model.LM.
func (l *LM) GenerateUntil(ctx context.Context, reqs []model.GenerateRequest) ([]string, error) {
	out, err := l.m.GenerateUntil(withProgress(ctx), generateRequests(reqs))
	return out, requestError(err)
}

// Generate implements model.Generator: the engine counts the tokens it
// generates and bounds reasoning traces.
func (l *LM) Generate(ctx context.Context, reqs []model.GenerateRequest) ([]model.Generation, error) {
	gens, err := l.m.Generate(withProgress(ctx), generateRequests(reqs))
	if err != nil {
		return nil, requestError(err)
	}
	out := make([]model.Generation, len(gens))
	for i, g := range gens {
		out[i] = model.Generation{Text: g.Text, Tokens: len(g.Tokens), ReasoningTokens: g.ReasoningTokens, BudgetHit: g.BudgetHit}
	}
	return out, nil
}

func generateRequests(reqs []model.GenerateRequest) []engine.GenerateRequest {
	in := make([]engine.GenerateRequest, len(reqs))
	for i, r := range reqs {
		in[i] = engine.GenerateRequest{
			Context: r.Context, Until: r.Until, MaxGenToks: r.MaxGenToks, DoSample: r.DoSample,
			Temperature: r.Temperature, TopP: r.TopP, TopK: r.TopK, Seed: r.Seed,
		}
		if x := r.Reasoning; x != nil {
			in[i].Reasoning = &engine.Reasoning{Start: x.Start, End: x.End, Budget: x.Budget, Message: x.Message}
		}
	}
	return in
}

// requestError passes the engine's error for one bad request on as the
// harness's, so the evaluator can name its task and document.
func requestError(err error) error {
	var re *engine.RequestError
	if errors.As(err, &re) {
		return &model.RequestError{Index: re.Index, Err: err}
	}
	return err
}

// TokenPiece returns one token's text (special tokens included), for a
// think_end_token given as a token id.
func (l *LM) TokenPiece(id int32) string { return l.m.TokenPiece(id) }

// Close implements model.Closer.
func (l *LM) Close() error {
	if l.hash != nil {
		l.hash.cancel()
	}
	return l.m.Close()
}

// Describe implements model.Describer: the model's facts and the engine's
// settings and work counters, for the results file and the cache
// identity. It does not wait for the model file's sha256 (SHA256).
func (l *LM) Describe() model.Description {
	f := l.m.Facts()
	in := l.m.Settings()
	st := l.m.Stats()
	file := &model.ModelFile{
		Path: in.Path, Name: f.Name, Architecture: f.Architecture, FileType: f.FileType,
		Params: in.NParams, FileSize: f.FileSize, BitsPerWeight: f.BitsPerWeight,
		NCtxTrain: in.NCtxTrain, VocabSize: in.NVocab,
	}
	eng := &Engine{
		NCtx: in.NCtx, MaxLength: in.MaxLength, NBatch: in.NBatch, NUBatch: in.NUBatch, NSeqMax: in.NSeqMax,
		Threads: in.Threads, NGPULayers: in.GPULayers, Device: in.Backend,
		FlashAttn: in.FlashAttn, TypeK: in.TypeK, TypeV: in.TypeV, AddBOS: in.AddBOS,
		BatchSize: in.Batch, KVBytesPerToken: in.KVBytesPerToken, PrefixTokenID: in.PrefixToken,
		// The devices the layers run on, so that a GPU run that fell back
		// to the CPU shows: none, and device cpu.
		Devices: make([]Device, 0, len(in.Devices)),
	}
	if in.Batch == "auto" {
		eng.FreeMemory, eng.NCtxMax, eng.CacheGrowths = &in.FreeMemory, &in.NCtxMax, &st.CacheGrowths
	}
	for _, dv := range in.Devices {
		eng.Devices = append(eng.Devices, Device{
			Name: dv.Name, Description: dv.Description, Backend: dv.Backend,
			MemoryTotal: dv.Total, MemoryFree: dv.Free,
		})
	}
	return model.Description{
		Backend: "llama", File: file, Facts: eng, EngineCommit: in.Commit,
		Work: &model.Work{TokensRequested: st.TokensRequested, TokensDecoded: st.TokensDecoded, Truncated: st.Truncated},
	}
}

// SHA256 implements model.FileHasher: it waits for the model file's
// sha256, which New starts computing in the background ("" and no error
// for a model not loaded by New).
func (l *LM) SHA256() (string, error) {
	if l.hash == nil {
		return "", nil
	}
	return l.hash.wait()
}

// SetSHA256 implements model.FileHasher: the response cache knows the
// file's sha256, so the background hash stops.
func (l *LM) SetSHA256(sum string) {
	if l.hash != nil {
		l.hash.set(sum)
	}
}

// fileHash is a model file's sha256, computed in the background unless
// someone who knows it says so first.
type fileHash struct {
	cancel context.CancelFunc
	done   chan struct{}
	once   sync.Once
	sum    string
	err    error
}

func hashInBackground(path string) *fileHash {
	ctx, cancel := context.WithCancel(context.Background())
	h := &fileHash{cancel: cancel, done: make(chan struct{})}
	go func() {
		sum, err := filehash.SHA256(ctx, path)
		if ctx.Err() == nil && err != nil {
			slog.Warn("model file fingerprint", "path", path, "err", err)
		}
		h.finish(sum, err)
	}()
	return h
}

func (h *fileHash) finish(sum string, err error) {
	h.once.Do(func() {
		h.sum, h.err = sum, err
		h.cancel()
		close(h.done)
	})
}

func (h *fileHash) set(sum string) { h.finish(sum, nil) }

func (h *fileHash) wait() (string, error) {
	<-h.done
	return h.sum, h.err
}
