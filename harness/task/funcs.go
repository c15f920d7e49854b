package task

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/lmeval/lmeval/python/pyrand"
	"github.com/lmeval/lmeval/python/pyval"
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
	// the (filtered) generated string. A value that is not a number or
	// JSON-like may implement SampleValuer to be logged as lm-eval logs
	// its Python value.
	ProcessResultsFunc func(doc Doc, results []any) (map[string]any, error)
	// SamplesFunc is fewshot_config.samples given as a function.
	SamplesFunc func() ([]Doc, error)
	// CustomDatasetFunc is custom_dataset: it returns the documents of
	// every split from the task's dataset_kwargs merged with its metadata.
	CustomDatasetFunc func(kwargs map[string]any) (map[string][]Doc, error)
	// CustomDatasetLoaderFunc is a custom_dataset that loads documents
	// itself (datasets.load_dataset in Python): it gets the build's
	// document loader, nil when documents are not to be loaded (validate
	// --no_docs), when it should return an error wrapping ErrNotLocal.
	CustomDatasetLoaderFunc func(ctx context.Context, kwargs map[string]any, load DocLoader) (map[string][]Doc, error)
)

// Unavailable is registered for a helper lmeval cannot run at all (it
// needs a neural model, a hosted service, a package with no offline
// equivalent): a task whose YAML names it is unavailable, and Reason, in
// words a user understands, says why.
//
// A helper that several tasks share, only some of which need what lmeval
// lacks, sets If (true for the task configurations that cannot run) and
// Port (the port serving the others).
type Unavailable struct {
	Reason string
	If     func(cfg map[string]any) bool
	Port   any
}

// SampleValuer is a per-document metric value (of a native
// process_results) that a samples file records as SampleValue(): the
// JSON-like form of the Python value lm-eval logs, a tuple as []any, a
// dict as an ordered map.
type SampleValuer interface{ SampleValue() any }

// resolveFuncs replaces every FuncRef in v with a *Func, collecting the
// names of those with no registered implementation, the reasons of those
// registered as Unavailable, and the warnings for ports whose Python
// source on disk differs from the one they reproduce.
func resolveFuncs(v any, missing, stale map[string]bool, unavailable map[string]string) any {
	switch x := v.(type) {
	case FuncRef:
		fn, ok := LookupFunction(x.Dir, x.Name)
		if !ok {
			missing[x.Name] = true
			return x
		}
		if u, ok := fn.(Unavailable); ok && u.If == nil {
			unavailable[x.Name] = u.Reason
			return x
		}
		if w := checkStale(x.Dir, x.Name); w != "" {
			stale[w] = true
		}
		return &Func{Dir: x.Dir, Name: x.Name, Fn: fn}
	case map[string]any:
		for k, e := range x {
			x[k] = resolveFuncs(e, missing, stale, unavailable)
		}
	case []any:
		for i, e := range x {
			x[i] = resolveFuncs(e, missing, stale, unavailable)
		}
	}
	return v
}

// resolveConditional settles the Unavailable helpers with an If in a
// resolved configuration: those the configuration needs are unavailable
// (with their reason), the others become their Port.
func resolveConditional(cfg map[string]any, unavailable map[string]string) {
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case *Func:
			if u, ok := x.Fn.(Unavailable); ok {
				if u.If(cfg) {
					unavailable[x.Name] = u.Reason
				} else {
					x.Fn = u.Port
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
}

// undefinedFuncs finds the `!function`s left unresolved in v whose
// module lies on disk and neither defines nor imports the name: lm-eval
// cannot load such a task (getattr fails). out maps each such name to
// its module's file name ("utils.py").
func undefinedFuncs(v any, out map[string]string) {
	switch x := v.(type) {
	case FuncRef:
		file, function := helperFile(filepath.ToSlash(x.Dir), x.Name)
		data, err := os.ReadFile(filepath.FromSlash(file))
		if err != nil {
			return // not on disk (embedded tree) or no such module
		}
		src := string(data)
		if pyDefinition(src, function) != "" || strings.Contains(src, "globals()") || pyImportsName(src, function) {
			return
		}
		out[x.Name] = path.Base(file)
	case map[string]any:
		for _, e := range x {
			undefinedFuncs(e, out)
		}
	case []any:
		for _, e := range x {
			undefinedFuncs(e, out)
		}
	}
}

// pyImportsName reports an import statement that may bind name (a loose
// check: a name it cannot rule out counts as imported).
func pyImportsName(src, name string) bool {
	word := regexp.MustCompile(`\b` + regexp.QuoteMeta(name) + `\b`)
	for _, re := range []*regexp.Regexp{
		regexp.MustCompile(`(?m)^[ \t]*(?:from[ \t]+\S+[ \t]+)?import[ \t][^\n]*`),
		regexp.MustCompile(`(?m)^[ \t]*from[ \t]+\S+[ \t]+import[ \t]*\([^)]*\)`),
	} {
		for _, stmt := range re.FindAllString(src, -1) {
			if word.MatchString(stmt) {
				return true
			}
		}
	}
	return false
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
//
// FnColumns, set instead of Fn, is for a function that reads a document's
// keys in order (doc.keys(), a loop over the dict): it also gets the
// split's column order, nil when unknown (then pyval.Columns.Keys sorts).
//
// FnRand, set instead of Fn, is for a function that draws from Python's
// module-level generator (random.shuffle): rnd is the task's stream,
// seeded with the global seed (pyrand.GlobalSeed, random.seed(seed) of
// the run) when the task first processes a split, and continued by every
// split it processes, each once (datasets' map cache). The task processes
// them in lm-eval's order: ConfigurableTask.__init__ calls fewshot_docs()
// (the few-shot split, else training, validation or test) before
// eval_docs, whatever num_fewshot is. What it reproduces is a run of that
// one task with a fresh map cache: in lm-eval the state also depends on
// what else the run drew and on map caches left by earlier runs.
type MapDocs struct {
	Fn        ProcessDocsFunc
	FnColumns func(docs []Doc, cols *pyval.Columns) ([]Doc, error)
	FnRand    func(docs []Doc, rnd *pyrand.Rand) ([]Doc, error)
	Columns   []string
	// GlobalRandom marks a process_docs that draws from Python's
	// module-level generator (random.shuffle) through pyrand's global
	// generator: lm-eval runs it when it constructs the task, in task
	// order, so the evaluator builds such tasks one after another, in
	// lm-eval's order. (FnRand is the per-task-stream form of the same.)
	GlobalRandom bool
}

// drawsModuleRandom reports a process_docs registered with MapDocs.FnRand.
func drawsModuleRandom(f *Func) bool {
	m, ok := f.Fn.(MapDocs)
	return ok && m.FnRand != nil
}

// UsesGlobalRandom reports whether the task's process_docs draws from
// Python's module-level generator (MapDocs.GlobalRandom).
func (c *Config) UsesGlobalRandom() bool {
	for _, f := range []*Func{c.ProcessDocs, c.Fewshot.ProcessDocs} {
		if f != nil {
			if m, ok := f.Fn.(MapDocs); ok && m.GlobalRandom {
				return true
			}
		}
	}
	return false
}

// addedColumns is the order a process_docs gives the columns it adds (nil:
// unknown, sorted).
func addedColumns(f *Func) []string {
	if m, ok := f.Fn.(MapDocs); ok {
		return m.Columns
	}
	return nil
}

// callProcessDocs calls a process_docs on a split's documents, whose
// column order is cols (nil when unknown); rnd gives a MapDocs.FnRand its
// stream.
func callProcessDocs(f *Func, docs []Doc, cols *pyval.Columns, rnd func() *pyrand.Rand) ([]Doc, error) {
	var (
		out []Doc
		err error
	)
	switch fn := f.Fn.(type) {
	case MapDocs:
		switch {
		case fn.FnRand != nil:
			out, err = fn.FnRand(docs, rnd())
		case fn.FnColumns != nil:
			out, err = fn.FnColumns(docs, cols)
		default:
			out, err = fn.Fn(docs)
		}
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
