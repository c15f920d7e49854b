package task

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/python/jinja"
	"github.com/lmeval/lmeval/python/pyrand"
	"github.com/lmeval/lmeval/python/pyval"
)

// Templater renders Jinja templates the way lm-eval's Jinja2 environment
// does; *jinja.Env implements it.
type Templater interface {
	Render(src string, vars map[string]any) (string, error)
	// RenderValue is ast.literal_eval(Render(src, vars)).
	RenderValue(src string, vars map[string]any) (any, error)
	Eval(expr string, vars map[string]any) (any, error)
	Compile(src string) error
}

// ColumnsTemplater is a Templater that renders a document with its
// dataset's key order (pyval.Columns), so that its dicts iterate as
// Python's do: *jinja.Env implements it. The task uses it when its
// loader gave the column order.
type ColumnsTemplater interface {
	RenderColumns(src string, vars map[string]any, cols *pyval.Columns) (string, error)
	RenderValueColumns(src string, vars map[string]any, cols *pyval.Columns) (any, error)
}

// DatasetSpec names a task's dataset: dataset_path, dataset_name and
// dataset_kwargs (harness/dataset.Spec's fields).
type DatasetSpec struct {
	Path   string
	Name   string
	Kwargs map[string]any
}

// DocLoader returns the documents of one split of a dataset.
type DocLoader func(ctx context.Context, spec DatasetSpec, split string) ([]Doc, error)

// ColumnLoader returns the column order of one split of a dataset, as the
// DocLoader's documents have it in the dataset (see pyval.Columns).
type ColumnLoader func(ctx context.Context, spec DatasetSpec, split string) (*pyval.Columns, error)

// DefaultFewshotSeed is lm-eval's default --fewshot_random_seed.
const DefaultFewshotSeed = 1234

// Task is one task: its config and, once Build has run, its documents,
// prompts and requests.
type Task struct {
	Name   string
	Config *Config

	// Set by Build.
	NumFewshot     int  // shots requested per document
	MultipleInput  bool // the choices are contexts and the target the continuation (winogrande)
	MultipleTarget bool // doc_to_target returns several gold answers
	EvalSplit      string
	NumEvalDocs    int        // documents in the evaluation split, before --limit/--samples
	Docs           []*DocInfo // the evaluated documents, in order
	Instances      []Instance // every request, document by document
	Fewshot        FewshotReport
	// GenKwargsOrder is the order of the requests' generation kwargs'
	// keys in lm-eval's dict: the task's, then --gen_kwargs' new ones.
	GenKwargsOrder []string

	tmpl     Templater
	features map[string]bool
	splits   map[string][]Doc
	columns  map[string]*pyval.Columns // per key of splits; nil: unknown
	docCols  *pyval.Columns            // renderColumns' cache; nil: to compute
	dataset  map[string][]Doc          // custom_dataset output
	random   *pyrand.Module            // the run's Python module generator (BuildOptions.Random)
	rnd      *pyrand.Rand              // the task's stream of it, for a MapDocs.FnRand
}

// moduleRand is the task's stream of Python's module-level generator,
// seeded with the run's random.seed when first used.
func (t *Task) moduleRand() *pyrand.Rand {
	if t.rnd == nil {
		t.rnd = pyrand.New(t.random.Seed())
	}
	return t.rnd
}

// lmevalFewshotSplit is the split lm-eval's fewshot_docs() processes with
// the task's process_docs ("" when none: samples, or the few-shot
// config's own process_docs).
func (c *Config) lmevalFewshotSplit() string {
	switch {
	case c.fewshotSplit() != "":
		if c.Fewshot.ProcessDocs != nil {
			return ""
		}
		return c.fewshotSplit()
	case c.Fewshot.Samples != nil || c.Fewshot.SamplesFunc != nil:
		return ""
	case c.TrainingSplit != "":
		return c.TrainingSplit
	case c.ValidationSplit != "":
		return c.ValidationSplit
	}
	return c.TestSplit
}

// DocInfo is one evaluated document with what the evaluator scores it by.
type DocInfo struct {
	ID    int // lm-eval's doc_id
	Index int // position in the evaluation split
	Doc   Doc
	// Context is the prompt; for multiple_input tasks the shared prefix
	// (description and shots), the per-choice contexts being in Contexts.
	Context  string
	Contexts []string
	// Choices is doc_to_choice's list; nil when the task has none.
	Choices []string
	// Target is doc_to_target as lm-eval returns it: a string, an int or a
	// list. For multiple_input tasks it is the shared continuation.
	Target any
	// Gold is the gold choice index for multiple_choice tasks (-100 when out
	// of range, as lm-eval's check_gold_index_error), -1 otherwise; Golds
	// holds the indices when MultipleTarget.
	Gold  int
	Golds []int
	// Shots is the number of few-shot examples in Context; Cut the number
	// drawn but dropped to fit the context. Shots+Cut can be below the
	// task's num_fewshot without any cut: lm-eval drops the evaluated
	// document from its own shots.
	Shots int
	Cut   int
}

// FewshotReport tells how many shots the documents got.
type FewshotReport struct {
	Requested int // shots asked for per document
	Reduced   int // documents whose shots were cut to fit the context
	MinShots  int // fewest shots any document got
}

// Instance is one request to the model (lm-eval's Instance).
type Instance struct {
	// Type is loglikelihood, loglikelihood_rolling or generate_until
	// (multiple_choice tasks make one loglikelihood request per choice),
	// and says which of the request fields is set; the methods in
	// requests.go are the one place that reads it.
	Type  OutputType
	Task  string
	DocID int
	// Idx is the request's index within its document: the choice index
	// for multiple_choice (unconditional acc_mutual_info requests follow
	// the conditional ones).
	Idx           int
	Doc           *DocInfo
	Loglikelihood model.LoglikelihoodRequest
	Rolling       model.RollingRequest
	Generate      model.GenerateRequest
	// GenKwargs are the generation_kwargs as lm-eval passes them.
	GenKwargs map[string]any
	Repeats   int
}

func newTask(c *Config) *Task {
	return &Task{Name: c.Task, Config: c}
}

// BuildOptions are the run settings that shape prompts and requests.
type BuildOptions struct {
	// Loader provides documents (required unless the task has
	// custom_dataset).
	Loader DocLoader
	// Columns, when set, gives the Loader's splits' column order, which
	// the logged documents keep (Task.Columns); without it their keys are
	// sorted.
	Columns ColumnLoader
	// Limit: a count (>= 1) or a fraction (< 1) of the evaluation
	// documents; 0 for all.
	Limit float64
	// Samples are explicit document indices (exclusive with Limit).
	Samples []int
	// NumFewshot overrides the task's num_fewshot, except where the task
	// sets num_fewshot: 0 (as lm-eval).
	NumFewshot *int
	// FewshotSeed seeds few-shot sampling; nil means 1234.
	FewshotSeed *int64
	// SystemInstruction precedes the description and the shots.
	SystemInstruction string
	// GenKwargs update the task's generation_kwargs (--gen_kwargs);
	// GenKwargsOrder is their keys' order (new keys are appended in it, as
	// Python's dict.update does; keys it lacks follow sorted).
	GenKwargs      map[string]any
	GenKwargsOrder []string
	// CountTokens and MaxTokens, when both set, cut shots from documents
	// whose longest request would exceed MaxTokens (for generate_until,
	// MaxTokens minus max_gen_toks).
	CountTokens func(string) (int, error)
	MaxTokens   int
	// Templates renders Jinja; nil means jinja.New().
	Templates Templater
	// ChatTemplate, when set, builds chat prompts as lm-eval's
	// --apply_chat_template does; FewshotAsMultiturn gives each shot its
	// own user and assistant turns (--fewshot_as_multiturn).
	ChatTemplate       ChatTemplate
	FewshotAsMultiturn bool
	// Random is Python's module-level generator as the run has it
	// (random.seed(seed) of --seed's first value), for the process_docs
	// ports that draw from it; nil means a fresh one seeded with 0.
	Random *pyrand.Module
}

var defaultTemplates = jinja.New()

// LimitCount is lm-eval's get_sample_size: how many of n documents a
// --limit value selects.
func LimitCount(limit float64, n int) int {
	switch {
	case limit <= 0:
		return n
	case limit < 1:
		return min(n, int(math.Ceil(float64(n)*limit)))
	default:
		return min(n, int(limit))
	}
}

// BuildRequests loads the task's documents and builds its prompts and
// requests exactly as lm-eval's build_all_requests does. The documents
// stay cached in the task, so building again with other options does not
// reload them.
func (t *Task) BuildRequests(ctx context.Context, opts BuildOptions) error {
	if err := t.build(ctx, opts); err != nil {
		return fmt.Errorf("task %s: %w", t.Name, err)
	}
	return nil
}

func (t *Task) build(ctx context.Context, opts BuildOptions) error {
	c := t.Config
	t.tmpl = opts.Templates
	if t.tmpl == nil {
		t.tmpl = defaultTemplates
	}
	if t.random = opts.Random; t.random == nil {
		t.random = pyrand.NewModule(0)
	}
	if c.HasImage || c.HasAudio {
		return fmt.Errorf("doc_to_image/doc_to_audio: multimodal tasks are not supported")
	}
	if len(opts.Samples) > 0 && opts.Limit > 0 {
		return fmt.Errorf("--samples and --limit are exclusive")
	}
	t.EvalSplit = c.TestSplit
	if t.EvalSplit == "" {
		t.EvalSplit = c.ValidationSplit
	}
	if t.EvalSplit == "" {
		return fmt.Errorf("dataset (path=%s, name=%s) must have a test_split or validation_split", c.DatasetPath, c.DatasetName)
	}
	// A process_docs drawing from Python's module generator sees the
	// splits in lm-eval's order: the few-shot documents first.
	if c.ProcessDocs != nil && drawsModuleRandom(c.ProcessDocs) {
		if s := c.lmevalFewshotSplit(); s != "" && s != t.EvalSplit {
			if _, err := t.processedSplit(ctx, opts, s); err != nil {
				return err
			}
		}
	}
	evalDocs, err := t.processedSplit(ctx, opts, t.EvalSplit)
	if err != nil {
		return err
	}
	if len(evalDocs) == 0 {
		return fmt.Errorf("split %s has no documents", t.EvalSplit)
	}
	t.NumEvalDocs = len(evalDocs)
	t.features = map[string]bool{}
	for k := range evalDocs[0] {
		t.features[k] = true
	}

	// Probe the first document, as ConfigurableTask.__init__ does.
	first := evalDocs[0]
	text, err := t.DocToText(first, nil)
	if err != nil {
		return fmt.Errorf("doc_to_text on document 0: %w", err)
	}
	target, err := t.DocToTarget(first, nil)
	if err != nil {
		return fmt.Errorf("doc_to_target on document 0: %w", err)
	}
	_, isInt := text.(int)
	t.MultipleInput = c.DocToChoice != nil && isInt
	_, t.MultipleTarget = target.([]any)

	t.NumFewshot = 0
	if c.NumFewshot != nil {
		t.NumFewshot = *c.NumFewshot
	}
	if opts.NumFewshot != nil && (c.NumFewshot == nil || *c.NumFewshot != 0) {
		t.NumFewshot = *opts.NumFewshot
	}
	if t.NumFewshot < 0 {
		return fmt.Errorf("num_fewshot %d is negative", t.NumFewshot)
	}
	if c.Class != nil && t.NumFewshot > 0 {
		return c.Class.fewshotError()
	}

	// Rolling loglikelihood scores the target alone: lm-eval builds (and
	// discards) a few-shot context; no shots are drawn here.
	var smp *sampler
	if t.NumFewshot > 0 && c.OutputType != OutputLoglikelihoodRolling {
		fdocs, err := t.fewshotDocs(ctx, opts)
		if err != nil {
			return err
		}
		seed := int64(DefaultFewshotSeed)
		if opts.FewshotSeed != nil {
			seed = *opts.FewshotSeed
		}
		smp = &sampler{t: t, docs: fdocs, rnd: pyrand.New(seed), kind: c.Fewshot.Sampler}
	}

	genKwargs := pyval.DeepCopy(c.GenerationKwargs).(map[string]any)
	if c.OutputType == OutputGenerateUntil {
		if genKwargs == nil {
			genKwargs = map[string]any{}
		}
		for k, v := range opts.GenKwargs {
			genKwargs[k] = v
		}
	}
	t.GenKwargsOrder = append([]string(nil), c.GenKwargsOrder...)
	for _, k := range opts.GenKwargsOrder {
		if _, ok := opts.GenKwargs[k]; ok && !slices.Contains(t.GenKwargsOrder, k) {
			t.GenKwargsOrder = append(t.GenKwargsOrder, k)
		}
	}

	// The documents to evaluate, as doc_iterator: --samples keep split
	// order and are numbered from 0 among themselves.
	type idDoc struct{ id, index int }
	var order []idDoc
	if len(opts.Samples) > 0 {
		want := map[int]bool{}
		for _, s := range opts.Samples {
			if s < 0 || s >= len(evalDocs) {
				return fmt.Errorf("--samples index %d out of range [0, %d)", s, len(evalDocs))
			}
			want[s] = true
		}
		for i := range evalDocs {
			if want[i] {
				order = append(order, idDoc{len(order), i})
			}
		}
	} else {
		n := LimitCount(opts.Limit, len(evalDocs))
		for i := 0; i < n; i++ {
			order = append(order, idDoc{i, i})
		}
	}

	t.Docs = t.Docs[:0]
	t.Instances = t.Instances[:0]
	t.Fewshot = FewshotReport{Requested: t.NumFewshot, MinShots: t.NumFewshot}
	for _, o := range order {
		if err := ctx.Err(); err != nil {
			return err
		}
		d := &DocInfo{ID: o.id, Index: o.index, Doc: evalDocs[o.index], Gold: -1}
		if err := t.buildDoc(d, smp, genKwargs, opts); err != nil {
			return fmt.Errorf("document %d: %w", o.index, err)
		}
		t.Docs = append(t.Docs, d)
		if d.Cut > 0 {
			t.Fewshot.Reduced++
			t.Fewshot.MinShots = min(t.Fewshot.MinShots, d.Shots)
		}
	}
	if len(t.Instances) == 0 {
		return fmt.Errorf("no documents to evaluate")
	}
	return nil
}

// DataSplits are the splits of the task's dataset Build reads with the
// run's num_fewshot (nil: the task's own): the evaluated split and, for
// few-shot prompts, the one shots come from; none for a custom_dataset.
func (t *Task) DataSplits(numFewshot *int) []string {
	c := t.Config
	eval := c.TestSplit
	if eval == "" {
		eval = c.ValidationSplit
	}
	if eval == "" || c.CustomDataset != nil {
		return nil
	}
	out := []string{eval}
	add := func(s string) {
		if s != "" && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	if c.ProcessDocs != nil && drawsModuleRandom(c.ProcessDocs) {
		add(c.lmevalFewshotSplit())
	}
	shots := 0
	if c.NumFewshot != nil {
		shots = *c.NumFewshot
	}
	if numFewshot != nil && (c.NumFewshot == nil || *c.NumFewshot != 0) {
		shots = *numFewshot
	}
	if shots <= 0 || c.OutputType == OutputLoglikelihoodRolling || c.Class != nil {
		return out
	}
	switch {
	case c.fewshotSplit() != "":
		add(c.fewshotSplit())
	case c.Fewshot.Samples != nil, c.Fewshot.SamplesFunc != nil:
	case c.TrainingSplit != "":
		add(c.TrainingSplit)
	case c.ValidationSplit != "":
		add(c.ValidationSplit)
	default:
		add(c.TestSplit)
	}
	return out
}

func (t *Task) loadSplit(ctx context.Context, opts BuildOptions, split string) ([]Doc, error) {
	if docs, ok := t.splits[split]; ok {
		return docs, nil
	}
	c := t.Config
	var (
		docs []Doc
		err  error
	)
	if c.CustomDataset != nil {
		if t.dataset == nil {
			kw := map[string]any{}
			for k, v := range c.DatasetKwargs {
				kw[k] = v
			}
			for k, v := range c.Metadata {
				kw[k] = v
			}
			switch h := c.CustomDataset.Hook; {
			case h.Dataset != nil:
				t.dataset, err = h.Dataset(kw)
			case h.DatasetLoader != nil:
				t.dataset, err = h.DatasetLoader(ctx, kw, opts.Loader)
			default:
				return nil, h.kindError("custom_dataset "+c.CustomDataset.Name, HookDataset)
			}
			if err != nil {
				return nil, fmt.Errorf("custom_dataset %s: %w", c.CustomDataset.Name, err)
			}
		}
		var ok bool
		if docs, ok = t.dataset[split]; !ok {
			return nil, fmt.Errorf("custom_dataset %s has no split %q", c.CustomDataset.Name, split)
		}
	} else {
		if opts.Loader == nil {
			return nil, fmt.Errorf("no document loader for dataset %s", c.DatasetPath)
		}
		spec := DatasetSpec{Path: c.DatasetPath, Name: c.DatasetName, Kwargs: c.DatasetKwargs}
		docs, err = opts.Loader(ctx, spec, split)
		if err != nil {
			return nil, fmt.Errorf("load split %s: %w", split, err)
		}
		if opts.Columns != nil {
			cols, err := opts.Columns(ctx, spec, split)
			if err != nil {
				return nil, fmt.Errorf("load split %s: %w", split, err)
			}
			t.setColumns(split, cols)
		}
	}
	if t.splits == nil {
		t.splits = map[string][]Doc{}
	}
	t.splits[split] = docs
	return docs, nil
}

func (t *Task) setColumns(key string, cols *pyval.Columns) {
	if t.columns == nil {
		t.columns = map[string]*pyval.Columns{}
	}
	t.columns[key] = cols
	t.docCols = nil
}

// renderColumns is the key order templates see documents in: the
// evaluated split's (after process_docs), then what the other splits (the
// few-shot one) add; nil when the loader gave none. A document does not
// say which split it is from, and a dataset's splits share one schema.
func (t *Task) renderColumns() *pyval.Columns {
	if t.docCols != nil || len(t.columns) == 0 {
		return t.docCols
	}
	cols := &pyval.Columns{}
	first := "\x00processed:" + t.EvalSplit
	cols.Merge(t.columns[first])
	keys := make([]string, 0, len(t.columns))
	for k := range t.columns {
		keys = append(keys, k)
	}
	// Processed splits ("\x00processed:" keys) first: process_docs may
	// have added columns.
	slices.Sort(keys)
	for _, k := range keys {
		if k != first {
			cols.Merge(t.columns[k])
		}
	}
	t.docCols = cols
	return cols
}

// Columns is the column order of the evaluated documents (after
// process_docs), nil when the loader gave none.
func (t *Task) Columns() *pyval.Columns {
	return t.columns["\x00processed:"+t.EvalSplit]
}

// processedSplit is a split after process_docs (training_docs() and
// friends in lm-eval).
func (t *Task) processedSplit(ctx context.Context, opts BuildOptions, split string) ([]Doc, error) {
	key := "\x00processed:" + split
	if docs, ok := t.splits[key]; ok {
		return docs, nil
	}
	docs, err := t.loadSplit(ctx, opts, split)
	if err != nil {
		return nil, err
	}
	cols := t.columns[split]
	if t.Config.ProcessDocs != nil {
		if docs, err = callProcessDocs(t.Config.ProcessDocs, docs, cols, t); err != nil {
			return nil, fmt.Errorf("process_docs on split %s: %w", split, err)
		}
		if cols != nil {
			cols = cols.Mapped(docs, addedColumns(t.Config.ProcessDocs))
		}
	}
	if cols != nil {
		t.setColumns(key, cols)
	}
	t.splits[key] = docs
	return docs, nil
}

// fewshotSplit is the split few-shot examples come from when configured.
func (c *Config) fewshotSplit() string {
	if c.FewshotSplit != "" {
		return c.FewshotSplit
	}
	return c.Fewshot.Split
}

// fewshotDocs are the documents shots are drawn from: fewshot_split,
// fewshot_config.samples, else the training, validation or test split.
func (t *Task) fewshotDocs(ctx context.Context, opts BuildOptions) ([]Doc, error) {
	c := t.Config
	var (
		docs []Doc
		err  error
	)
	switch {
	case c.fewshotSplit() != "":
		if c.Fewshot.ProcessDocs != nil {
			if docs, err = t.loadSplit(ctx, opts, c.fewshotSplit()); err == nil {
				docs, err = callProcessDocs(c.Fewshot.ProcessDocs, docs, t.columns[c.fewshotSplit()], t)
			}
		} else {
			docs, err = t.processedSplit(ctx, opts, c.fewshotSplit())
		}
	case c.Fewshot.Samples != nil:
		docs = c.Fewshot.Samples
		if c.Fewshot.ProcessDocs != nil {
			docs, err = callProcessDocs(c.Fewshot.ProcessDocs, docs, nil, t)
		}
	case c.Fewshot.SamplesFunc != nil:
		if h := c.Fewshot.SamplesFunc.Hook; h.Samples != nil {
			docs, err = h.Samples()
		} else {
			err = h.kindError("fewshot_config.samples "+c.Fewshot.SamplesFunc.Name, HookSamples)
		}
	case c.TrainingSplit != "":
		docs, err = t.processedSplit(ctx, opts, c.TrainingSplit)
	case c.ValidationSplit != "":
		docs, err = t.processedSplit(ctx, opts, c.ValidationSplit)
	default:
		docs, err = t.processedSplit(ctx, opts, c.TestSplit)
	}
	if err != nil {
		return nil, fmt.Errorf("few-shot documents: %w", err)
	}
	if len(c.Fewshot.Indices) > 0 {
		sub := make([]Doc, 0, len(c.Fewshot.Indices))
		for _, i := range c.Fewshot.Indices {
			if i < 0 || i >= len(docs) {
				return nil, fmt.Errorf("fewshot_indices: %d out of range [0, %d)", i, len(docs))
			}
			sub = append(sub, docs[i])
		}
		docs = sub
	}
	return docs, nil
}

func (t *Task) render(src string, doc Doc) (string, error) {
	if ct, ok := t.tmpl.(ColumnsTemplater); ok {
		if cols := t.renderColumns(); cols != nil {
			return ct.RenderColumns(src, doc, cols)
		}
	}
	return t.tmpl.Render(src, doc)
}

func (t *Task) renderValue(src string, doc Doc) (any, error) {
	if ct, ok := t.tmpl.(ColumnsTemplater); ok {
		if cols := t.renderColumns(); cols != nil {
			return ct.RenderValueColumns(src, doc, cols)
		}
	}
	return t.tmpl.RenderValue(src, doc)
}

// isFalsy is Python truthiness for an override argument (`x or default`).
func isFalsy(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string:
		return x == ""
	case int:
		return x == 0
	case []any:
		return len(x) == 0
	}
	return false
}

func normInt(v any) any {
	switch x := v.(type) {
	case int64:
		return int(x)
	}
	return v
}

// DocToText is lm-eval's doc_to_text; spec overrides the config's
// (few-shot doc_to_text) when not nil.
func (t *Task) DocToText(doc Doc, spec any) (any, error) {
	if isFalsy(spec) {
		spec = t.Config.DocToText
	}
	switch s := spec.(type) {
	case int:
		return s, nil
	case string:
		if t.features[s] {
			return normInt(doc[s]), nil
		}
		out, err := t.render(s, doc)
		if err != nil {
			return nil, err
		}
		if pyIsDigit(out) && t.Config.DocToChoice != nil {
			return atoi(out)
		}
		return out, nil
	case *Func:
		v, err := callDoc(s, doc)
		return normInt(v), err
	case nil:
		return nil, fmt.Errorf("doc_to_text is not set")
	}
	return nil, fmt.Errorf("doc_to_text: unsupported %T", spec)
}

func atoi(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, fmt.Errorf("literal_eval %q: %w", s, err)
	}
	return n, nil
}

// DocToTarget is lm-eval's doc_to_target; spec overrides the config's when
// not nil.
func (t *Task) DocToTarget(doc Doc, spec any) (any, error) {
	if spec == nil {
		spec = t.Config.DocToTarget
	}
	switch s := spec.(type) {
	case int:
		return s, nil
	case string:
		if t.features[s] {
			return normInt(doc[s]), nil
		}
		out, err := t.render(s, doc)
		if err != nil {
			return nil, err
		}
		if pyIsDigit(out) && t.Config.DocToChoice != nil {
			return atoi(out)
		}
		if len(out) >= 2 && out[0] == '[' && out[len(out)-1] == ']' {
			if v, err := literalEval(out); err == nil {
				return normList(v), nil
			}
		}
		return out, nil
	case []any:
		return s, nil
	case *Func:
		v, err := callDoc(s, doc)
		return normList(normInt(v)), err
	case nil:
		return nil, fmt.Errorf("doc_to_target is not set")
	}
	return nil, fmt.Errorf("doc_to_target: unsupported %T", spec)
}

func normList(v any) any {
	switch l := v.(type) {
	case []any:
		out := make([]any, len(l))
		for i, e := range l {
			out[i] = normInt(e)
		}
		return out
	case []int:
		out := make([]any, len(l))
		for i, e := range l {
			out[i] = e
		}
		return out
	case []string:
		out := make([]any, len(l))
		for i, e := range l {
			out[i] = e
		}
		return out
	}
	return v
}

// DocToChoice is lm-eval's doc_to_choice, as strings; spec overrides the
// config's when not nil.
func (t *Task) DocToChoice(doc Doc, spec any) ([]string, error) {
	if spec == nil {
		spec = t.Config.DocToChoice
	}
	var v any
	switch s := spec.(type) {
	case string:
		if t.features[s] {
			v = doc[s]
			break
		}
		var err error
		if v, err = t.renderValue(s, doc); err != nil {
			return nil, fmt.Errorf("doc_to_choice: %w", err)
		}
	case []any:
		v = s
	case *Func:
		var err error
		if v, err = callDoc(s, doc); err != nil {
			return nil, err
		}
	case nil:
		return nil, fmt.Errorf("doc_to_choice was called but not set in config")
	default:
		return nil, fmt.Errorf("doc_to_choice: unsupported %T", spec)
	}
	switch l := v.(type) {
	case []string:
		return l, nil
	case []any:
		out := make([]string, len(l))
		for i, e := range l {
			out[i] = pyval.Str(e)
		}
		return out, nil
	case map[string]any:
		return nil, fmt.Errorf("doc_to_choice returned a dict; its order is lost")
	}
	return nil, fmt.Errorf("doc_to_choice must return a list, got %T", v)
}

// GenPrefix is lm-eval's doc_to_prefix: nil when gen_prefix is unset.
func (t *Task) GenPrefix(doc Doc) (*string, error) {
	gp := t.Config.GenPrefix
	if gp == nil {
		return nil, nil
	}
	if t.features[*gp] {
		s := pyval.Str(doc[*gp])
		return &s, nil
	}
	s, err := t.render(*gp, doc)
	if err != nil {
		return nil, fmt.Errorf("gen_prefix: %w", err)
	}
	return &s, nil
}

// ProcessResults calls the task's process_results function; ok is false
// when the task has none and the evaluator scores by metric_list.
func (t *Task) ProcessResults(doc Doc, results []any) (m map[string]any, ok bool, err error) {
	f := t.Config.ProcessResults
	if f == nil {
		return nil, false, nil
	}
	if f.Hook.ProcessResults == nil {
		return nil, true, f.Hook.kindError("process_results "+f.Name, HookProcessResults)
	}
	if m, err = f.Hook.ProcessResults(doc, results); err != nil {
		return nil, true, fmt.Errorf("process_results %s: %w", f.Name, err)
	}
	return m, true, nil
}

// goldIndex is lm-eval's check_gold_index_error for one gold value.
func goldIndex(choices []string, gold any) int {
	switch g := gold.(type) {
	case int:
		if g < len(choices) {
			return g
		}
	case string:
		for i, c := range choices {
			if c == g {
				return i
			}
		}
	}
	return -100
}
