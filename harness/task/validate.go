package task

import (
	"context"
	"errors"
	"fmt"

	"github.com/lmeval/lmeval/python/pyval"
)

// Problem is one thing wrong with a task or group, or, with Note set, a
// remark about something Validate could not check.
type Problem struct {
	Name    string // task or group; "" when not attributable
	File    string
	Message string
	// Note marks a remark, not a problem: the task's documents are not
	// available locally (ErrNotLocal), so its prompts were not built.
	Note bool
}

func (p Problem) String() string {
	msg := p.Message
	if p.Note {
		msg = "note: " + msg
	}
	switch {
	case p.Name != "" && p.File != "":
		return fmt.Sprintf("%s (%s): %s", p.Name, p.File, msg)
	case p.Name != "":
		return p.Name + ": " + msg
	}
	return msg
}

// ErrNotLocal is wrapped by a DocLoader's error when the documents are
// not available locally and the loader may not download them (an offline
// Hub client whose cache lacks the dataset). Validate reports such a task
// with a note instead of a problem.
var ErrNotLocal = errors.New("documents not available locally")

// NotLocalNote is the message of the note for a task whose documents are
// not available locally.
const NotLocalNote = "documents not available locally: skipped rendering"

// UnsafeCodeNote is the note for a task marked unsafe_code.
const UnsafeCodeNote = "runs the model's code (unsafe_code: true): run it with --confirm_run_unsafe_code"

// ValidateOptions say how deeply Validate checks.
type ValidateOptions struct {
	// Loader, when set, lets Validate build the first documents of each
	// task (templates rendered on real documents); a task whose dataset
	// cannot be loaded is a problem, unless the error wraps ErrNotLocal,
	// which gives a note.
	Loader  DocLoader
	NumDocs int // documents to build per task; 0 means 3, negative all
	// MetricKnown and FilterKnown, when set, say whether a metric or
	// filter function name exists.
	MetricKnown func(name string) bool
	FilterKnown func(name string) bool
	Templates   Templater
}

// Validate loads names and checks everything that can be checked without
// a model: YAML, includes, `!function`s resolvable, unknown keys, templates
// parse, metrics and filters exist, and (with a Loader) prompts build on
// the first documents, whose gold answers must be among their choices and
// whose fields must not render as None. It returns every problem found,
// and notes (Note set) for tasks whose documents are not available
// locally.
func Validate(ctx context.Context, r *Registry, names []string, opts ValidateOptions) []Problem {
	var probs []Problem
	nwarn := len(r.warnings)
	sel, err := r.Load(names)
	for _, e := range flatten(err) {
		var ue *UnavailableError
		var mm *MissingMembersError
		switch {
		case errors.As(e, &ue):
			probs = append(probs, Problem{Name: ue.Task, File: ue.File, Message: "unavailable: " + ue.Reason})
		case errors.As(e, &mm):
			probs = append(probs, Problem{Name: mm.Group, File: mm.File, Message: fmt.Sprintf("%d member(s) not found: %v (no task, group or tag of that name is defined, so lm-eval cannot run this group either)", len(mm.Missing), mm.Missing)})
		default:
			probs = append(probs, Problem{Message: e.Error()})
		}
	}
	for _, w := range r.warnings[nwarn:] {
		probs = append(probs, Problem{Message: w})
	}
	if sel == nil {
		return probs
	}
	tmpl := opts.Templates
	if tmpl == nil {
		tmpl = defaultTemplates
	}
	n := opts.NumDocs
	switch {
	case n == 0:
		n = 3
	case n < 0:
		n = 0 // BuildOptions.Limit 0: every document
	}
	for _, g := range sel.Groups() {
		// A member's function metric may name its results freely (a dict
		// such as {"pass@1": ...}): such names cannot be checked here.
		dynamic := false
		for _, t := range g.AllTasks(true) {
			for _, s := range t.Config.Metrics {
				if s.Function != "" {
					dynamic = true
				}
			}
		}
		for _, a := range g.Aggregate {
			if opts.MetricKnown != nil && !dynamic && !opts.MetricKnown(a.Metric) && !memberMetric(g, a.Metric) {
				probs = append(probs, Problem{Name: g.Name, File: g.File, Message: fmt.Sprintf("aggregate_metric_list: unknown metric %q", a.Metric)})
			}
		}
	}
	seen := map[*Task]bool{}
	for _, t := range sel.Tasks() {
		if seen[t] {
			continue
		}
		seen[t] = true
		add := func(format string, args ...any) {
			probs = append(probs, Problem{Name: t.Name, File: t.Config.File, Message: fmt.Sprintf(format, args...)})
		}
		c := t.Config
		templates := map[string]any{
			"doc_to_text": c.DocToText, "doc_to_target": c.DocToTarget, "doc_to_choice": c.DocToChoice,
			"description": c.Description, "doc_to_decontamination_query": c.DocToDecontaminationQuery,
			"fewshot_config.doc_to_text": c.Fewshot.DocToText, "fewshot_config.doc_to_target": c.Fewshot.DocToTarget,
			"fewshot_config.doc_to_choice": c.Fewshot.DocToChoice,
		}
		if c.GenPrefix != nil {
			templates["gen_prefix"] = *c.GenPrefix
		}
		for _, key := range sortedAnyKeys(templates) {
			if s, ok := templates[key].(string); ok && s != "" {
				if err := tmpl.Compile(s); err != nil {
					add("%s: %v", key, err)
				}
			}
		}
		if c.UnsafeCode {
			probs = append(probs, Problem{Name: t.Name, File: c.File, Note: true, Message: UnsafeCodeNote})
		}
		if c.DocToText == nil && c.OutputType != OutputLoglikelihoodRolling {
			add("doc_to_text is not set")
		}
		if c.DocToTarget == nil {
			add("doc_to_target is not set")
		}
		if c.OutputType == OutputMultipleChoice && c.DocToChoice == nil {
			add("output_type multiple_choice needs doc_to_choice")
		}
		if c.TestSplit == "" && c.ValidationSplit == "" {
			add("neither test_split nor validation_split is set")
		}
		for _, err := range []error{c.MetricsError, c.FiltersError} {
			if err != nil {
				add("%v", err)
			}
		}
		if opts.MetricKnown != nil && c.ProcessResults == nil {
			fnMetric := map[string]bool{}
			for _, s := range c.Metrics {
				if s.Function != "" {
					fnMetric[s.Function] = true // a native function, resolved at load
				}
			}
			for _, m := range c.MetricNames() {
				if !fnMetric[m] && !opts.MetricKnown(m) {
					add("metric_list: unknown metric %q", m)
				}
			}
		}
		if opts.FilterKnown != nil {
			for _, f := range c.Filters {
				for _, step := range f.Steps {
					if step.Factory != nil {
						continue // a native filter class
					}
					if !opts.FilterKnown(step.Function) {
						add("filter_list %s: unknown filter %q", f.Name, step.Function)
					}
				}
			}
		}
		if opts.Loader != nil || c.CustomDataset != nil {
			bo := BuildOptions{Loader: opts.Loader, Limit: float64(n), Templates: tmpl}
			if err := t.build(ctx, bo); errors.Is(err, ErrNotLocal) {
				probs = append(probs, Problem{Name: t.Name, File: t.Config.File, Message: NotLocalNote, Note: true})
			} else if err != nil {
				add("building the first %d documents: %v", n, err)
			} else {
				docs := fmt.Sprintf("the %d documents", len(t.Docs))
				if len(t.Docs) < t.NumEvalDocs {
					docs = fmt.Sprintf("the first %d documents", len(t.Docs))
				}
				if d, k := t.GoldErrors(); k > 0 {
					add("gold answer is not one of the choices in %d of %s (first: doc_id %d, gold %s, %d choices): scored as wrong",
						k, docs, d.ID, pyval.Repr(t.GoldValue(d)), len(d.Choices))
				}
				if d, field, k := t.NoneFields(); k > 0 {
					add("field %q is None and renders as \"None\" in %d of %s (first: doc_id %d): a missing value in the data",
						field, k, docs, d.ID)
				}
			}
		}
	}
	return probs
}

func flatten(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, flatten(e)...)
		}
		return out
	}
	return []error{err}
}

func sortedAnyKeys(m map[string]any) []string {
	keys := map[string]bool{}
	for k := range m {
		keys[k] = true
	}
	return sortedKeys(keys)
}

// memberMetric reports whether a member task of g lists metric in its
// metric_list while its process_results produces the values (a metric
// such as minerva_math's math_verify that only exists there).
func memberMetric(g *Group, metric string) bool {
	for _, t := range g.AllTasks(true) {
		if t.Config.ProcessResults == nil {
			continue
		}
		for _, m := range t.Config.MetricNames() {
			if m == metric {
				return true
			}
		}
	}
	return false
}
