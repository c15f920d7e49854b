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

// goName shortens a function's runtime name: a closure made in init or
// by a constructor is named by its package or constructor.
func goName(n string) string {
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
	for _, h := range task.Helpers() {
		if h.SHA256 == "" {
			continue // lmeval's own helpers
		}
		if _, ok := h.Fn.(task.Unavailable); ok {
			continue // knowingly not ported (task.Unavailable says why)
		}

		name := ""
		fn := h.Fn
		switch x := fn.(type) {
		case *task.Class:
			fn = x.Setup // a Python class's port: named by its package
		case task.MapDocs: // the function it wraps
			switch {
			case x.FnRand != nil:
				fn = x.FnRand
			case x.FnColumns != nil:
				fn = x.FnColumns
			default:
				fn = x.Fn
			}
		}
		if _, ok := fn.(task.Unavailable); ok {
			name = "unavailable" // registered to say why lmeval cannot run it
		} else if v := reflect.ValueOf(fn); v.Kind() == reflect.Func {
			if f := runtime.FuncForPC(v.Pointer()); f != nil {
				name = goName(f.Name())
			}
		}
		if _, ok := h.Fn.(*task.Class); ok {
			name = packageOf(name)
		}
		out = append(out, port{h.File, h.Function, name})
	}
	b, err := json.MarshalIndent(out, "", " ")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Stdout.Write(append(b, '\n'))
}

// packageOf is the package path of a function's runtime name.
func packageOf(n string) string {
	slash := strings.LastIndex(n, "/")
	if i := strings.Index(n[slash+1:], "."); i >= 0 {
		return n[:slash+1+i]
	}
	return n
}
