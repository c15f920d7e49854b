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
// `!function module.fn`, each registered with its kind's registration
// function (hooks.go).
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
		h, ok := LookupHook(x.Dir, x.Name)
		if !ok {
			missing[x.Name] = true
			return x
		}
		if h.Kind == HookUnavailable {
			unavailable[x.Name] = h.Unavailable
			return x
		}
		if w := checkStale(x.Dir, x.Name); w != "" {
			stale[w] = true
		}
		return &Func{Dir: x.Dir, Name: x.Name, Hook: h}
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

// resolveConditional settles the ports registered unavailable to some
// configurations (RegisterUnavailableIf) in a resolved configuration:
// those this configuration cannot use are unavailable, with their reason.
func resolveConditional(cfg map[string]any, unavailable map[string]string) {
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case *Func:
			if r := x.Hook.unavailableFor(cfg); r != "" {
				unavailable[x.Name] = r
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
		if _, ok := PySource(src, function); ok || strings.Contains(src, "globals()") || pyImportsName(src, function) {
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

// callDoc calls a doc_to_* function.
func callDoc(f *Func, doc Doc) (any, error) {
	if f.Hook.DocFunc == nil {
		return nil, f.Hook.kindError(f.Name, HookDocFunc)
	}
	v, err := f.Hook.DocFunc(doc)
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
// seeded with the run's seed (random.seed(seed), BuildOptions.Random)
// when the task first processes a split, and continued by every split it
// processes, each once (datasets' map cache). The task processes
// them in lm-eval's order: ConfigurableTask.__init__ calls fewshot_docs()
// (the few-shot split, else training, validation or test) before
// eval_docs, whatever num_fewshot is. What it reproduces is a run of that
// one task with a fresh map cache: in lm-eval the state also depends on
// what else the run drew and on map caches left by earlier runs.
//
// FnModule, set instead of Fn, is for a function that uses the run's
// module-level generator itself (BuildOptions.Random): its seed, or its
// draws (Module.With), with a cache of its results per run (Module.Epoch).
type MapDocs struct {
	Fn        ProcessDocsFunc
	FnColumns func(docs []Doc, cols *pyval.Columns) ([]Doc, error)
	FnRand    func(docs []Doc, rnd *pyrand.Rand) ([]Doc, error)
	FnModule  func(docs []Doc, m *pyrand.Module) ([]Doc, error)
	Columns   []string
	// GlobalRandom marks a FnModule that draws from the module-level
	// generator (random.shuffle): lm-eval runs it when it constructs the
	// task, in task order, so the evaluator builds such tasks one after
	// another, in lm-eval's order. (FnRand is the per-task-stream form of
	// the same.)
	GlobalRandom bool
}

// drawsModuleRandom reports a process_docs registered with MapDocs.FnRand.
func drawsModuleRandom(f *Func) bool {
	m := f.Hook.ProcessDocs
	return m != nil && m.FnRand != nil
}

// UsesGlobalRandom reports whether the task's process_docs draws from
// Python's module-level generator (MapDocs.GlobalRandom).
func (c *Config) UsesGlobalRandom() bool {
	for _, f := range []*Func{c.ProcessDocs, c.Fewshot.ProcessDocs} {
		if f != nil && f.Hook.ProcessDocs != nil && f.Hook.ProcessDocs.GlobalRandom {
			return true
		}
	}
	return false
}

// addedColumns is the order a process_docs gives the columns it adds (nil:
// unknown, sorted).
func addedColumns(f *Func) []string {
	if m := f.Hook.ProcessDocs; m != nil {
		return m.Columns
	}
	return nil
}

// callProcessDocs calls a process_docs on a split's documents, whose
// column order is cols (nil when unknown), for task t, whose module
// generator and stream a MapDocs.FnModule or FnRand gets.
func callProcessDocs(f *Func, docs []Doc, cols *pyval.Columns, t *Task) ([]Doc, error) {
	m := f.Hook.ProcessDocs
	if m == nil {
		return nil, f.Hook.kindError(f.Name, HookProcessDocs)
	}
	var (
		out []Doc
		err error
	)
	switch {
	case m.FnModule != nil:
		out, err = m.FnModule(docs, t.random)
	case m.FnRand != nil:
		out, err = m.FnRand(docs, t.moduleRand())
	case m.FnColumns != nil:
		out, err = m.FnColumns(docs, cols)
	default:
		out, err = m.Fn(docs)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Name, err)
	}
	return out, nil
}
