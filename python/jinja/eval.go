package jinja

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/nikolalohinski/gonja/v2/nodes"
	"github.com/nikolalohinski/gonja/v2/tokens"

	"github.com/lmeval/lmeval/python/pyval"
)

// scope is one level of variables: the template's globals and document, a
// for-loop iteration, a macro call, a with block.
type scope struct {
	vars   map[string]any
	parent *scope
}

func (s *scope) lookup(name string) (any, bool) {
	for ; s != nil; s = s.parent {
		if v, ok := s.vars[name]; ok {
			return norm(v), true
		}
	}
	return nil, false
}

func (s *scope) child() *scope { return &scope{vars: map[string]any{}, parent: s} }

type renderer struct {
	env   *Env
	order *keyOrder // the document's dict key order; nil: sorted
}

func (r *renderer) render(out *strings.Builder, body []node, sc *scope) error {
	for _, n := range body {
		if err := r.renderNode(out, n, sc); err != nil {
			return err
		}
	}
	return nil
}

func (r *renderer) renderNode(out *strings.Builder, n node, sc *scope) error {
	switch n := n.(type) {
	case *textNode:
		out.WriteString(n.text)
	case *outputNode:
		v, err := r.eval(n.expr, sc)
		if err != nil {
			return err
		}
		s, err := str(r.ordered(v))
		if err != nil {
			return err
		}
		out.WriteString(s)
	case *ifNode:
		for i, c := range n.conds {
			v, err := r.eval(c, sc)
			if err != nil {
				return err
			}
			ok, err := truth(v)
			if err != nil {
				return err
			}
			if ok {
				return r.render(out, n.bodies[i], sc)
			}
		}
		if len(n.bodies) > len(n.conds) {
			return r.render(out, n.bodies[len(n.conds)], sc)
		}
	case *forNode:
		return r.renderFor(out, n, sc)
	case *setNode:
		var v any
		if n.value != nil {
			var err error
			if v, err = r.eval(n.value, sc); err != nil {
				return err
			}
		} else {
			var b strings.Builder
			if err := r.render(&b, n.body, sc); err != nil {
				return err
			}
			v = b.String()
		}
		if n.attr != "" {
			target, _ := sc.lookup(n.targets[0])
			ns, ok := target.(*namespace)
			if !ok {
				return templateError{fmt.Errorf("cannot assign attribute on non-namespace object")}
			}
			if r.env.hf && strings.HasPrefix(n.attr, "_") {
				return underscoreAttr(n.attr)
			}
			ns.attrs[n.attr] = v
			return nil
		}
		return assign(r, sc, n.targets, v)
	case *macroNode:
		sc.vars[n.name] = &macro{node: n, r: r, defScope: sc}
	case *filterBlockNode:
		var b strings.Builder
		if err := r.render(&b, n.body, sc); err != nil {
			return err
		}
		var v any = b.String()
		for _, f := range n.filters {
			var err error
			if v, err = r.applyFilter(f, v, sc); err != nil {
				return err
			}
		}
		s, err := str(v)
		if err != nil {
			return err
		}
		out.WriteString(s)
	case *loopControlNode:
		if n.isBreak {
			return errBreak
		}
		return errContinue
	case *withNode:
		inner := sc.child()
		for i, name := range n.names {
			v, err := r.eval(n.values[i], sc)
			if err != nil {
				return err
			}
			inner.vars[name] = v
		}
		return r.render(out, n.body, inner)
	default:
		return fmt.Errorf("unknown node %T", n)
	}
	return nil
}

func assign(r *renderer, sc *scope, targets []string, v any) error {
	if len(targets) == 1 {
		sc.vars[targets[0]] = v
		return nil
	}
	items, err := iterate(r, v)
	if err != nil {
		return err
	}
	if len(items) != len(targets) {
		return fmt.Errorf("cannot unpack %d values into %d names", len(items), len(targets))
	}
	for i, t := range targets {
		sc.vars[t] = items[i]
	}
	return nil
}

type loopInfo struct {
	index, length int
	items         []any
}

func (l *loopInfo) attr(name string) (any, bool) {
	switch name {
	case "index":
		return int64(l.index + 1), true
	case "index0":
		return int64(l.index), true
	case "revindex":
		return int64(l.length - l.index), true
	case "revindex0":
		return int64(l.length - l.index - 1), true
	case "first":
		return l.index == 0, true
	case "last":
		return l.index == l.length-1, true
	case "length":
		return int64(l.length), true
	case "depth":
		return int64(1), true
	case "depth0":
		return int64(0), true
	case "previtem":
		if l.index > 0 {
			return l.items[l.index-1], true
		}
		return &undefined{name: "there is no previous item"}, true
	case "nextitem":
		if l.index+1 < l.length {
			return l.items[l.index+1], true
		}
		return &undefined{name: "there is no next item"}, true
	case "cycle":
		return callable(func(args []any, _ map[string]any) (any, error) {
			if len(args) == 0 {
				return nil, errors.New("no items for cycling given")
			}
			return args[l.index%len(args)], nil
		}), true
	}
	return nil, false
}

func (r *renderer) renderFor(out *strings.Builder, n *forNode, sc *scope) error {
	v, err := r.eval(n.iter, sc)
	if err != nil {
		return err
	}
	items, err := iterate(r, v)
	if err != nil {
		return err
	}
	if n.filter != nil {
		var kept []any
		for _, item := range items {
			inner := sc.child()
			if err := assign(r, inner, n.targets, item); err != nil {
				return err
			}
			c, err := r.eval(n.filter, inner)
			if err != nil {
				return err
			}
			ok, err := truth(c)
			if err != nil {
				return err
			}
			if ok {
				kept = append(kept, item)
			}
		}
		items = kept
	}
	if len(items) == 0 {
		return r.render(out, n.orElse, sc)
	}
	loop := &loopInfo{length: len(items), items: items}
	for i, item := range items {
		inner := sc.child()
		loop.index = i
		inner.vars["loop"] = loop
		if err := assign(r, inner, n.targets, item); err != nil {
			return err
		}
		if err := r.render(out, n.body, inner); err != nil {
			if err == errBreak {
				break
			}
			if err != errContinue {
				return err
			}
		}
	}
	return nil
}

// errBreak and errContinue carry {% break %} and {% continue %} up to the
// enclosing loop.
var (
	errBreak    = errors.New("break outside of a loop")
	errContinue = errors.New("continue outside of a loop")
)

type macro struct {
	node     *macroNode
	r        *renderer
	defScope *scope
}

func (m *macro) call(args []any, kwargs map[string]any) (any, error) {
	inner := m.defScope.child()
	n := m.node
	if len(args) > len(n.params) {
		return nil, fmt.Errorf("macro '%s' takes not more than %d argument(s)", n.name, len(n.params))
	}
	for i, p := range n.params {
		switch {
		case i < len(args):
			inner.vars[p] = args[i]
		case kwargs[p] != nil:
			inner.vars[p] = kwargs[p]
		default:
			if _, ok := kwargs[p]; ok {
				inner.vars[p] = nil
				continue
			}
			if d, ok := n.defaults[p]; ok {
				v, err := m.r.eval(d, inner)
				if err != nil {
					return nil, err
				}
				inner.vars[p] = v
			} else {
				inner.vars[p] = &undefined{name: p}
			}
		}
	}
	var b strings.Builder
	if err := m.r.render(&b, n.body, inner); err != nil {
		return nil, err
	}
	return b.String(), nil
}

func (r *renderer) eval(e expr, sc *scope) (any, error) {
	switch n := e.(type) {
	case *nodes.String:
		return n.Val, nil
	case *nodes.Integer:
		return int64(n.Val), nil
	case *nodes.Float:
		return n.Val, nil
	case *nodes.Bool:
		return n.Val, nil
	case *nodes.None:
		return nil, nil
	case *nodes.Name:
		name := n.Name.Val
		if v, ok := sc.lookup(name); ok {
			return v, nil
		}
		return &undefined{name: fmt.Sprintf("'%s' is undefined", name), soft: r.env.lenient}, nil
	case *nodes.List:
		l := make([]any, len(n.Val))
		for i, x := range n.Val {
			v, err := r.eval(x, sc)
			if err != nil {
				return nil, err
			}
			l[i] = v
		}
		return l, nil
	case *nodes.Tuple:
		l := make(tuple, len(n.Val))
		for i, x := range n.Val {
			v, err := r.eval(x, sc)
			if err != nil {
				return nil, err
			}
			l[i] = v
		}
		return l, nil
	case *nodes.Dict:
		keys := make([]any, len(n.Pairs))
		vals := make([]any, len(n.Pairs))
		allStrings := true
		for i, p := range n.Pairs {
			k, err := r.eval(p.Key, sc)
			if err != nil {
				return nil, err
			}
			if vals[i], err = r.eval(p.Value, sc); err != nil {
				return nil, err
			}
			if _, ok := k.(string); !ok {
				allStrings = false
			}
			keys[i] = k
		}
		if !allStrings {
			return newKeyedDict(keys, vals)
		}
		m := make(map[string]any, len(n.Pairs))
		order := make([]string, 0, len(n.Pairs))
		for i, k := range keys {
			ks := k.(string)
			if _, dup := m[ks]; !dup {
				order = append(order, ks)
			}
			m[ks] = vals[i]
		}
		r.remember(m, order)
		return m, nil
	case *condExpr:
		c, err := r.eval(n.cond, sc)
		if err != nil {
			return nil, err
		}
		ok, err := truth(c)
		if err != nil {
			return nil, err
		}
		if ok {
			return r.eval(n.yes, sc)
		}
		if n.no == nil {
			return &undefined{name: "the inline if-expression evaluated to false and no else section was defined", soft: true}, nil
		}
		return r.eval(n.no, sc)
	case *nodes.GetAttribute:
		obj, err := r.eval(n.Node, sc)
		if err != nil {
			return nil, err
		}
		if n.Attribute == "" {
			return r.soften(getItem(r, obj, int64(n.Index)))
		}
		return r.soften(getAttr(r, obj, n.Attribute))
	case *nodes.GetItem:
		obj, err := r.eval(n.Node, sc)
		if err != nil {
			return nil, err
		}
		if n.Arg == nil {
			return nil, errors.New("empty subscript")
		}
		key, err := r.eval(n.Arg, sc)
		if err != nil {
			return nil, err
		}
		return r.soften(getItem(r, obj, key))
	case *nodes.GetSlice:
		return r.evalSlice(n, sc)
	case *nodes.Call:
		fn, err := r.eval(n.Func, sc)
		if err != nil {
			return nil, err
		}
		args := make([]any, len(n.Args))
		for i, a := range n.Args {
			if args[i], err = r.eval(a, sc); err != nil {
				return nil, err
			}
		}
		var kwargs map[string]any
		if len(n.Kwargs) > 0 {
			kwargs = make(map[string]any, len(n.Kwargs))
			for k, a := range n.Kwargs {
				if kwargs[k], err = r.eval(a, sc); err != nil {
					return nil, err
				}
			}
		}
		return call(fn, args, kwargs)
	case *nodes.Negation:
		v, err := r.eval(n.Term, sc)
		if err != nil {
			return nil, err
		}
		ok, err := truth(v)
		return !ok, err
	case *nodes.UnaryExpression:
		v, err := r.eval(n.Term, sc)
		if err != nil {
			return nil, err
		}
		switch x := v.(type) {
		case int64:
			if n.Negative {
				return -x, nil
			}
			return x, nil
		case float64:
			if n.Negative {
				return -x, nil
			}
			return x, nil
		case bool:
			if n.Negative {
				return -boolToInt(x), nil
			}
			return boolToInt(x), nil
		case *undefined:
			return nil, x.err()
		}
		return nil, fmt.Errorf("bad operand type for unary -: '%s'", typeName(v))
	case *nodes.BinaryExpression:
		return r.evalBinary(n, sc)
	case *nodes.FilteredExpression:
		v, err := r.eval(n.Expression, sc)
		if err != nil {
			return nil, err
		}
		for _, f := range n.Filters {
			if v, err = r.applyFilter(f, v, sc); err != nil {
				return nil, err
			}
		}
		return v, nil
	case *nodes.TestExpression:
		v, err := r.eval(n.Expression, sc)
		if err != nil {
			return nil, err
		}
		return r.applyTest(n.Test, v, sc)
	case *nodes.Error:
		return nil, n.Error
	case nil:
		return nil, errors.New("missing expression")
	}
	return nil, fmt.Errorf("unsupported expression %T", e)
}

// soften turns a missing attribute or item into jinja2.Undefined in an
// environment with LenientUndefined.
func (r *renderer) soften(v any, err error) (any, error) {
	if u, ok := v.(*undefined); ok && r.env.lenient && !u.soft {
		return &undefined{name: u.name, soft: true}, err
	}
	return v, err
}

func call(fn any, args []any, kwargs map[string]any) (any, error) {
	switch f := fn.(type) {
	case callable:
		return f(args, kwargs)
	case *macro:
		return f.call(args, kwargs)
	case *undefined:
		return nil, f.err()
	}
	return nil, fmt.Errorf("'%s' object is not callable", typeName(fn))
}

// getAttr is Jinja's environment.getattr: attribute first, then item.
func getAttr(r *renderer, obj any, name string) (any, error) {
	switch x := obj.(type) {
	case *undefined:
		return nil, x.err()
	case string:
		if m, ok := strMethod(r, x, name); ok {
			return m, nil
		}
	case []any:
		if m, ok := listMethod(x, name); ok {
			return m, nil
		}
	case tuple:
		if m, ok := tupleMethod(x, name); ok {
			return m, nil
		}
	case map[string]any:
		if m, ok := dictMethod(r, x, name); ok {
			return m, nil
		}
		if v, ok := x[name]; ok {
			return norm(v), nil
		}
	case *loopInfo:
		if v, ok := x.attr(name); ok {
			return v, nil
		}
	case *namespace:
		if v, ok := x.attrs[name]; ok {
			return v, nil
		}
	case *keyedDict:
		if m, ok := x.method(name); ok {
			return m, nil
		}
	}
	return &undefined{name: fmt.Sprintf("'%s' has no attribute '%s'", describe(obj), name)}, nil
}

// getItem is Jinja's environment.getitem: item first, then attribute.
func getItem(r *renderer, obj any, key any) (any, error) {
	switch x := obj.(type) {
	case *undefined:
		return nil, x.err()
	case *keyedDict:
		if err := hashable(key); err != nil {
			return nil, err
		}
		if v, ok := x.get(key); ok {
			return norm(v), nil
		}
	case map[string]any:
		if k, ok := key.(string); ok {
			if v, ok := x[k]; ok {
				return norm(v), nil
			}
		}
	case []any, tuple, string:
		if u, ok := key.(*undefined); ok {
			return nil, u.err()
		}
		i, ok := asInt(key)
		if !ok {
			break
		}
		var n int
		switch x := x.(type) {
		case []any:
			n = len(x)
		case tuple:
			n = len(x)
		case string:
			n = utf8.RuneCountInString(x)
		}
		if i < 0 {
			i += int64(n)
		}
		if i < 0 || i >= int64(n) {
			return &undefined{name: fmt.Sprintf("%s index out of range", typeName(obj))}, nil
		}
		switch x := x.(type) {
		case []any:
			return norm(x[i]), nil
		case tuple:
			return norm(x[i]), nil
		case string:
			return runeAt(x, int(i)), nil
		}
	}
	if k, ok := key.(string); ok {
		if _, isMap := obj.(map[string]any); !isMap {
			return getAttr(r, obj, k)
		}
		if m, ok := dictMethod(r, obj.(map[string]any), k); ok {
			return m, nil
		}
	}
	ks, _ := repr(key)
	return &undefined{name: fmt.Sprintf("'%s' has no item %s", describe(obj), ks)}, nil
}

func describe(obj any) string {
	if obj == nil {
		return "None"
	}
	return typeName(obj) + " object"
}

func runeAt(s string, i int) string {
	if isASCII(s) {
		return s[i : i+1]
	}
	for _, r := range s {
		if i == 0 {
			return string(r)
		}
		i--
	}
	return ""
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func (r *renderer) evalSlice(n *nodes.GetSlice, sc *scope) (any, error) {
	obj, err := r.eval(n.Node, sc)
	if err != nil {
		return nil, err
	}
	bound := func(e expr) (int64, bool, error) {
		if e == nil {
			return 0, false, nil
		}
		v, err := r.eval(e, sc)
		if err != nil {
			return 0, false, err
		}
		if v == nil {
			return 0, false, nil
		}
		i, ok := asInt(v)
		if !ok {
			if u, isU := v.(*undefined); isU {
				return 0, false, u.err()
			}
			return 0, false, errors.New("slice indices must be integers or None")
		}
		return i, true, nil
	}
	start, hasStart, err := bound(n.Start)
	if err != nil {
		return nil, err
	}
	stop, hasStop, err := bound(n.End)
	if err != nil {
		return nil, err
	}
	step, hasStep, err := bound(n.Step)
	if err != nil {
		return nil, err
	}
	if !hasStep {
		step = 1
	}
	if step == 0 {
		return nil, errors.New("slice step cannot be zero")
	}
	var items []any
	var s []rune
	switch x := obj.(type) {
	case []any:
		items = x
	case tuple:
		items = x
	case string:
		s = []rune(x)
	case *undefined:
		return nil, x.err()
	default:
		return nil, fmt.Errorf("'%s' object is not subscriptable", typeName(obj))
	}
	length := int64(len(items))
	if s != nil {
		length = int64(len(s))
	}
	lo, hi := sliceIndices(length, start, stop, step, hasStart, hasStop)
	var idx []int64
	if step > 0 {
		for i := lo; i < hi; i += step {
			idx = append(idx, i)
		}
	} else {
		for i := lo; i > hi; i += step {
			idx = append(idx, i)
		}
	}
	switch obj.(type) {
	case string:
		out := make([]rune, len(idx))
		for j, i := range idx {
			out[j] = s[i]
		}
		return string(out), nil
	case tuple:
		out := make(tuple, len(idx))
		for j, i := range idx {
			out[j] = items[i]
		}
		return out, nil
	}
	out := make([]any, len(idx))
	for j, i := range idx {
		out[j] = items[i]
	}
	return out, nil
}

// sliceIndices is CPython's PySlice_AdjustIndices.
func sliceIndices(length, start, stop, step int64, hasStart, hasStop bool) (int64, int64) {
	if !hasStart {
		if step < 0 {
			start = length - 1
		} else {
			start = 0
		}
	} else if start < 0 {
		start += length
		if start < 0 {
			if step < 0 {
				start = -1
			} else {
				start = 0
			}
		}
	} else if start >= length {
		if step < 0 {
			start = length - 1
		} else {
			start = length
		}
	}
	if !hasStop {
		if step < 0 {
			stop = -1
		} else {
			stop = length
		}
	} else if stop < 0 {
		stop += length
		if stop < 0 {
			if step < 0 {
				stop = -1
			} else {
				stop = 0
			}
		}
	} else if stop >= length {
		if step < 0 {
			stop = length - 1
		} else {
			stop = length
		}
	}
	return start, stop
}

func (r *renderer) evalBinary(n *nodes.BinaryExpression, sc *scope) (any, error) {
	op := n.Operator.Token.Type
	left, err := r.eval(n.Left, sc)
	if err != nil {
		return nil, err
	}
	switch op {
	case tokens.And, tokens.Or:
		ok, err := truth(left)
		if err != nil {
			return nil, err
		}
		if ok == (op == tokens.Or) {
			return left, nil
		}
		return r.eval(n.Right, sc)
	}
	right, err := r.eval(n.Right, sc)
	if err != nil {
		return nil, err
	}
	return binaryOp(op, n.Operator.Token.Val, left, right)
}

func binaryOp(op tokens.Type, sym string, left, right any) (any, error) {
	if op == tokens.Equals || op == tokens.Ne {
		// jinja2.Undefined equals only another Undefined.
		lu, lok := left.(*undefined)
		ru, rok := right.(*undefined)
		if (lok && lu.soft || !lok) && (rok && ru.soft || !rok) && (lok || rok) {
			return (lok && rok) == (op == tokens.Equals), nil
		}
	}
	if op != tokens.In && op != tokens.Tilde {
		if u, ok := left.(*undefined); ok {
			return nil, u.err()
		}
		if u, ok := right.(*undefined); ok {
			return nil, u.err()
		}
	}
	switch op {
	case tokens.Tilde:
		a, err := str(left)
		if err != nil {
			return nil, err
		}
		b, err := str(right)
		if err != nil {
			return nil, err
		}
		return a + b, nil
	case tokens.Equals:
		return pyval.Equal(left, right), nil
	case tokens.Ne:
		return !pyval.Equal(left, right), nil
	case tokens.LowerThan, tokens.LowerThanOrEqual, tokens.GreaterThan, tokens.GreaterThanOrEqual:
		c, err := compare(left, right)
		if err != nil {
			return nil, err
		}
		switch op {
		case tokens.LowerThan:
			return c < 0, nil
		case tokens.LowerThanOrEqual:
			return c <= 0, nil
		case tokens.GreaterThan:
			return c > 0, nil
		}
		return c >= 0, nil
	case tokens.In:
		return contains(right, left)
	case tokens.Modulo:
		if s, ok := left.(string); ok {
			return percentFormat(s, right)
		}
	case tokens.Addition:
		switch a := left.(type) {
		case string:
			if b, ok := right.(string); ok {
				return a + b, nil
			}
		case []any:
			if b, ok := right.([]any); ok {
				out := make([]any, 0, len(a)+len(b))
				return append(append(out, a...), b...), nil
			}
		case tuple:
			if b, ok := right.(tuple); ok {
				out := make(tuple, 0, len(a)+len(b))
				return append(append(out, a...), b...), nil
			}
		}
	case tokens.Multiply:
		if n, ok := asInt(right); ok {
			switch a := left.(type) {
			case string:
				if n > 0 && int64(len(a))*n > maxRepeat || n > maxRepeat {
					return nil, errTooLarge
				}
				return strings.Repeat(a, int(max(n, 0))), nil
			case []any:
				if n > 0 && int64(len(a))*n > maxRepeat || n > maxRepeat {
					return nil, errTooLarge
				}
				var out []any
				for range max(n, 0) {
					out = append(out, a...)
				}
				if out == nil {
					out = []any{}
				}
				return out, nil
			}
		}
		if n, ok := asInt(left); ok {
			switch right.(type) {
			case string, []any:
				return binaryOp(op, sym, right, n)
			}
		}
	}
	return arith(op, sym, left, right)
}

func arith(op tokens.Type, sym string, left, right any) (any, error) {
	fa, okA := number(left)
	fb, okB := number(right)
	if !okA || !okB {
		return nil, fmt.Errorf("unsupported operand type(s) for %s: '%s' and '%s'", sym, typeName(left), typeName(right))
	}
	ia, intA := asInt(left)
	ib, intB := asInt(right)
	ints := intA && intB
	switch op {
	case tokens.Addition:
		if ints {
			s, overflow := addInt(ia, ib)
			if overflow {
				return nil, errIntOverflow
			}
			return s, nil
		}
		return fa + fb, nil
	case tokens.Subtraction:
		if ints {
			if ib == math.MinInt64 {
				return nil, errIntOverflow
			}
			s, overflow := addInt(ia, -ib)
			if overflow {
				return nil, errIntOverflow
			}
			return s, nil
		}
		return fa - fb, nil
	case tokens.Multiply:
		if ints {
			p, overflow := mulInt(ia, ib)
			if overflow {
				return nil, errIntOverflow
			}
			return p, nil
		}
		return fa * fb, nil
	case tokens.Division:
		if fb == 0 {
			return nil, errors.New("division by zero")
		}
		return fa / fb, nil
	case tokens.FloorDivision:
		if fb == 0 {
			return nil, errors.New("integer division or modulo by zero")
		}
		if ints {
			q := ia / ib
			if (ia%ib != 0) && ((ia < 0) != (ib < 0)) {
				q--
			}
			return q, nil
		}
		return math.Floor(fa / fb), nil
	case tokens.Modulo:
		if fb == 0 {
			return nil, errors.New("integer division or modulo by zero")
		}
		if ints {
			m := ia % ib
			if m != 0 && ((m < 0) != (ib < 0)) {
				m += ib
			}
			return m, nil
		}
		m := math.Mod(fa, fb)
		if m != 0 && ((m < 0) != (fb < 0)) {
			m += fb
		}
		return m, nil
	case tokens.Power:
		if ints && ib >= 0 {
			// Exponentiation by squaring, failing on overflow.
			out, base := int64(1), ia
			for e := ib; e > 0; e >>= 1 {
				var overflow bool
				if e&1 == 1 {
					if out, overflow = mulInt(out, base); overflow {
						return nil, errIntOverflow
					}
				}
				if e > 1 {
					if base, overflow = mulInt(base, base); overflow {
						return nil, errIntOverflow
					}
				}
			}
			return out, nil
		}
		if fa == 0 && fb < 0 {
			return nil, errors.New("0.0 cannot be raised to a negative power")
		}
		return math.Pow(fa, fb), nil
	}
	return nil, fmt.Errorf("unsupported operator %s", sym)
}

const (
	tokAdd = tokens.Addition
	tokMod = tokens.Modulo
)

// Python's integers are unbounded; lmeval's are 64-bit. A result that does
// not fit is an error rather than a silently wrapped number.
var errIntOverflow = errors.New("integer result does not fit in 64 bits")

// maxRepeat bounds `'x' * n` and `[x] * n`: a template from a task file
// must not be able to exhaust memory.
const maxRepeat = 1 << 28

var errTooLarge = errors.New("repetition result too large")

func addInt(a, b int64) (int64, bool) {
	s := a + b
	return s, (a >= 0) == (b >= 0) && (s >= 0) != (a >= 0)
}

func mulInt(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, false
	}
	p := a * b
	if p/b != a || (a == -1 && b == math.MinInt64) || (b == -1 && a == math.MinInt64) {
		return p, true
	}
	return p, false
}
