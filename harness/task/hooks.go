package task

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/lmeval/lmeval/harness/filters"
	"github.com/lmeval/lmeval/harness/metrics"
)

// Helper names one of lm-eval's Python helpers that a native port
// reproduces: the function (or class, or `name = partial(...)`
// assignment) Function of the file File, relative to lm_eval/tasks/
// ("mmlu_pro/utils.py"), whose source (ast.get_source_segment of its
// definition, UTF-8) has the hex sha256 SHA256. It is the key a port is
// registered under. lmeval's own helpers (for its built-in tasks) have
// no SHA256.
type Helper struct {
	File     string
	Function string
	SHA256   string
}

// Key is the helper's "file:function" name.
func (h Helper) Key() string { return h.File + ":" + h.Function }

// HookKind is what a task's YAML uses a helper for: the key whose value
// is its `!function` tag.
type HookKind string

// The hook kinds, one per use lm-eval's YAML makes of a helper.
const (
	HookDocFunc        HookKind = "doc_to_*"        // doc_to_text, doc_to_target, doc_to_choice, gen_prefix
	HookProcessDocs    HookKind = "process_docs"    // process_docs (and fewshot_config's)
	HookProcessResults HookKind = "process_results" // process_results
	HookMetric         HookKind = "metric"          // metric_list's metric
	HookAggregation    HookKind = "aggregation"     // metric_list's aggregation
	HookFilter         HookKind = "filter"          // a filter step's function (a filter class)
	HookFilterFunc     HookKind = "filter_fn"       // the custom filter's filter_fn
	HookSamples        HookKind = "samples"         // fewshot_config.samples
	HookDataset        HookKind = "custom_dataset"  // custom_dataset
	HookClass          HookKind = "class"           // class: a Python class task
	HookUnavailable    HookKind = "unavailable"     // a helper lmeval cannot run, with the reason
)

// hookUses maps the YAML keys lm-eval's task tree names helpers under
// (the generated table's Uses) to the kind of port that serves them.
var hookUses = map[string]HookKind{
	"doc_to_text": HookDocFunc, "doc_to_target": HookDocFunc, "doc_to_choice": HookDocFunc,
	"gen_prefix": HookDocFunc, "doc_to_decontamination_query": HookDocFunc,
	"doc_to_image": HookDocFunc, "doc_to_audio": HookDocFunc,
	"process_docs": HookProcessDocs, "process_results": HookProcessResults,
	"metric": HookMetric, "aggregation": HookAggregation,
	"function": HookFilter, "filter_fn": HookFilterFunc,
	"samples": HookSamples, "custom_dataset": HookDataset, "class": HookClass,
}

// Hook is a registered port: the helper it reproduces, its kind, and the
// native function, in the one field of its kind (the registration
// function of that kind sets it). A helper lmeval cannot run has Kind
// HookUnavailable and Unavailable set; a port that cannot run for some
// of the tasks naming it has its own kind and UnavailableIf too.
type Hook struct {
	Helper Helper
	Kind   HookKind

	DocFunc        DocFunc                 // HookDocFunc
	ProcessDocs    *MapDocs                // HookProcessDocs
	ProcessResults ProcessResultsFunc      // HookProcessResults
	Metric         metrics.Func            // HookMetric: lm-eval's fn(references, predictions, **kwargs)
	DocMetric      metrics.DocFunc         // HookMetric: a per-document metric function
	Aggregation    *metrics.Aggregation    // HookAggregation
	Filter         filters.Factory         // HookFilter
	FilterFunc     filters.FilterFunc      // HookFilterFunc
	Samples        SamplesFunc             // HookSamples
	Dataset        CustomDatasetFunc       // HookDataset
	DatasetLoader  CustomDatasetLoaderFunc // HookDataset: one that loads documents itself
	Class          *Class                  // HookClass

	// Unavailable says, in words a user understands, why lmeval cannot
	// run the helper (it needs a neural model, a hosted service, a
	// package with no offline equivalent); with UnavailableIf, only for
	// the task configurations it reports true for.
	Unavailable   string
	UnavailableIf func(cfg map[string]any) bool
}

// unavailableFor is the reason the hook cannot run for the task
// configuration cfg, "" when it can.
func (h *Hook) unavailableFor(cfg map[string]any) string {
	switch {
	case h.Unavailable == "":
		return ""
	case h.UnavailableIf == nil || h.UnavailableIf(cfg):
		return h.Unavailable
	}
	return ""
}

// kindError says that a `!function` used as want names a port of
// another kind.
func (h *Hook) kindError(name string, want HookKind) error {
	return fmt.Errorf("%s: the port of %s is registered as a %s hook, not %s", name, h.Helper.Key(), h.Kind, want)
}

var (
	hookMu sync.RWMutex
	// hooks maps "file:function" to its port; a registration serves every
	// file:function of the generated table whose source is the same.
	hooks = map[string]*Hook{}
	// registered are the registrations themselves, for listings.
	registered []*Hook
)

// RegisterDocFunc registers fn as the port of helper h, a doc_to_text,
// doc_to_target, doc_to_choice or gen_prefix function.
func RegisterDocFunc(h Helper, fn DocFunc) {
	register(&Hook{Helper: h, Kind: HookDocFunc, DocFunc: fn}, fn == nil)
}

// RegisterProcessDocs registers fn as the port of helper h, a
// process_docs function. Columns fn adds go after the dataset's, sorted;
// RegisterMapDocs gives them the Python function's order.
func RegisterProcessDocs(h Helper, fn ProcessDocsFunc) {
	register(&Hook{Helper: h, Kind: HookProcessDocs, ProcessDocs: &MapDocs{Fn: fn}}, fn == nil)
}

// RegisterMapDocs registers m as the port of helper h, a process_docs
// function that is datasets' Dataset.map in Python (see MapDocs).
func RegisterMapDocs(h Helper, m MapDocs) {
	n := 0
	for _, set := range []bool{m.Fn != nil, m.FnColumns != nil, m.FnRand != nil, m.FnModule != nil} {
		if set {
			n++
		}
	}
	register(&Hook{Helper: h, Kind: HookProcessDocs, ProcessDocs: &m}, n != 1 || m.GlobalRandom && m.FnModule == nil)
}

// RegisterProcessResults registers fn as the port of helper h, a
// process_results function.
func RegisterProcessResults(h Helper, fn ProcessResultsFunc) {
	register(&Hook{Helper: h, Kind: HookProcessResults, ProcessResults: fn}, fn == nil)
}

// RegisterMetric registers fn as the port of helper h, a metric_list
// entry's `metric: !function` that lm-eval calls as fn(references,
// predictions, **kwargs).
func RegisterMetric(h Helper, fn metrics.Func) {
	register(&Hook{Helper: h, Kind: HookMetric, Metric: fn}, fn == nil)
}

// RegisterDocMetric registers fn as the port of helper h, a metric_list
// entry's `metric: !function` computed per document from the document's
// answers, as the registered metrics are.
func RegisterDocMetric(h Helper, fn metrics.DocFunc) {
	register(&Hook{Helper: h, Kind: HookMetric, DocMetric: fn}, fn == nil)
}

// RegisterAggregation registers a as the port of helper h, a metric_list
// entry's `aggregation: !function`. a must be registered with
// metrics.RegisterAggregation first: results name it by its Name.
func RegisterAggregation(h Helper, a *metrics.Aggregation) {
	if a != nil {
		if reg, ok := metrics.LookupAggregation(a.Name); !ok || reg != a {
			panic(fmt.Sprintf("task: RegisterAggregation(%s): aggregation %q is not registered with the metrics package", h.Key(), a.Name))
		}
	}
	register(&Hook{Helper: h, Kind: HookAggregation, Aggregation: a}, a == nil)
}

// RegisterFilter registers f as the port of helper h, a filter class a
// filter step names (`function: !function utils.X`).
func RegisterFilter(h Helper, f filters.Factory) {
	register(&Hook{Helper: h, Kind: HookFilter, Filter: f}, f == nil)
}

// RegisterFilterFunc registers fn as the port of helper h, the function
// of lm-eval's custom filter (`filter_fn: !function utils.f`).
func RegisterFilterFunc(h Helper, fn filters.FilterFunc) {
	register(&Hook{Helper: h, Kind: HookFilterFunc, FilterFunc: fn}, fn == nil)
}

// RegisterSamples registers fn as the port of helper h, a
// fewshot_config.samples function.
func RegisterSamples(h Helper, fn SamplesFunc) {
	register(&Hook{Helper: h, Kind: HookSamples, Samples: fn}, fn == nil)
}

// RegisterDataset registers fn as the port of helper h, a custom_dataset
// function.
func RegisterDataset(h Helper, fn CustomDatasetFunc) {
	register(&Hook{Helper: h, Kind: HookDataset, Dataset: fn}, fn == nil)
}

// RegisterDatasetLoader registers fn as the port of helper h, a
// custom_dataset function that loads documents itself.
func RegisterDatasetLoader(h Helper, fn CustomDatasetLoaderFunc) {
	register(&Hook{Helper: h, Kind: HookDataset, DatasetLoader: fn}, fn == nil)
}

// RegisterClass registers the port of a Python class task, for its file
// and class and for every file of lm-eval's tree with an identical class.
// It panics on an incomplete registration.
func RegisterClass(c *Class) {
	register(&Hook{Helper: Helper{File: c.File, Function: c.Name, SHA256: c.SHA256}, Kind: HookClass, Class: c},
		c.Setup == nil || c.Requests == nil)
}

// RegisterUnavailable registers helper h as one lmeval cannot run at all
// (it needs a neural model, a hosted service, a package with no offline
// equivalent): a task whose YAML names it is unavailable, and reason, in
// words a user understands, says why.
func RegisterUnavailable(h Helper, reason string) {
	register(&Hook{Helper: h, Kind: HookUnavailable, Unavailable: reason}, reason == "")
}

// RegisterUnavailableIf marks the port already registered for helper h
// as unavailable, for reason, to the task configurations cond reports
// true for (a helper several tasks share, only some of which need what
// lmeval lacks); the others use the port.
func RegisterUnavailableIf(h Helper, reason string, cond func(cfg map[string]any) bool) {
	hookMu.Lock()
	defer hookMu.Unlock()
	p := hooks[h.Key()]
	switch {
	case reason == "" || cond == nil:
		panic(fmt.Sprintf("task: RegisterUnavailableIf(%s): incomplete registration", h.Key()))
	case p == nil || p.Helper != h:
		panic(fmt.Sprintf("task: RegisterUnavailableIf(%s): register the helper's port first", h.Key()))
	case p.Unavailable != "":
		panic(fmt.Sprintf("task: RegisterUnavailableIf(%s): registered twice", h.Key()))
	}
	p.Unavailable, p.UnavailableIf = reason, cond
}

// register adds p for its helper and for every other file:function of
// lm-eval's task tree (the generated table made by
// scripts/pyhelpers/scan.py) whose source, and that of every module-level
// name it uses, is identical. It panics, naming the helper, as
// text/template's Funcs does for a bad function, when the registration is
// incomplete (no file, function or implementation), when the sha256 is
// not the one the table records for the helper (the port was made from
// another source) or is missing for a helper the table knows, when
// lm-eval's YAML never uses the helper as a hook of p's kind, or when
// another port already serves the helper.
func register(p *Hook, incomplete bool) {
	h := p.Helper
	fn := "Register" + registerName[p.Kind]
	if incomplete || h.File == "" || h.Function == "" {
		panic(fmt.Sprintf("task: %s(%s): incomplete registration", fn, h.Key()))
	}
	src, known := pySources[h.Key()]
	if known && h.SHA256 != src.SHA256 {
		panic(fmt.Sprintf("task: %s(%s): sha256 %q, but lm-eval's source at commit %.12s has %s", fn, h.Key(), h.SHA256, lmevalTasksCommit, src.SHA256))
	}
	keys := []string{h.Key()}
	if known {
		if err := checkUses(p.Kind, src.Uses); err != nil {
			panic(fmt.Sprintf("task: %s(%s): %v", fn, h.Key(), err))
		}
		for k, s := range pySources {
			if s.Group == src.Group && k != h.Key() {
				keys = append(keys, k)
			}
		}
	}
	hookMu.Lock()
	defer hookMu.Unlock()
	if prev, dup := hooks[h.Key()]; dup {
		panic(fmt.Sprintf("task: %s(%s): duplicate port (the %s hook registered for %s serves it)", fn, h.Key(), prev.Kind, prev.Helper.Key()))
	}
	for _, k := range keys {
		if _, dup := hooks[k]; dup && k != h.Key() {
			continue // a port of this very source was registered first
		}
		hooks[k] = p
	}
	registered = append(registered, p)
}

// registerName is the registration function of each kind, for messages.
var registerName = map[HookKind]string{
	HookDocFunc: "DocFunc", HookProcessDocs: "ProcessDocs", HookProcessResults: "ProcessResults",
	HookMetric: "Metric", HookAggregation: "Aggregation", HookFilter: "Filter", HookFilterFunc: "FilterFunc",
	HookSamples: "Samples", HookDataset: "Dataset", HookClass: "Class", HookUnavailable: "Unavailable",
}

// checkUses reports a kind of port that none of the YAML keys naming the
// helper in lm-eval's tree asks for.
func checkUses(kind HookKind, uses []string) error {
	if kind == HookUnavailable || len(uses) == 0 {
		return nil
	}
	var asked []string
	for _, u := range uses {
		k, ok := hookUses[u]
		if !ok || k == kind {
			return nil // a use this check does not know, or this kind
		}
		asked = append(asked, fmt.Sprintf("%s (%s:)", k, u))
	}
	return fmt.Errorf("lm-eval's YAML uses it as %s, not as a %s hook", strings.Join(asked, ", "), kind)
}

// helperFile is where `!function name` in a YAML file of directory dir
// points: module "utils" of "utils.fn" is dir/utils.py.
func helperFile(dir, name string) (file, function string) {
	mod, fn := "", name
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		mod, fn = name[:i], name[i+1:]
	}
	file = strings.ReplaceAll(mod, ".", "/") + ".py"
	if dir != "" && dir != "." {
		file = dir + "/" + file
	}
	return file, fn
}

// Hooks lists the registered ports, by helper.
func Hooks() []Hook {
	hookMu.RLock()
	defer hookMu.RUnlock()
	out := make([]Hook, len(registered))
	for i, h := range registered {
		out[i] = *h
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Helper.Key() < out[j].Helper.Key() })
	return out
}

// HelperCoverage lists every file:function of lm-eval's task tree that a
// port serves, with the port's own file:function.
func HelperCoverage() map[string]string {
	hookMu.RLock()
	defer hookMu.RUnlock()
	out := map[string]string{}
	for k, h := range hooks {
		out[k] = h.Helper.Key()
	}
	return out
}

// LookupHook finds the port for `!function name` in a YAML file whose
// directory is dir: the hook registered for dir's file and function,
// where a registered file matches when it is a trailing part of the path
// (so the same registration serves lmeval's built-in tasks and lm-eval's
// task tree wherever it lies). The longest match wins.
func LookupHook(dir, name string) (*Hook, bool) {
	h, _ := lookupHook(dir, name)
	return h, h != nil
}

func lookupHook(dir, name string) (*Hook, string) {
	full, function := helperFile(filepath.ToSlash(strings.TrimRight(dir, "/")), name)
	hookMu.RLock()
	defer hookMu.RUnlock()
	// The longest file:function of lm-eval's tree, or of the ports, that
	// the path ends with says which helper the YAML means; a port serves
	// it only when registered for that very file (so llama3/instruct/
	// mmlu_pro/utils.py does not get mmlu_pro/utils.py's port).
	bestKey := ""
	match := func(k string) {
		file, fn, _ := strings.Cut(k, ":")
		if fn == function && len(k) > len(bestKey) && (full == file || strings.HasSuffix(full, "/"+file)) {
			bestKey = k
		}
	}
	for _, k := range hookKeys(function) {
		match(k)
	}
	return hooks[bestKey], bestKey
}

// hookIndex is every file:function of hooks and pySources by function,
// so that a lookup compares only the keys of its function (listing
// lm-eval's tree looks up some 20,000 `!function`s among 2,000 keys).
type hookIndex struct {
	n    int // len(hooks) when built: a registration since rebuilds it
	byFn map[string][]string
}

var funcIndex atomic.Pointer[hookIndex]

// hookKeys are the keys for function; the caller holds hookMu.
func hookKeys(function string) []string {
	ix := funcIndex.Load()
	if ix == nil || ix.n != len(hooks) {
		ix = &hookIndex{n: len(hooks), byFn: map[string][]string{}}
		for k := range hooks {
			_, fn, _ := strings.Cut(k, ":")
			ix.byFn[fn] = append(ix.byFn[fn], k)
		}
		for k := range pySources {
			_, fn, _ := strings.Cut(k, ":")
			ix.byFn[fn] = append(ix.byFn[fn], k)
		}
		funcIndex.Store(ix)
	}
	return ix.byFn[function]
}
