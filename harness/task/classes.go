package task

import (
	"fmt"
	"strings"

	"github.com/lmeval/lmeval/harness/metrics"
)

// Class is a native port of a task that lm-eval implements as a Python
// class: a YAML file whose `class: !function task.QuALITY` names a
// ConfigurableTask subclass. lm-eval builds such a task from the class
// alone (its __init__ passes TaskConfig only {"metadata": {"version":
// VERSION}} and the YAML's task name is set afterwards), so a port says
// what the class amounts to in lmeval's terms: a Config with native
// doc_to_text, doc_to_target, process_docs and process_results, the
// metrics its aggregation() and higher_is_better() give, and its own
// construct_requests.
//
// A port registers with RegisterClass (hooks.go), keyed like a helper by lm-eval's
// file and class name ("scrolls/task.py", "QuALITY") and the sha256 of the
// class's source (scripts/pyhelpers/scan.py records classes, and the
// module-level names they use, as it does functions), so a class whose
// source on disk differs from the one the port was made from warns as a
// stale helper port does.
type Class struct {
	File   string // relative to lm_eval/tasks/, "scrolls/task.py"
	Name   string // the class, "QuALITY"
	SHA256 string // of the class's source
	// Version is the class's VERSION (the task's metadata.version).
	Version any
	// Setup completes the Config lm-eval's class has: it arrives as
	// TaskConfig's defaults (output_type generate_until, default
	// generation_kwargs, ...) with the task name and version, and Setup
	// sets what the class's methods decide: DatasetPath and DatasetName
	// (DATASET_PATH, DATASET_NAME), the splits (has_*_docs), DocToText and
	// DocToTarget, ProcessDocs (download and training_docs/
	// validation_docs processing), ProcessResults, and Metrics (one
	// ClassMetric per metric of aggregation(), in its order, with the
	// aggregation registered in harness/metrics and higher_is_better).
	Setup func(c *Config) error
	// Requests is the class's construct_requests: the requests of one
	// document whose prompt is ctx (fewshot_context's), in lm-eval's
	// order.
	Requests func(doc Doc, ctx string, o RequestOptions) ([]ClassRequest, error)
}

// Key is the class's "file:class" name.
func (c *Class) Key() string { return c.File + ":" + c.Name }

// RequestOptions are the settings construct_requests receives.
type RequestOptions struct {
	// GenKwargs are the task config's generation_kwargs (updated by
	// --gen_kwargs), which some classes copy into their requests.
	GenKwargs map[string]any
	// ChatTemplate is lm-eval's apply_chat_template.
	ChatTemplate bool
}

// ClassRequest is one request a class's construct_requests makes.
type ClassRequest struct {
	Type OutputType // OutputLoglikelihood or OutputGenerateUntil
	Idx  int
	// Continuation of a loglikelihood request.
	Continuation string
	// GenKwargs of a generate_until request, as lm-eval passes them.
	GenKwargs map[string]any
}

// classReasons say why a Python class task has no port, by lm-eval's
// file:class, for classes that need more than lmeval can offer.
var classReasons = map[string]string{
	"unitxt/task.py:Unitxt":           unitxtReason,
	"unitxt/task.py:UnitxtMultiModal": unitxtReason,
}

const unitxtReason = "needs the unitxt Python package, which lmeval does not reimplement"

// classTask builds a task from its Python class's native port. raw is the
// task's YAML (includes merged): lm-eval's class ignores it but for the
// task name, and so does lmeval, with one extension: dataset_path,
// dataset_name and dataset_kwargs, when the YAML sets them, replace the
// class's dataset (a wrapper YAML can point a class task at local files,
// which lm-eval's class would not read).
func (r *Registry) classTask(e *Entry, raw map[string]any) (*Task, error) {
	ref, ok := raw["class"].(FuncRef)
	if !ok {
		return nil, &UnavailableError{Task: e.Name, File: e.File, Reason: fmt.Sprintf("class: %v is not a !function tag", raw["class"])}
	}
	h, key := lookupHook(ref.Dir, ref.Name)
	var cls *Class
	if h != nil {
		cls = h.Class
	}
	if cls == nil {
		reason := classReasons[key]
		if reason == "" {
			reason = fmt.Sprintf("it is implemented by a Python class (%s) that lmeval has no native port of", ref.Name)
		}
		return nil, &UnavailableError{Task: e.Name, File: e.File, Missing: []string{ref.Name}, Reason: reason}
	}
	if w := checkStale(ref.Dir, ref.Name); w != "" && !r.warned[w] {
		r.warned[w] = true
		r.warnings = append(r.warnings, w)
	}
	cfg := map[string]any{
		"task":     e.Name,
		"class":    &Func{Dir: ref.Dir, Name: ref.Name, Hook: h},
		"metadata": map[string]any{"version": cls.Version},
	}
	c, warnings, err := parseConfig(cfg, e.File)
	r.warnings = append(r.warnings, warnings...)
	if err != nil {
		return nil, fmt.Errorf("task %s: %w", e.Name, err)
	}
	c.Class = cls
	if err := cls.Setup(c); err != nil {
		return nil, fmt.Errorf("task %s: class %s: %w", e.Name, cls.Key(), err)
	}
	if v, ok := raw["dataset_path"]; ok {
		c.DatasetPath, c.DatasetName, c.DatasetKwargs = str(v), "", nil
	}
	if v, ok := raw["dataset_name"]; ok {
		c.DatasetName = str(v)
	}
	if v, ok := raw["dataset_kwargs"].(map[string]any); ok {
		c.DatasetKwargs = v
	}
	for _, k := range []string{"dataset_path", "dataset_name", "dataset_kwargs"} {
		if v, ok := raw[k]; ok {
			cfg[k] = v // in the request cache's key
		}
	}
	return newTask(c), nil
}

// fewshotError is what lm-eval does with few-shot examples for a class
// task: ConfigurableTask.fewshot_context calls doc_to_text(doc,
// fewshot_config.doc_to_text), which the classes' one-argument overrides
// reject with a TypeError.
func (c *Class) fewshotError() error {
	return fmt.Errorf("num_fewshot > 0: lm-eval's class %s cannot build few-shot prompts (ConfigurableTask.fewshot_context calls %s.doc_to_text with two arguments and fails with a TypeError); run it zero-shot", strings.TrimSuffix(c.Key(), ".py"), c.Name)
}

// The methods of a Python class task that its port's Setup sets as the
// Config's hooks (DocToText, ProcessDocs, ProcessResults, ...): name is
// the method as lm-eval names it ("task.QuALITY.doc_to_text").

// ClassDocFunc is a class's doc_to_text, doc_to_target or doc_to_choice.
func ClassDocFunc(name string, fn DocFunc) *Func {
	return classMethod(name, Hook{Kind: HookDocFunc, DocFunc: fn})
}

// ClassProcessDocs is a class's document processing.
func ClassProcessDocs(name string, m MapDocs) *Func {
	return classMethod(name, Hook{Kind: HookProcessDocs, ProcessDocs: &m})
}

// ClassProcessResults is a class's process_results.
func ClassProcessResults(name string, fn ProcessResultsFunc) *Func {
	return classMethod(name, Hook{Kind: HookProcessResults, ProcessResults: fn})
}

func classMethod(name string, h Hook) *Func {
	h.Helper.Function = name
	return &Func{Name: name, Hook: &h}
}

// ClassMetric is one metric of a class's aggregation() and
// higher_is_better(), for Config.Metrics: its values come from the class's
// process_results and aggregation names a registered aggregation.
func ClassMetric(name, aggregation string, higherIsBetter bool) (metrics.Spec, error) {
	s, err := metrics.NewSpec(name, false).WithAggregation(aggregation)
	if err != nil {
		return s, fmt.Errorf("metric %s: %w", name, err)
	}
	s.HigherIsBetter = higherIsBetter
	return s, nil
}
