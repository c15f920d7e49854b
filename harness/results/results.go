// Package results holds an evaluation's results in lm-evaluation-harness's
// formats: the results JSON object (lm_eval/evaluator.py's results dict as
// EvaluationTracker saves it, plus an "lmeval" block of our own facts), the
// per-document sample records with lm-eval's hashes, the console tables as
// lm-eval's make_table prints them, and a flat summary for scripts.
package results

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strings"
)

// Entry is one task's or group's row of "results" (or "groups"), keys in
// lm-eval's order: a task's "name", "alias" and "sample_len", a group's
// "alias", "name" and (when it aggregates) "sample_len"; then the
// "metric,filter" and "metric_stderr,filter" keys; last, for an
// aggregating group, "sample_count" ({"metric,filter": documents}).
type Entry = OrderedMap[any]

// NewEntry starts an entry with its alias.
func NewEntry(alias string) *Entry {
	e := NewOrderedMap[any]()
	e.Set("alias", alias)
	return e
}

// Keys of an entry that are no metric.
const (
	KeyName        = "name"
	KeyAlias       = "alias"
	KeySampleLen   = "sample_len"
	KeySampleCount = "sample_count"
)

// isMetricKey reports whether an entry's key is a "metric,filter" one.
func isMetricKey(k string) bool {
	switch k {
	case KeyName, KeyAlias, KeySampleLen, KeySampleCount:
		return false
	}
	return true
}

// NA is lm-eval's marker for a missing standard error.
const NA = "N/A"

// SetMetric records a metric's value and standard error under lm-eval's
// keys; without a standard error the stderr key holds "N/A".
func SetMetric(e *Entry, metric, filter string, value float64, stderr float64, hasStderr bool) {
	e.Set(metric+","+filter, Float(value))
	if hasStderr {
		e.Set(metric+"_stderr,"+filter, Float(stderr))
	} else {
		e.Set(metric+"_stderr,"+filter, NA)
	}
}

// NSamples is a task's document counts.
type NSamples struct {
	Original  int `json:"original"`
	Effective int `json:"effective"`
}

// Config is the run's settings as lm-eval records them.
type Config struct {
	Model          string  `json:"model"`
	ModelArgs      string  `json:"model_args"`
	BatchSize      any     `json:"batch_size"` // int or "auto"
	BatchSizes     []int   `json:"batch_sizes"`
	Device         *string `json:"device"`
	UseCache       *string `json:"use_cache"`
	Limit          any     `json:"limit"` // null, a count, or a fraction
	BootstrapIters int     `json:"bootstrap_iters"`
	GenKwargs      any     `json:"gen_kwargs"`
	RandomSeed     *int64  `json:"random_seed"`
	NumpySeed      *int64  `json:"numpy_seed"`
	TorchSeed      *int64  `json:"torch_seed"`
	FewshotSeed    *int64  `json:"fewshot_seed"`
}

// LMEval is lmeval's own block: facts lm-eval has no place for.
type LMEval struct {
	Version string `json:"version,omitempty"`
	// Model facts: architecture, quantization (file type), parameters,
	// file size and SHA-256 fingerprint, context length, ...
	Model map[string]any `json:"model,omitempty"`
	// Engine settings: n_ctx, n_batch, threads, GPU layers, flash
	// attention, KV cache types, ...
	Engine         map[string]any `json:"engine,omitempty"`
	LlamaCppCommit string         `json:"llama_cpp_commit,omitempty"`
	PromptTokens   int64          `json:"prompt_tokens"`
	TokensDecoded  int64          `json:"tokens_decoded"`
	TokensPerSec   Float          `json:"tokens_per_second"`
	// Truncated counts requests whose context was cut to fit the window.
	Truncated   int  `json:"truncated"`
	PredictOnly bool `json:"predict_only,omitempty"`
	// TaskFiles is the YAML file each task was defined in.
	TaskFiles map[string]string `json:"task_files,omitempty"`
	// DataProblems counts, per task that has any, what makes scores
	// mean less than they seem (each also warned about during the run).
	DataProblems map[string]DataProblems `json:"data_problems,omitempty"`
	// TasksTree describes the lm-eval task tree in use (directory,
	// source, commit, digest), when one was.
	TasksTree any `json:"tasks_tree,omitempty"`
	// Generation counts each task's generated tokens: thinking and
	// answer (GenerationStats).
	Generation map[string]*GenerationStats `json:"generation,omitempty"`
	Extra      map[string]any              `json:"extra,omitempty"`
	// Sharded describes the shards a merged run was made of (lmeval run
	// --shard, lmeval merge); nil for a run made in one piece.
	Sharded *Sharded `json:"sharded,omitempty"`
}

// Sharded is a merged run's shards (docs/scale.md).
type Sharded struct {
	// Run is the run's identity (the shard files' "run").
	Run    string  `json:"run"`
	Shards []Shard `json:"shards"`
	// MergeSeconds is the time lmeval merge took.
	MergeSeconds Float `json:"merge_seconds"`
}

// Shard is one shard of a merged run.
type Shard struct {
	Index int    `json:"index"`
	Host  string `json:"host"`
	// Started (Unix seconds) and Seconds bound the shard's run;
	// RunSeconds is the part spent answering requests.
	Started    Float `json:"started"`
	Seconds    Float `json:"seconds"`
	RunSeconds Float `json:"run_seconds"`
	// Requests are the unique requests it answered, Cost their estimated
	// work in bytes of text, TokensDecoded the tokens its engine decoded.
	Requests      int   `json:"requests"`
	Cost          int64 `json:"cost"`
	TokensDecoded int64 `json:"tokens_decoded"`
}

// DataProblems counts one task's documents and requests that are scored
// as lm-eval scores them but not as their author meant.
type DataProblems struct {
	// GoldNotInChoices counts multiple-choice documents whose gold answer
	// is no choice (an index out of range, a text that is no choice):
	// scored as wrong.
	GoldNotInChoices int `json:"gold_not_in_choices,omitempty"`
	// NoneFields counts documents a field of which is None (a missing CSV
	// cell, a JSON null) and shows in the prompt, target or choices as
	// the text "None".
	NoneFields int `json:"none_fields,omitempty"`
	// Truncated counts requests whose context was cut from the left to
	// fit the model's max_length.
	Truncated int `json:"truncated,omitempty"`
}

// Any reports whether a problem was counted.
func (p DataProblems) Any() bool { return p != DataProblems{} }

// Results is lm-eval's results object as its CLI writes it
// (EvaluationTracker.save_results_aggregated). Field order follows lm-eval's.
// Of the keys lm-eval adds after "date", those only a Python environment
// has are left out: pretty_env_info, transformers_version,
// lm_eval_version, upper_git_hash and the Hugging Face tokenizer's
// tokenizer_pad_token, tokenizer_eos_token, tokenizer_bos_token,
// eot_token_id and max_length.
type Results struct {
	Results       *OrderedMap[*Entry]   `json:"results"`
	Groups        *OrderedMap[*Entry]   `json:"groups,omitempty"`
	GroupSubtasks *OrderedMap[[]string] `json:"group_subtasks"`
	Configs       map[string]any        `json:"configs"`
	Versions      map[string]any        `json:"versions"`
	NShot         map[string]any        `json:"n-shot"`
	// HigherIsBetter is per task and group, metric -> true, false, or nil
	// (None: a group whose members disagree).
	HigherIsBetter map[string]*OrderedMap[any] `json:"higher_is_better"`
	NSamples       *OrderedMap[NSamples]       `json:"n-samples"`
	Config         Config                      `json:"config"`
	GitHash        *string                     `json:"git_hash"`
	Date           Float                       `json:"date"`
	// TaskHashes is each task's hash of its samples' doc, prompt and
	// target hashes; empty without --log_samples.
	TaskHashes *OrderedMap[string] `json:"task_hashes"`
	// The run's identity, as lm-eval's GeneralConfigTracker records it.
	ModelSource          string  `json:"model_source"`
	ModelName            string  `json:"model_name"`
	ModelNameSanitized   string  `json:"model_name_sanitized"`
	SystemInstruction    *string `json:"system_instruction"`
	SystemInstructionSha *string `json:"system_instruction_sha"`
	FewshotAsMultiturn   *bool   `json:"fewshot_as_multiturn"`
	ChatTemplate         *string `json:"chat_template"`
	ChatTemplateSha      *string `json:"chat_template_sha"`
	TotalEvalTime        string  `json:"total_evaluation_time_seconds"`
	LMEval               *LMEval `json:"lmeval,omitempty"`
}

// New returns empty results.
func New() *Results {
	return &Results{
		Results:        NewOrderedMap[*Entry](),
		GroupSubtasks:  NewOrderedMap[[]string](),
		Configs:        map[string]any{},
		Versions:       map[string]any{},
		NShot:          map[string]any{},
		HigherIsBetter: map[string]*OrderedMap[any]{},
		NSamples:       NewOrderedMap[NSamples](),
		TaskHashes:     NewOrderedMap[string](),
	}
}

// Task describes one evaluated task for AddTask.
type Task struct {
	Name, Alias    string
	Version        any // the task's metadata.version (float) or nil
	NShot          int
	Config         map[string]any
	HigherIsBetter *OrderedMap[bool] // metric -> higher is better
	NSamples       NSamples
	// SampleLen is lm-eval's sample_len: the number of values of the
	// task's last metric (its documents).
	SampleLen int
}

// AddTask registers a task and returns its results entry, to be filled
// with SetMetric. Tasks appear in the order they are added.
func (r *Results) AddTask(t Task) *Entry {
	alias := t.Alias
	if alias == "" {
		alias = t.Name
	}
	e := NewOrderedMap[any]()
	e.Set(KeyName, t.Name)
	e.Set(KeyAlias, alias)
	e.Set(KeySampleLen, t.SampleLen)
	r.Results.Set(t.Name, e)
	if t.Config != nil {
		r.Configs[t.Name] = t.Config
	}
	r.Versions[t.Name] = pyNumber(t.Version)
	r.NShot[t.Name] = t.NShot
	if t.HigherIsBetter != nil {
		r.HigherIsBetter[t.Name] = directions(t.HigherIsBetter)
	}
	r.NSamples.Set(t.Name, t.NSamples)
	return e
}

// Group describes a group of tasks for AddGroup.
type Group struct {
	Name, Alias    string
	Version        any
	Subtasks       []string
	HigherIsBetter *OrderedMap[bool]
	// Aggregated reports whether the group has an aggregate_metric_list;
	// only such groups get a row in the groups table.
	Aggregated bool
	// SampleLen is the documents of the group's tasks (aggregated
	// groups only).
	SampleLen int
}

// AddGroup registers a group and returns its entry (in "results", and in
// "groups" when aggregated), to be filled with SetMetric and, last,
// SetSampleCount. A group without aggregation has only its alias and name;
// the table prints its name alone.
func (r *Results) AddGroup(g Group) *Entry {
	alias := g.Alias
	if alias == "" {
		alias = g.Name
	}
	e := NewEntry(alias)
	e.Set(KeyName, g.Name)
	if g.Aggregated {
		e.Set(KeySampleLen, g.SampleLen)
	}
	r.Results.Set(g.Name, e)
	r.GroupSubtasks.Set(g.Name, append([]string{}, g.Subtasks...))
	if g.Version != nil {
		r.Versions[g.Name] = pyNumber(g.Version)
	}
	if g.HigherIsBetter != nil {
		r.HigherIsBetter[g.Name] = directions(g.HigherIsBetter)
	}
	if g.Aggregated {
		if r.Groups == nil {
			r.Groups = NewOrderedMap[*Entry]()
		}
		r.Groups.Set(g.Name, e)
	}
	return e
}

// directions copies metric directions into a results map.
func directions(m *OrderedMap[bool]) *OrderedMap[any] {
	out := NewOrderedMap[any]()
	for _, k := range m.Keys() {
		v, _ := m.Get(k)
		out.Set(k, v)
	}
	return out
}

// SetSampleCount ends an aggregated group's entry with lm-eval's
// sample_count: the documents behind each of its metric keys. Nothing is
// set when counts is empty, as in lm-eval.
func SetSampleCount(e *Entry, counts *OrderedMap[int]) {
	if counts != nil && counts.Len() > 0 {
		e.Set(KeySampleCount, counts)
	}
}

// Summary is the flat {task: {"metric,filter": value}} view, numbers only
// (aliases, placeholders and "N/A" left out), tasks and groups together.
func (r *Results) Summary() map[string]map[string]float64 {
	out := map[string]map[string]float64{}
	for _, name := range r.Results.Keys() {
		e, _ := r.Results.Get(name)
		m := map[string]float64{}
		for _, k := range e.Keys() {
			v, _ := e.Get(k)
			if f, ok := number(v); ok && isMetricKey(k) && strings.Contains(k, ",") {
				m[k] = f
			}
		}
		out[name] = m
	}
	return out
}

// pyNumber keeps a float a float in JSON (1.0, not 1).
func pyNumber(v any) any {
	if f, ok := v.(float64); ok {
		return Float(f)
	}
	return v
}

func number(v any) (float64, bool) {
	switch x := v.(type) {
	case Float:
		return float64(x), !math.IsNaN(float64(x))
	case float64:
		return x, !math.IsNaN(x)
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	}
	return 0, false
}

// JSON writes the results as lm-eval's results_*.json content (indented
// by two spaces as EvaluationTracker writes it).
func (r *Results) JSON() ([]byte, error) {
	// Floats inside free-form values keep Python's float format too.
	c := *r
	c.Configs = make(map[string]any, len(r.Configs))
	for k, v := range r.Configs {
		c.Configs[k] = jsonable(v)
	}
	c.Config.GenKwargs = jsonable(r.Config.GenKwargs)
	c.Config.Limit = jsonable(r.Config.Limit)
	if r.LMEval != nil {
		l := *r.LMEval
		l.Model, _ = jsonable(l.Model).(map[string]any)
		l.Engine, _ = jsonable(l.Engine).(map[string]any)
		l.Extra, _ = jsonable(l.Extra).(map[string]any)
		c.LMEval = &l
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(&c); err != nil {
		return nil, fmt.Errorf("results: %w", err)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// Parse reads a results JSON object (ours or lm-eval's, whose bare NaN
// values read as null).
func Parse(data []byte) (*Results, error) {
	r := New()
	if err := json.Unmarshal(CleanPyJSON(data), r); err != nil {
		return nil, fmt.Errorf("results: %w", err)
	}
	return r, nil
}

// Alias indents a task or group name for the tables as lm-eval's
// prepare_print_tasks does: depth spaces and "- " below the top level.
func Alias(name string, depth int) string {
	if depth <= 0 {
		return name
	}
	return strings.Repeat(" ", depth) + "- " + name
}

// GenerationStats counts a task's generate_until answers and their tokens
// (lmeval's addition, in the lmeval block): what a reasoning model spent
// thinking and answering. Tokens are as the backend generated them;
// answers from the response cache count as they were generated. A
// backend that does not count tokens leaves only Requests.
type GenerationStats struct {
	Requests int `json:"requests"`
	// Counted is the number of answers whose tokens the backend counted.
	Counted        int   `json:"counted"`
	Tokens         int64 `json:"tokens"`
	ThinkingTokens int64 `json:"thinking_tokens"`
	AnswerTokens   int64 `json:"answer_tokens"`
	// MeanThinkingTokens and MeanAnswerTokens are per counted answer.
	MeanThinkingTokens Float `json:"mean_thinking_tokens"`
	MeanAnswerTokens   Float `json:"mean_answer_tokens"`
	// BudgetHits counts traces cut by reasoning_budget.
	BudgetHits int `json:"budget_hits"`
}

// Add counts one answer: tokens generated, of which thinking (negative:
// not counted), and whether the reasoning budget cut it.
func (s *GenerationStats) Add(tokens, thinking int, budgetHit bool) {
	s.Requests++
	if budgetHit {
		s.BudgetHits++
	}
	if tokens < 0 {
		return
	}
	thinking = max(thinking, 0)
	s.Counted++
	s.Tokens += int64(tokens)
	s.ThinkingTokens += int64(thinking)
	s.AnswerTokens += int64(tokens - thinking)
	s.MeanThinkingTokens = Float(float64(s.ThinkingTokens) / float64(s.Counted))
	s.MeanAnswerTokens = Float(float64(s.AnswerTokens) / float64(s.Counted))
}

var unsafeChars = regexp.MustCompile(`["<>:/|\\?*\[\]]+`)

// SanitizeModelName makes a model name usable as a directory name, as
// lm-eval's sanitize_model_name: each run of characters unsafe in paths
// becomes "__" (the results' model_name_sanitized).
func SanitizeModelName(name string) string {
	return unsafeChars.ReplaceAllString(name, "__")
}

// ModelName picks the model's name from its model_args as lm-eval's
// GeneralConfigTracker does (the results' model_name): the first of
// peft, delta, pretrained, model, path, engine that is set.
func ModelName(modelArgs map[string]string) string {
	for _, k := range []string{"peft", "delta", "pretrained", "model", "path", "engine"} {
		if v, ok := modelArgs[k]; ok {
			return v
		}
	}
	return ""
}
