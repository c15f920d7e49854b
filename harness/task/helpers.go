package task

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
)

// Helper is a native port of one of lm-eval's Python helpers: the
// function (or class, or `name = partial(...)` assignment) Function of the
// file File, relative to lm_eval/tasks/ ("mmlu_pro/utils.py"), whose
// source (ast.get_source_segment of its definition, UTF-8) has sha256
// SHA256. Fn is the native function, of one of the types RegisterHelper
// documents.
type Helper struct {
	File     string
	Function string
	SHA256   string
	Fn       any
}

// Key is the helper's "file:function" name.
func (h Helper) Key() string { return h.File + ":" + h.Function }

// pySource is one row of the generated table of lm-eval's helpers.
type pySource struct {
	SHA256 string  // of the definition's source
	Group  int     // index into pyGroups: one port serves one group
	Deps   []pyDep // module-level names the definition uses
}

type pyDep struct{ Name, SHA256 string }

var (
	helperMu sync.RWMutex
	// helpers maps "file:function" to its port; a registration serves
	// every file:function of the generated table whose source is the same.
	helpers = map[string]*Helper{}
	// registered are the registrations themselves, for listings.
	registered []*Helper
)

// RegisterHelper registers h for its file and function, and for every
// other file:function of lm-eval's task tree (the generated table made by
// scripts/pyhelpers/scan.py) whose source, and that of every module-level
// name it uses, is identical. It panics when h's sha256 is not the one the
// table records for its file:function (the port was made from another
// source) or when another port already serves one of those names.
//
// Fn's type says the hook: ProcessDocsFunc, DocFunc, ProcessResultsFunc,
// SamplesFunc, CustomDatasetFunc, a metric or aggregation function
// (harness/metrics.DocFunc, harness/metrics.AggregateFunc) or a filter
// factory (harness/filters.Factory); the task layer type-asserts the
// hooks it calls and hands the others to the evaluator. An Unavailable
// says the helper cannot be reproduced here, and why.
func RegisterHelper(h Helper) {
	if h.Fn == nil || h.File == "" || h.Function == "" {
		panic(fmt.Sprintf("task: RegisterHelper(%q): incomplete registration", h.Key()))
	}
	src, known := pySources[h.Key()]
	if known && h.SHA256 != src.SHA256 {
		panic(fmt.Sprintf("task: RegisterHelper(%s): sha256 %s, but lm-eval's source at commit %s has %s", h.Key(), h.SHA256, lmevalTasksCommit, src.SHA256))
	}
	keys := []string{h.Key()}
	if known {
		for k, s := range pySources {
			if s.Group == src.Group && k != h.Key() {
				keys = append(keys, k)
			}
		}
	}
	helperMu.Lock()
	defer helperMu.Unlock()
	hp := &h
	for _, k := range keys {
		if _, dup := helpers[k]; dup {
			if k == h.Key() {
				panic("task: RegisterHelper: duplicate port of " + k)
			}
			continue // a port of this very source was registered first
		}
		helpers[k] = hp
	}
	registered = append(registered, hp)
}

// RegisterFunction makes fn the native implementation of `!function name`
// (for example "utils.process_docs") for task YAML in directory dir, with
// no recorded source: a helper lmeval defines for its own built-in tasks,
// or one not yet checked against lm-eval's source. Ports of lm-eval's
// helpers use RegisterHelper.
func RegisterFunction(dir, name string, fn any) {
	if fn == nil {
		panic("task: RegisterFunction with nil fn for " + name)
	}
	file, function := helperFile(strings.Trim(dir, "/"), name)
	h := &Helper{File: file, Function: function, Fn: fn}
	helperMu.Lock()
	defer helperMu.Unlock()
	if _, dup := helpers[h.Key()]; dup {
		panic("task: RegisterFunction: duplicate port of " + h.Key())
	}
	helpers[h.Key()] = h
	registered = append(registered, h)
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

// Helpers lists the registered ports, by file and function.
func Helpers() []Helper {
	helperMu.RLock()
	defer helperMu.RUnlock()
	out := make([]Helper, len(registered))
	for i, h := range registered {
		out[i] = *h
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key() < out[j].Key() })
	return out
}

// HelperCoverage lists every file:function of lm-eval's task tree that a
// port serves, with the port's own file:function.
func HelperCoverage() map[string]string {
	helperMu.RLock()
	defer helperMu.RUnlock()
	out := map[string]string{}
	for k, h := range helpers {
		out[k] = h.Key()
	}
	return out
}

// LookupFunction finds the port for `!function name` in a YAML file whose
// directory is dir: the helper registered for dir's file and function,
// where a registered file matches when it is a trailing part of the path
// (so the same registration serves lmeval's built-in tasks and lm-eval's
// task tree wherever it lies). The longest match wins.
func LookupFunction(dir, name string) (any, bool) {
	h, _ := lookupHelper(dir, name)
	if h == nil {
		return nil, false
	}
	return h.Fn, true
}

func lookupHelper(dir, name string) (*Helper, string) {
	full, function := helperFile(filepath.ToSlash(strings.TrimRight(dir, "/")), name)
	helperMu.RLock()
	defer helperMu.RUnlock()
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
	for _, k := range helperKeys(function) {
		match(k)
	}
	return helpers[bestKey], bestKey
}

// helperIndex is every file:function of helpers and pySources by
// function, so that a lookup compares only the keys of its function
// (listing lm-eval's tree looks up some 20,000 `!function`s among 2,000
// keys).
type helperIndex struct {
	n    int // len(helpers) when built: a registration since rebuilds it
	byFn map[string][]string
}

var funcIndex atomic.Pointer[helperIndex]

// helperKeys are the keys for function; the caller holds helperMu.
func helperKeys(function string) []string {
	ix := funcIndex.Load()
	if ix == nil || ix.n != len(helpers) {
		ix = &helperIndex{n: len(helpers), byFn: map[string][]string{}}
		for k := range helpers {
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

// Staleness: a port records the source it reproduces. When the file a
// task's `!function` points at lies on disk and is not the file of the
// table (another lm-eval commit), the function's definition, and those of
// the names it uses, are read again: if one differs the port may be
// stale, and that is said once per file and function.
var (
	staleMu   sync.Mutex
	staleSeen = map[string]string{} // path:function -> warning ("" when fresh)
	fileCache = map[string][]byte{}
)

// checkStale returns a warning when the helper's source in the file on
// disk is not the one its port was made from, "" otherwise. It logs each
// warning once.
func checkStale(dir, name string) string {
	h, key := lookupHelper(dir, name)
	if h == nil {
		return ""
	}
	src, ok := pySources[key]
	if !ok {
		return "" // lmeval's own helper: nothing recorded to compare with
	}
	file, function := helperFile(filepath.ToSlash(dir), name)
	staleMu.Lock()
	defer staleMu.Unlock()
	id := file + ":" + function
	if w, done := staleSeen[id]; done {
		return w
	}
	data, ok := fileCache[file]
	if !ok {
		var err error
		data, err = os.ReadFile(filepath.FromSlash(file))
		if err != nil {
			data = nil // embedded or virtual tree: nothing to compare
		}
		fileCache[file] = data
	}
	w := ""
	if data != nil && sha256hex(data) != pyFiles[strings.SplitN(key, ":", 2)[0]] {
		if changed := staleParts(string(data), function, src); len(changed) > 0 {
			w = fmt.Sprintf("%s: function %s differs from the source its native port %s was checked against (lm-eval %.12s): %s changed; results may differ from lm-eval's",
				file, function, h.Key(), lmevalTasksCommit, strings.Join(changed, ", "))
			slog.Warn("stale native port", "file", file, "function", function, "port", h.Key())
		}
	}
	staleSeen[id] = w
	return w
}

// staleParts names the definitions (the function, or a name it uses) whose
// source in src differs from the table's.
func staleParts(src, function string, want pySource) []string {
	var out []string
	same := func(name, sha string) bool {
		def := pyDefinition(src, name)
		if def == "" && importsFromLmEval(src, name) {
			return true // lm-eval's package, which lmeval does not read
		}
		if def == "" {
			// A name made at run time: the whole module is its source.
			return sha256hex([]byte(src)) == sha
		}
		return sha256hex([]byte(def)) == sha
	}
	if !same(function, want.SHA256) {
		out = append(out, function)
	}
	for _, d := range want.Deps {
		if !same(d.Name, d.SHA256) {
			out = append(out, d.Name)
		}
	}
	return out
}

// importsFromLmEval reports a top-level `from lm_eval... import ... name`.
func importsFromLmEval(src, name string) bool {
	for _, l := range strings.Split(src, "\n") {
		rest, ok := strings.CutPrefix(l, "from lm_eval")
		if !ok {
			continue
		}
		_, names, ok := strings.Cut(rest, " import ")
		if !ok {
			continue
		}
		for _, n := range strings.Split(names, ",") {
			f := strings.Fields(n)
			if len(f) == 1 && f[0] == name || len(f) == 3 && f[1] == "as" && f[2] == name {
				return true
			}
		}
	}
	return false
}

var trailingComment = regexp.MustCompile(`\s+#[^'"]*$`)

func sha256hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// pyDefinition extracts the top-level definition of name from Python
// source as ast.get_source_segment gives it for an unchanged file: from
// the `def name`, `class name` or `name =` line to the last line of code
// before the next top-level statement, without trailing blank lines. It
// returns "" when there is none. (A definition whose text differs only in
// what the extraction cannot see, a trailing comment, reads as changed:
// the check errs on the side of a warning.)
func pyDefinition(src, name string) string {
	lines := strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n")
	start := -1
	head := regexp.MustCompile(`^(?:(?:async )?def ` + regexp.QuoteMeta(name) + `\s*\(|class ` + regexp.QuoteMeta(name) + `\s*[(:]|` + regexp.QuoteMeta(name) + `\s*[=:])`)
	for i, l := range lines {
		if head.MatchString(l) && !strings.HasPrefix(l, name+" ==") {
			start = i
		}
	}
	if start < 0 {
		return ""
	}
	end := start
	var sc pyScanner
	sc.line(lines[start])
	for i := start + 1; i < len(lines); i++ {
		l := lines[i]
		t := strings.TrimSpace(l)
		if sc.open() {
			sc.line(l)
			end = i
			continue
		}
		if t != "" && !strings.HasPrefix(l, " ") && !strings.HasPrefix(l, "\t") && !strings.HasPrefix(t, "#") {
			break
		}
		sc.line(l)
		if t != "" && !strings.HasPrefix(t, "#") {
			end = i
		}
	}
	def := append([]string(nil), lines[start:end+1]...)
	def[len(def)-1] = trailingComment.ReplaceAllString(def[len(def)-1], "")
	return strings.TrimRight(strings.Join(def, "\n"), " \t")
}

// pyScanner follows Python's brackets and string literals across lines,
// enough to tell where a top-level statement ends.
type pyScanner struct {
	depth int
	quote string // the open string's delimiter: ', ", \'\'\' or """
}

func (s *pyScanner) open() bool { return s.depth > 0 || s.quote != "" }

func (s *pyScanner) line(l string) {
	for i := 0; i < len(l); i++ {
		c := l[i]
		if s.quote != "" {
			switch {
			case c == '\\':
				i++
			case strings.HasPrefix(l[i:], s.quote):
				i += len(s.quote) - 1
				s.quote = ""
			}
			continue
		}
		switch c {
		case '#':
			return
		case '\'', '"':
			q := string(c)
			if strings.HasPrefix(l[i:], q+q+q) {
				q += q + q
			}
			s.quote = q
			i += len(q) - 1
		case '(', '[', '{':
			s.depth++
		case ')', ']', '}':
			s.depth--
		}
	}
	if len(s.quote) == 1 { // an unterminated short string ends with the line
		s.quote = ""
	}
}
