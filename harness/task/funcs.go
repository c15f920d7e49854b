package task

import (
	"fmt"
	"sort"
)

// Doc is one dataset document: JSON-like values (string, int64, float64,
// bool, nil, []any, map[string]any).
type Doc = map[string]any

// Native stand-ins for the Python functions task YAML names with
// `!function module.fn`. RegisterFunction accepts these types (and, for
// hooks the task layer does not call itself — metrics, aggregations,
// filters — any value, which the evaluator type-asserts).
type (
	// ProcessDocsFunc is process_docs: it maps a split's documents.
	// Columns it adds go after the dataset's, sorted; register a MapDocs
	// to give them the Python function's order.
	ProcessDocsFunc func(docs []Doc) ([]Doc, error)
	// DocFunc is doc_to_text, doc_to_target, doc_to_choice or gen_prefix:
	// it returns a string, an int (an index among the choices), a []string
	// or []any (choices, or several targets).
	DocFunc func(doc Doc) (any, error)
	// ProcessResultsFunc is process_results: results holds, per request of
	// the document, a model.LoglikelihoodResult, a model.RollingResult or
	// the (filtered) generated string.
	ProcessResultsFunc func(doc Doc, results []any) (map[string]any, error)
	// SamplesFunc is fewshot_config.samples given as a function.
	SamplesFunc func() ([]Doc, error)
	// CustomDatasetFunc is custom_dataset: it returns the documents of
	// every split from the task's dataset_kwargs merged with its metadata.
	CustomDatasetFunc func(kwargs map[string]any) (map[string][]Doc, error)
)

// Unavailable is registered (RegisterHelper) for an lm-eval helper that
// lmeval cannot reproduce on this machine: one that calls a hosted model
// or API, or a neural metric whose weights lmeval cannot run. A task whose
// YAML names it is unavailable, with Reason (a sentence for users) as the
// why.
//
// A helper that several tasks share, only some of which need what lmeval
// lacks, sets If (true for the task configurations that cannot run) and
// Port (the port serving the others).
type Unavailable struct {
	Reason string
	If     func(cfg map[string]any) bool
	Port   any
}

// unavailableReasons lists, sorted and without repeats, the reasons of the
// Unavailable helpers a resolved configuration names; an Unavailable whose
// If does not accept the configuration is replaced by its Port.
func unavailableReasons(cfg map[string]any) []string {
	seen := map[string]bool{}
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case *Func:
			if u, ok := x.Fn.(Unavailable); ok {
				if u.If != nil && !u.If(cfg) {
					x.Fn = u.Port
				} else {
					seen[x.Name+": "+u.Reason] = true
				}
			}
		case map[string]any:
			for _, e := range x {
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(cfg)
	return sortedKeys(seen)
}

// resolveFuncs replaces every FuncRef in v with a *Func, collecting the
// names of those with no registered implementation, and the warnings for
// ports whose Python source on disk differs from the one they reproduce.
func resolveFuncs(v any, missing, stale map[string]bool) any {
	switch x := v.(type) {
	case FuncRef:
		fn, ok := LookupFunction(x.Dir, x.Name)
		if !ok {
			missing[x.Name] = true
			return x
		}
		if w := checkStale(x.Dir, x.Name); w != "" {
			stale[w] = true
		}
		return &Func{Dir: x.Dir, Name: x.Name, Fn: fn}
	case map[string]any:
		for k, e := range x {
			x[k] = resolveFuncs(e, missing, stale)
		}
	case []any:
		for i, e := range x {
			x[i] = resolveFuncs(e, missing, stale)
		}
	}
	return v
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// callDoc calls a doc_to_* function, accepting the handful of shapes a
// native function may reasonably have.
func callDoc(f *Func, doc Doc) (any, error) {
	var (
		v   any
		err error
	)
	switch fn := f.Fn.(type) {
	case DocFunc:
		v, err = fn(doc)
	case func(Doc) (any, error):
		v, err = fn(doc)
	case func(Doc) any:
		v = fn(doc)
	case func(Doc) string:
		v = fn(doc)
	case func(Doc) (string, error):
		v, err = fn(doc)
	case func(Doc) int:
		v = fn(doc)
	case func(Doc) []string:
		v = fn(doc)
	case func(Doc) ([]string, error):
		v, err = fn(doc)
	default:
		return nil, fmt.Errorf("%s: registered %T, want task.DocFunc", f.Name, f.Fn)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Name, err)
	}
	return v, nil
}

// MapDocs is a process_docs that is datasets' Dataset.map(fn) in Python:
// Fn maps the documents, and Columns names the keys fn's returned dict
// sets, in its order. Dataset.map keeps the columns a document had in
// their place and appends the new ones in that order, so the documents
// lm-eval logs (and their doc_hash) have the keys in that order too.
type MapDocs struct {
	Fn      ProcessDocsFunc
	Columns []string
}

// addedColumns is the order a process_docs gives the columns it adds (nil:
// unknown, sorted).
func addedColumns(f *Func) []string {
	if m, ok := f.Fn.(MapDocs); ok {
		return m.Columns
	}
	return nil
}

func callProcessDocs(f *Func, docs []Doc) ([]Doc, error) {
	var (
		out []Doc
		err error
	)
	switch fn := f.Fn.(type) {
	case MapDocs:
		out, err = fn.Fn(docs)
	case ProcessDocsFunc:
		out, err = fn(docs)
	case func([]Doc) ([]Doc, error):
		out, err = fn(docs)
	case func([]Doc) []Doc:
		out = fn(docs)
	default:
		return nil, fmt.Errorf("%s: registered %T, want task.ProcessDocsFunc", f.Name, f.Fn)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Name, err)
	}
	return out, nil
}
