// Command listports prints the registered native ports of lm-eval's
// Python helpers as JSON ([{"file", "function", "go"}]), for
// scripts/pyhelpers/gen.sh to write docs/helpers.md.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"runtime"
	"strings"

	_ "github.com/lmeval/lmeval/benchmarks"
	"github.com/lmeval/lmeval/harness/task"
	_ "github.com/lmeval/lmeval/ports/all"
)

type port struct {
	File     string `json:"file"`
	Function string `json:"function"`
	Go       string `json:"go"`
}

// shortName shortens a function's runtime name: a closure made in init or
// by a constructor is named by its package or constructor.
func shortName(n string) string {
	if i := strings.Index(n, ".init."); i >= 0 {
		return n[:i]
	}
	if i := strings.Index(n, ".func"); i >= 0 {
		n = n[:i]
	}
	n = strings.TrimSuffix(n, "-fm")
	for _, inner := range []string{".memo"} {
		n = strings.TrimSuffix(n, inner)
	}
	return n
}

func main() {
	var out []port
	for _, h := range task.Hooks() {
		if h.Helper.SHA256 == "" {
			continue // lmeval's own helpers
		}
		if h.Kind == task.HookUnavailable {
			continue // knowingly not ported (its registration says why)
		}
		out = append(out, port{h.Helper.File, h.Helper.Function, goName(h)})
	}
	b, err := json.MarshalIndent(out, "", " ")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Stdout.Write(append(b, '\n'))
}

// goName names the Go function of a port: a Python class's port by its
// package, a MapDocs by the function it wraps.
func goName(h task.Hook) string {
	var fn any
	switch {
	case h.Class != nil:
		fn = h.Class.Setup
	case h.ProcessDocs != nil:
		switch m := h.ProcessDocs; {
		case m.FnRand != nil:
			fn = m.FnRand
		case m.FnColumns != nil:
			fn = m.FnColumns
		case m.FnModule != nil:
			fn = m.FnModule
		default:
			fn = m.Fn
		}
	case h.DocFunc != nil:
		fn = h.DocFunc
	case h.ProcessResults != nil:
		fn = h.ProcessResults
	case h.Metric != nil:
		fn = h.Metric
	case h.DocMetric != nil:
		fn = h.DocMetric
	case h.Aggregation != nil:
		fn = h.Aggregation
	case h.Filter != nil:
		fn = h.Filter
	case h.FilterFunc != nil:
		fn = h.FilterFunc
	case h.Samples != nil:
		fn = h.Samples
	case h.Dataset != nil:
		fn = h.Dataset
	case h.DatasetLoader != nil:
		fn = h.DatasetLoader
	}
	name := ""
	if v := reflect.ValueOf(fn); v.Kind() == reflect.Func {
		if f := runtime.FuncForPC(v.Pointer()); f != nil {
			name = shortName(f.Name())
		}
	}
	if h.Class != nil {
		name = packageOf(name)
	}
	if strings.HasSuffix(name, "/ports/internal/pydoc.Memo") || strings.HasSuffix(name, "/ports/internal/pydoc.MemoModule") {
		return "" // a memoizing wrapper, not the port (unless inlined into the port's init)
	}
	return name
}

// packageOf is the package path of a function's runtime name.
func packageOf(n string) string {
	slash := strings.LastIndex(n, "/")
	if i := strings.Index(n[slash+1:], "."); i >= 0 {
		return n[:slash+1+i]
	}
	return n
}
