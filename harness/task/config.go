package task

import (
	"fmt"
	"sort"

	"github.com/lmeval/lmeval/harness/filters"
	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/python/pyval"
)

// OutputType is a task's output_type (model.OutputType: the one type, which
// the metrics and the LM's requests share).
type OutputType = model.OutputType

// The output types of lm-eval tasks, by their names in this package.
const (
	OutputLoglikelihood        = model.OutputLoglikelihood
	OutputLoglikelihoodRolling = model.OutputLoglikelihoodRolling
	OutputMultipleChoice       = model.OutputMultipleChoice
	OutputGenerateUntil        = model.OutputGenerateUntil
)

// knownTaskKeys are the TaskConfig fields of lm-eval's docs/task_guide.md
// (lm_eval/config/task.py), plus the structural keys a task file may hold.
var knownTaskKeys = map[string]bool{
	"task": true, "task_alias": true, "tag": true, "group": true, "group_alias": true,
	"class": true, "include": true, "task_list": true,
	"dataset_path": true, "dataset_name": true, "dataset_kwargs": true, "custom_dataset": true,
	"training_split": true, "validation_split": true, "test_split": true, "fewshot_split": true,
	"process_docs": true, "doc_to_text": true, "doc_to_target": true, "doc_to_choice": true,
	"doc_to_image": true, "doc_to_audio": true, "unsafe_code": true,
	"process_results": true, "use_prompt": true, "description": true,
	"target_delimiter": true, "fewshot_delimiter": true, "fewshot_config": true,
	"num_fewshot": true, "generation_kwargs": true, "metric_list": true,
	"output_type": true, "repeats": true, "filter_list": true,
	"should_decontaminate": true, "doc_to_decontamination_query": true,
	"gen_prefix": true, "metadata": true, "aggregate_metric_list": true,
}

var knownFewshotKeys = map[string]bool{
	"sampler": true, "samples": true, "split": true, "process_docs": true,
	"doc_to_text": true, "doc_to_target": true, "doc_to_choice": true,
	"fewshot_indices": true, "num_fewshot": true, "fewshot_delimiter": true,
	"target_delimiter": true, "gen_prefix": true,
}

// Config is a task's configuration as lm-eval's TaskConfig holds it, after
// includes, group overrides and `!function` resolution. Raw keeps every key
// as parsed, for results.
type Config struct {
	Task      string
	TaskAlias string
	Tags      []string

	DatasetPath   string
	DatasetName   string
	DatasetKwargs map[string]any
	CustomDataset *Func

	// Splits; "" is Python's None.
	TrainingSplit   string
	ValidationSplit string
	TestSplit       string
	FewshotSplit    string

	ProcessDocs *Func
	// DocToText, DocToTarget and DocToChoice are a document field name or
	// a Jinja template (string), a literal index (int), literal choices
	// ([]any), or a native function (*Func); nil when unset.
	DocToText   any
	DocToTarget any
	DocToChoice any

	ProcessResults *Func
	UsePrompt      string
	Description    string
	// TargetDelimiter separates a context from its continuation (" ").
	TargetDelimiter string
	// FewshotDelimiter separates few-shot examples ("\n\n").
	FewshotDelimiter string
	Fewshot          FewshotConfig
	// NumFewshot is nil when the YAML does not set it.
	NumFewshot *int
	// GenerationKwargs as lm-eval completes them: for generate_until tasks
	// "until" defaults to [fewshot_delimiter]; with no generation_kwargs at
	// all they are lm-eval's default_gen_kwargs, {temperature: 0.0,
	// do_sample: false, max_gen_toks: 256, until: [fewshot_delimiter]}.
	GenerationKwargs map[string]any
	// GenKwargsOrder is GenerationKwargs' key order as lm-eval's dict has
	// it (the YAML's), for the logged requests.
	GenKwargsOrder []string
	// Metrics are metric_list's metrics (none: the output type's
	// defaults, metrics.Defaults), Filters filter_list's pipelines (none:
	// lm-eval's default, take_first), parsed when the task loads.
	Metrics []metrics.Spec
	Filters []filters.Spec
	// MetricsError and FiltersError say why metric_list or filter_list
	// cannot be used (an unknown metric or aggregation, a malformed
	// entry): such a task still loads, so that Validate reports it with
	// the task's other problems, and the evaluator fails on it (on
	// MetricsError unless --predict_only replaces the metrics).
	MetricsError error
	FiltersError error
	OutputType   OutputType
	Repeats      int

	ShouldDecontaminate       bool
	DocToDecontaminationQuery string
	// GenPrefix is nil when unset (lm-eval's None).
	GenPrefix   *string
	Metadata    map[string]any
	UnsafeCode  bool
	HasImage    bool
	HasAudio    bool
	Raw         map[string]any
	File        string
	Unsupported string // why lmeval cannot run this task, "" when it can
	// Class is the native port of the Python class implementing the
	// task (`class: !function task.X`), nil for a YAML task.
	Class *Class
}

// FewshotConfig is fewshot_config.
type FewshotConfig struct {
	Sampler string // "default", "first_n" or "balanced"
	// Samples are literal few-shot documents; SamplesFunc produces them.
	Samples     []Doc
	SamplesFunc *Func
	Split       string
	ProcessDocs *Func
	// DocTo* override the task's for the few-shot examples; nil = the task's.
	DocToText   any
	DocToTarget any
	DocToChoice any
	Indices     []int
	// GenPrefix overrides the task's gen_prefix for the examples; nil =
	// the task's.
	GenPrefix *string
}

// Version is metadata.version, or nil.
func (c *Config) Version() any {
	if c.Metadata == nil {
		return nil
	}
	return c.Metadata["version"]
}

// MetricNames lists the task's metrics (what lm-eval's _metric_list
// holds), a function metric by its `!function` name.
func (c *Config) MetricNames() []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range c.Metrics {
		n := s.Name
		if s.Function != "" {
			n = s.Function
		}
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out
}

func str(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	}
	return pyval.Str(v)
}

func toInt(v any) (int, bool) {
	switch x := v.(type) {
	case int:
		return x, true
	case int64:
		return int(x), true
	case float64:
		if x == float64(int(x)) {
			return int(x), true
		}
	}
	return 0, false
}

func toBool(v any) bool {
	switch x := v.(type) {
	case bool:
		return x
	case int:
		return x != 0
	case string:
		return x == "true" || x == "True"
	}
	return false
}

// parseConfig builds a Config from a merged YAML mapping whose `!function`
// tags are already resolved. Unknown keys are returned as warnings naming
// the key and the file.
//
// Each step reads one concern of TaskConfig; they run in this order, so a
// config with several faults reports the same first error, and the steps
// that read fields set before them (generation_kwargs reads
// fewshot_delimiter and output_type) find them set.
func parseConfig(raw map[string]any, file string) (*Config, []string, error) {
	p := &configParser{raw: raw, file: file}
	c := &Config{
		Raw:              raw,
		File:             file,
		TargetDelimiter:  " ",
		FewshotDelimiter: "\n\n",
		OutputType:       OutputGenerateUntil,
		Repeats:          1,
		Fewshot:          FewshotConfig{Sampler: "default"},
	}
	p.warnUnknown(raw, knownTaskKeys, "task config")
	for _, step := range []func(*Config) error{
		p.identity,
		p.dataset,
		p.hooks,
		p.prompt,
		p.output,
		p.generationKwargs,
		p.extras,
		p.fewshot,
		p.unsupported,
	} {
		if err := step(c); err != nil {
			return nil, p.warnings, err
		}
	}
	return c, p.warnings, nil
}

// configParser holds what parseConfig's steps share: the mapping, the
// file for messages, and the warnings so far.
type configParser struct {
	raw      map[string]any
	file     string
	warnings []string
}

// warnUnknown warns, in key order, of each key of m that known lacks.
func (p *configParser) warnUnknown(m map[string]any, known map[string]bool, where string) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !known[k] {
			p.warnings = append(p.warnings, fmt.Sprintf("%s: unknown key %q in %s", p.file, k, where))
		}
	}
}

func (p *configParser) bad(key string, v any, want string) error {
	return fmt.Errorf("%s: %s: got %v (%T), want %s", p.file, key, v, v, want)
}

// funcOf is the `!function` value of key, nil when unset.
func (p *configParser) funcOf(key string) (*Func, error) {
	switch f := p.raw[key].(type) {
	case nil:
		return nil, nil
	case *Func:
		return f, nil
	default:
		return nil, p.bad(key, f, "!function module.fn")
	}
}

// identity reads the task's names: task, task_alias, tag.
func (p *configParser) identity(c *Config) error {
	raw := p.raw
	c.Task = str(raw["task"])
	c.TaskAlias = str(raw["task_alias"])
	switch t := raw["tag"].(type) {
	case string:
		c.Tags = []string{t}
	case []any:
		for _, e := range t {
			c.Tags = append(c.Tags, str(e))
		}
	}
	return nil
}

// dataset reads where the documents come from: the dataset and its splits.
func (p *configParser) dataset(c *Config) error {
	raw := p.raw
	c.DatasetPath = str(raw["dataset_path"])
	c.DatasetName = str(raw["dataset_name"])
	if dk, ok := raw["dataset_kwargs"].(map[string]any); ok {
		c.DatasetKwargs = dk
	}
	c.TrainingSplit = str(raw["training_split"])
	c.ValidationSplit = str(raw["validation_split"])
	c.TestSplit = str(raw["test_split"])
	c.FewshotSplit = str(raw["fewshot_split"])
	return nil
}

// hooks reads the `!function` keys other than doc_to_*: custom_dataset,
// process_docs, process_results. A string process_results is no error:
// unsupported says why the task cannot run.
func (p *configParser) hooks(c *Config) error {
	var err error
	if c.CustomDataset, err = p.funcOf("custom_dataset"); err != nil {
		return err
	}
	if c.ProcessDocs, err = p.funcOf("process_docs"); err != nil {
		return err
	}
	if c.ProcessResults, err = p.funcOf("process_results"); err != nil {
		if _, isStr := p.raw["process_results"].(string); !isStr {
			return err
		}
	}
	return nil
}

// prompt reads how a document becomes a prompt: doc_to_*, use_prompt,
// description, the delimiters, gen_prefix and num_fewshot.
func (p *configParser) prompt(c *Config) error {
	raw := p.raw
	c.DocToText, c.DocToTarget, c.DocToChoice = raw["doc_to_text"], raw["doc_to_target"], raw["doc_to_choice"]
	for _, k := range []string{"doc_to_text", "doc_to_target", "doc_to_choice"} {
		switch raw[k].(type) {
		case nil, string, int, []any, *Func:
		case bool, float64:
			return p.bad(k, raw[k], "a field name, a template, an int, a list or !function")
		}
	}
	c.HasImage, c.HasAudio = raw["doc_to_image"] != nil, raw["doc_to_audio"] != nil
	c.UsePrompt = str(raw["use_prompt"])
	c.Description = str(raw["description"])
	if v, ok := raw["target_delimiter"]; ok && v != nil {
		c.TargetDelimiter = str(v)
	}
	if v, ok := raw["fewshot_delimiter"]; ok && v != nil {
		c.FewshotDelimiter = str(v)
	}
	if v, ok := raw["gen_prefix"]; ok && v != nil {
		s := str(v)
		c.GenPrefix = &s
	}
	if v, ok := raw["num_fewshot"]; ok && v != nil {
		n, ok := toInt(v)
		if !ok {
			return p.bad("num_fewshot", v, "an int")
		}
		c.NumFewshot = &n
	}
	return nil
}

// output reads what is asked of the model and how it is scored:
// output_type, repeats, metric_list and filter_list, into typed specs with
// their native functions resolved (specs.go).
func (p *configParser) output(c *Config) error {
	raw := p.raw
	if v, ok := raw["output_type"]; ok && v != nil {
		c.OutputType = OutputType(str(v))
	}
	if !c.OutputType.Valid() {
		return fmt.Errorf("%s: invalid output_type %q, must be one of loglikelihood, multiple_choice, loglikelihood_rolling, generate_until", p.file, c.OutputType)
	}
	if v, ok := raw["repeats"]; ok && v != nil {
		n, ok := toInt(v)
		if !ok || n < 1 {
			return p.bad("repeats", v, "a positive int")
		}
		c.Repeats = n
	}
	list, _ := raw["metric_list"].([]any)
	c.Metrics, c.MetricsError = metricSpecs(list, c.OutputType, c.ProcessResults != nil)
	c.Filters, c.FiltersError = filterSpecs(raw["filter_list"])
	return nil
}

// generationKwargs completes generation_kwargs as TaskConfig.__post_init__
// does, with their dict order (the YAML's, "until" appended when missing),
// and leaves raw's copy without the order key.
func (p *configParser) generationKwargs(c *Config) error {
	gk, ok := p.raw["generation_kwargs"].(map[string]any)
	if !ok {
		if c.OutputType == OutputGenerateUntil {
			// lm_eval/defaults.py default_gen_kwargs.
			c.GenerationKwargs = map[string]any{
				"temperature":  0.0,
				"do_sample":    false,
				"max_gen_toks": DefaultMaxGenToks,
				"until":        []any{c.FewshotDelimiter},
			}
			c.GenKwargsOrder = []string{"temperature", "do_sample", "max_gen_toks", "until"}
		}
		return nil
	}
	order, _ := gk[genKwargsOrderKey].([]string)
	g := make(map[string]any, len(gk)+1)
	for k, v := range gk {
		if k != genKwargsOrderKey {
			g[k] = v
		}
	}
	if t, ok := g["temperature"]; ok {
		if n, ok := toInt(t); ok {
			g["temperature"] = float64(n)
		}
	}
	if _, ok := g["until"]; !ok {
		g["until"] = []any{c.FewshotDelimiter}
		order = append(order, "until")
	}
	c.GenerationKwargs = g
	c.GenKwargsOrder = order
	clean := make(map[string]any, len(g))
	for k, v := range gk {
		if k != genKwargsOrderKey {
			clean[k] = v
		}
	}
	p.raw["generation_kwargs"] = clean
	return nil
}

// extras reads the keys that do not shape requests: decontamination,
// metadata, unsafe_code.
func (p *configParser) extras(c *Config) error {
	raw := p.raw
	c.ShouldDecontaminate = toBool(raw["should_decontaminate"])
	c.DocToDecontaminationQuery = str(raw["doc_to_decontamination_query"])
	if md, ok := raw["metadata"].(map[string]any); ok {
		c.Metadata = md
	} else if raw["metadata"] != nil {
		c.Metadata = map[string]any{"_metadata": raw["metadata"]}
	} else {
		c.Metadata = map[string]any{}
	}
	c.UnsafeCode = toBool(raw["unsafe_code"])
	return nil
}

// fewshot reads fewshot_config and checks the sampler.
func (p *configParser) fewshot(c *Config) error {
	if fc, ok := p.raw["fewshot_config"].(map[string]any); ok {
		if err := p.fewshotConfig(&c.Fewshot, fc); err != nil {
			return err
		}
	}
	switch c.Fewshot.Sampler {
	case "default", "first_n", "balanced":
	default:
		return fmt.Errorf("%s: fewshot_config.sampler %q: no such sampler (known: default, first_n, balanced)", p.file, c.Fewshot.Sampler)
	}
	return nil
}

func (p *configParser) fewshotConfig(f *FewshotConfig, fc map[string]any) error {
	p.warnUnknown(fc, knownFewshotKeys, "fewshot_config")
	if s := str(fc["sampler"]); s != "" {
		f.Sampler = s
	}
	switch s := fc["samples"].(type) {
	case nil:
	case []any:
		for _, d := range s {
			m, ok := d.(map[string]any)
			if !ok {
				return p.bad("fewshot_config.samples", d, "a list of documents")
			}
			f.Samples = append(f.Samples, m)
		}
	case *Func:
		f.SamplesFunc = s
	default:
		return p.bad("fewshot_config.samples", s, "a list of documents or !function")
	}
	f.Split = str(fc["split"])
	if pd, ok := fc["process_docs"].(*Func); ok {
		f.ProcessDocs = pd
	}
	f.DocToText, f.DocToTarget, f.DocToChoice = fc["doc_to_text"], fc["doc_to_target"], fc["doc_to_choice"]
	if v, ok := fc["gen_prefix"]; ok && v != nil {
		s := pyval.Str(v)
		f.GenPrefix = &s
	}
	if l, ok := fc["fewshot_indices"].([]any); ok {
		for _, e := range l {
			n, ok := toInt(e)
			if !ok {
				return p.bad("fewshot_config.fewshot_indices", e, "ints")
			}
			f.Indices = append(f.Indices, n)
		}
	}
	return nil
}

// unsupported sets Unsupported when the config asks for what lmeval
// cannot do; the last reason that applies wins.
func (p *configParser) unsupported(c *Config) error {
	if _, isStr := p.raw["process_results"].(string); isStr {
		c.Unsupported = "process_results given as a string is not supported"
	}
	if c.UsePrompt != "" {
		c.Unsupported = fmt.Sprintf("use_prompt %q: promptsource prompts are not supported", c.UsePrompt)
	}
	if _, isStr := p.raw["custom_dataset"].(string); isStr {
		c.Unsupported = "custom_dataset must be a !function"
	}
	return nil
}
