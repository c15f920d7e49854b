package task

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/lmeval/lmeval/harness/results"
)

// Provenance: every port records the lm-eval source it reproduces (its
// Helper's sha256, the hex sha256 of the source text: results.HashString,
// lm-eval's own hash_string), checked at registration against the table that
// scripts/pyhelpers/scan.py generates from lm-eval's task tree
// (pysources_gen.go: each helper's sha256, the group of helpers with the
// same source, the module-level names it uses, and the YAML keys that
// name it). When the file a task's `!function` points at lies on disk and
// is not the table's (another lm-eval commit), the helper's definition is
// read again (PySource) and a port whose source changed is reported.

// pySource is one row of the generated table of lm-eval's helpers.
type pySource struct {
	SHA256 string   // of the definition's source
	Group  int      // index into pyGroups: one port serves one group
	Deps   []pyDep  // module-level names the definition uses
	Uses   []string // the YAML keys whose `!function` names it
}

type pyDep struct{ Name, SHA256 string }

// CheckSources compares each helper's recorded sha256 with its source in
// tasksDir (a copy of lm_eval/tasks) and describes every mismatch.
func CheckSources(tasksDir string, hs []Helper) []error {
	var errs []error
	files := map[string]string{}
	for _, h := range hs {
		src, ok := files[h.File]
		if !ok {
			data, err := os.ReadFile(filepath.Join(tasksDir, filepath.FromSlash(h.File)))
			if err != nil {
				errs = append(errs, err)
				continue
			}
			src = string(data)
			files[h.File] = src
		}
		def, ok := PySource(src, h.Function)
		if !ok {
			errs = append(errs, fmt.Errorf("%s: no function %s", h.File, h.Function))
			continue
		}
		if got := results.HashString(def); got != h.SHA256 {
			errs = append(errs, fmt.Errorf("%s: source sha256 %s, port records %s", h.Key(), got, h.SHA256))
		}
	}
	return errs
}

var (
	staleMu   sync.Mutex
	staleSeen = map[string]string{} // path:function -> warning ("" when fresh)
	fileCache = map[string][]byte{}
)

// checkStale returns a warning when the helper's source in the file on
// disk is not the one its port was made from, "" otherwise. It logs each
// warning once.
func checkStale(dir, name string) string {
	h, key := lookupHook(dir, name)
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
	if data != nil && results.HashString(string(data)) != pyFiles[strings.SplitN(key, ":", 2)[0]] {
		if changed := staleParts(string(data), function, src); len(changed) > 0 {
			w = fmt.Sprintf("%s: function %s differs from the source its native port %s was checked against (lm-eval %.12s): %s changed; results may differ from lm-eval's",
				file, function, h.Helper.Key(), lmevalTasksCommit, strings.Join(changed, ", "))
			slog.Warn("stale native port", "file", file, "function", function, "port", h.Helper.Key())
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
		def, ok := PySource(src, name)
		if !ok && importsFromLmEval(src, name) {
			return true // lm-eval's package, which lmeval does not read
		}
		if !ok {
			// A name made at run time: the whole module is its source.
			return results.HashString(src) == sha
		}
		return results.HashString(def) == sha
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

// PySource extracts the top-level definition of name from Python source
// as ast.get_source_segment gives it for an unchanged file: from the
// `def name`, `class name` or `name =` line (the last one, as Python
// binds the name last) to the last line of code before the next
// top-level statement, without trailing blank lines, comment lines or a
// comment after the last statement. ok is false when there is none. It
// handles the indentation-delimited code lm-eval's task helpers are
// written in, not every Python file; a definition whose text differs only
// in what the extraction cannot see reads as changed, so checks err on
// the side of a warning.
func PySource(src, name string) (def string, ok bool) {
	lines := strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n")
	start := -1
	head := regexp.MustCompile(`^(?:(?:async )?def ` + regexp.QuoteMeta(name) + `\s*\(|class ` + regexp.QuoteMeta(name) + `\s*[(:]|` + regexp.QuoteMeta(name) + `\s*[=:])`)
	for i, l := range lines {
		if head.MatchString(l) && !strings.HasPrefix(l, name+" ==") {
			start = i
		}
	}
	if start < 0 {
		return "", false
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
	out := append([]string(nil), lines[start:end+1]...)
	out[len(out)-1] = trailingComment.ReplaceAllString(out[len(out)-1], "")
	return strings.TrimRight(strings.Join(out, "\n"), " \t"), true
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
