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
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/lmeval/lmeval/engine"
	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/harness/progress"
	"github.com/lmeval/lmeval/hub"
)

func init() {
	model.Register("llama", New)
	model.Register("gguf", New)
}

// LM is an engine.Model seen as a model.LM.
type LM struct {
	m *engine.Model
}

var (
	_ model.LM        = (*LM)(nil)
	_ model.Closer    = (*LM)(nil)
	_ model.Describer = (*LM)(nil)
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
	{names: []string{"n_ctx"}, set: intOpt(func(o *engine.Options) *int { return &o.NCtx })},
	{names: []string{"max_length"}, set: intOpt(func(o *engine.Options) *int { return &o.MaxLength })},
	{names: []string{"n_batch"}, set: intOpt(func(o *engine.Options) *int { return &o.NBatch })},
	{names: []string{"n_ubatch"}, set: intOpt(func(o *engine.Options) *int { return &o.NUBatch })},
	{names: []string{"n_seq_max"}, set: intOpt(func(o *engine.Options) *int { return &o.NSeqMax })},
	{names: []string{"batch_size"}, set: setBatchSize},
	{names: []string{"threads", "n_threads"}, set: intOpt(func(o *engine.Options) *int { return &o.Threads })},
	{names: []string{"n_gpu_layers"}, set: func(o *engine.Options, v string) error {
		n, err := strconv.Atoi(v)
		o.NGPULayers = n
		if err == nil && n == 0 {
			o.CPUOnly = true
		}
		return err
	}},
	{names: []string{"cpu_only"}, set: boolOpt(func(o *engine.Options) *bool { return &o.CPUOnly })},
	{names: []string{"main_gpu"}, set: intOpt(func(o *engine.Options) *int { return &o.MainGPU })},
	{names: []string{"split_mode"}, set: func(o *engine.Options, v string) error { o.SplitMode = v; return nil }},
	{names: []string{"tensor_split"}, set: func(o *engine.Options, v string) error {
		for _, f := range strings.FieldsFunc(v, func(r rune) bool { return r == '/' || r == ';' || r == ' ' }) {
			x, err := strconv.ParseFloat(f, 32)
			if err != nil {
				return err
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
		n, err := strconv.ParseInt(v, 10, 32)
		t := int32(n)
		o.PrefixToken = &t
		return err
	}},
	{names: []string{"seed"}, set: func(o *engine.Options, v string) error {
		n, err := strconv.ParseInt(v, 10, 64)
		o.Seed = n
		return err
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
	{names: []string{"max_batch_size"}, set: func(o *engine.Options, v string) error {
		n, err := strconv.Atoi(v)
		o.MaxBatchSize = n
		if err == nil && n < 1 {
			return fmt.Errorf("want a positive integer")
		}
		return err
	}},
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

func intOpt(field func(*engine.Options) *int) func(*engine.Options, string) error {
	return func(o *engine.Options, v string) error {
		n, err := strconv.Atoi(v)
		*field(o) = n
		return err
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
	return &LM{m: m}, nil
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
	in := make([]engine.GenerateRequest, len(reqs))
	for i, r := range reqs {
		in[i] = engine.GenerateRequest{
			Context: r.Context, Until: r.Until, MaxGenToks: r.MaxGenToks, DoSample: r.DoSample,
			Temperature: r.Temperature, TopP: r.TopP, TopK: r.TopK, Seed: r.Seed,
		}
	}
	out, err := l.m.GenerateUntil(withProgress(ctx), in)
	return out, requestError(err)
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
func (l *LM) Close() error { return l.m.Close() }

// Describe implements model.Describer: the model's facts and the engine's
// settings and work counters, for the results file.
func (l *LM) Describe() map[string]any {
	f := l.m.Facts()
	in := l.m.Info()
	st := l.m.Stats()
	d := map[string]any{
		"backend":            "llama",
		"model_path":         in.Path,
		"architecture":       f.Architecture,
		"model_name":         f.Name,
		"file_type":          f.FileType,
		"params":             in.NParams,
		"file_size":          f.FileSize,
		"bits_per_weight":    f.BitsPerWeight,
		"n_ctx_train":        in.NCtxTrain,
		"n_ctx":              in.NCtx,
		"max_length":         in.MaxLength,
		"n_batch":            in.NBatch,
		"n_ubatch":           in.NUBatch,
		"n_seq_max":          in.NSeqMax,
		"batch_size":         in.Batch,
		"kv_bytes_per_token": in.KVBytesPerToken,
		"threads":            in.Threads,
		"n_gpu_layers":       in.GPULayers,
		"device":             in.Backend,
		"flash_attn":         in.FlashAttn,
		"type_k":             in.TypeK,
		"type_v":             in.TypeV,
		"add_bos_token":      in.AddBOS,
		"prefix_token_id":    in.PrefixToken,
		"vocab_size":         in.NVocab,
		"llama_cpp_commit":   in.Commit,
		"tokens_requested":   st.TokensRequested,
		"tokens_decoded":     st.TokensDecoded,
		"truncated":          st.Truncated,
	}
	if in.Batch == "auto" {
		d["free_memory"] = in.FreeMemory
		d["n_ctx_max"] = in.NCtxMax
		d["cache_growths"] = st.CacheGrowths
	}
	// The devices the layers run on, so that a GPU run that fell back to
	// the CPU shows: none, and "device" cpu.
	devs := make([]map[string]any, 0, len(in.Devices))
	for _, dv := range in.Devices {
		devs = append(devs, map[string]any{
			"name": dv.Name, "description": dv.Description, "backend": dv.Backend,
			"memory_total": dv.Total, "memory_free": dv.Free,
		})
	}
	d["devices"] = devs
	return d
}
