package jinja

import (
	"sort"

	"github.com/nikolalohinski/gonja/v2/nodes"
)

// Variables returns the names src reads from its variables (the document
// fields a doc_to_text needs), sorted: jinja2.meta.find_undeclared_variables
// less the environment's globals. A name assigned before it is read is not
// included; one assigned only inside an if branch, a loop or a macro is.
func (e *Env) Variables(src string) ([]string, error) {
	body, err := e.compile(src)
	if err != nil {
		return nil, err
	}
	e.mu.RLock()
	g := e.globals
	e.mu.RUnlock()
	w := &varWalker{globals: g, found: map[string]bool{}}
	w.body(body, map[string]bool{})
	names := make([]string, 0, len(w.found))
	for n := range w.found {
		names = append(names, n)
	}
	sort.Strings(names)
	return names, nil
}

type varWalker struct {
	globals map[string]any
	found   map[string]bool
}

func extend(declared map[string]bool, names ...string) map[string]bool {
	out := make(map[string]bool, len(declared)+len(names))
	for k := range declared {
		out[k] = true
	}
	for _, n := range names {
		out[n] = true
	}
	return out
}

// body walks statements in order; declared grows with each top-level set.
func (w *varWalker) body(body []node, declared map[string]bool) {
	// A macro body sees the names its scope assigns after the definition
	// too (it runs when called): walk it once the scope is complete.
	var macros []*macroNode
	defer func() {
		for _, n := range macros {
			inner := extend(declared, n.params...)
			for _, d := range n.defaults {
				w.expr(d, inner)
			}
			w.body(n.body, inner)
		}
	}()
	for _, n := range body {
		switch n := n.(type) {
		case *outputNode:
			w.expr(n.expr, declared)
		case *ifNode:
			for _, c := range n.conds {
				w.expr(c, declared)
			}
			for _, b := range n.bodies {
				w.body(b, extend(declared))
			}
		case *forNode:
			w.expr(n.iter, declared)
			inner := extend(declared, append([]string{"loop"}, n.targets...)...)
			if n.filter != nil {
				w.expr(n.filter, inner)
			}
			w.body(n.body, inner)
			w.body(n.orElse, extend(declared))
		case *setNode:
			if n.value != nil {
				w.expr(n.value, declared)
			} else {
				w.body(n.body, extend(declared))
			}
			if n.attr != "" {
				w.name(n.targets[0], declared)
				continue
			}
			for _, t := range n.targets {
				declared[t] = true
			}
		case *macroNode:
			declared[n.name] = true
			macros = append(macros, n)
		case *filterBlockNode:
			for _, f := range n.filters {
				w.exprs(f.Args, declared)
				for _, a := range f.Kwargs {
					w.expr(a, declared)
				}
			}
			w.body(n.body, extend(declared))
		case *withNode:
			for _, v := range n.values {
				w.expr(v, declared)
			}
			w.body(n.body, extend(declared, n.names...))
		}
	}
}

func (w *varWalker) name(n string, declared map[string]bool) {
	if declared[n] {
		return
	}
	if _, ok := w.globals[n]; ok {
		return
	}
	w.found[n] = true
}

func (w *varWalker) exprs(es []nodes.Expression, declared map[string]bool) {
	for _, e := range es {
		w.expr(e, declared)
	}
}

func (w *varWalker) expr(e expr, declared map[string]bool) {
	switch n := e.(type) {
	case *nodes.Name:
		w.name(n.Name.Val, declared)
	case *nodes.List:
		w.exprs(n.Val, declared)
	case *nodes.Tuple:
		w.exprs(n.Val, declared)
	case *nodes.Dict:
		for _, p := range n.Pairs {
			w.expr(p.Key, declared)
			w.expr(p.Value, declared)
		}
	case *condExpr:
		w.expr(n.cond, declared)
		w.expr(n.yes, declared)
		if n.no != nil {
			w.expr(n.no, declared)
		}
	case *nodes.GetAttribute:
		w.expr(n.Node, declared)
	case *nodes.GetItem:
		w.expr(n.Node, declared)
		w.expr(n.Arg, declared)
	case *nodes.GetSlice:
		for _, x := range []nodes.Node{n.Node, n.Start, n.End, n.Step} {
			if x != nil {
				w.expr(x, declared)
			}
		}
	case *nodes.Call:
		w.expr(n.Func, declared)
		w.exprs(n.Args, declared)
		for _, a := range n.Kwargs {
			w.expr(a, declared)
		}
	case *nodes.Negation:
		w.expr(n.Term, declared)
	case *nodes.UnaryExpression:
		w.expr(n.Term, declared)
	case *nodes.BinaryExpression:
		w.expr(n.Left, declared)
		w.expr(n.Right, declared)
	case *nodes.FilteredExpression:
		if n.Expression != nil {
			w.expr(n.Expression, declared)
		}
		for _, f := range n.Filters {
			w.exprs(f.Args, declared)
			for _, a := range f.Kwargs {
				w.expr(a, declared)
			}
		}
	case *nodes.TestExpression:
		w.expr(n.Expression, declared)
		w.exprs(n.Test.Args, declared)
		for _, a := range n.Test.Kwargs {
			w.expr(a, declared)
		}
	}
}
