package jinja

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/nikolalohinski/gonja/v2/nodes"

	"github.com/lmeval/lmeval/python/pyre"
	"github.com/lmeval/lmeval/python/pyval"
)

// filterFunc implements one Jinja2 filter.
type filterFunc func(r *renderer, v any, args []any, kwargs map[string]any) (any, error)

func (r *renderer) applyFilter(fc *nodes.FilterCall, v any, sc *scope) (any, error) {
	f, ok := filters[fc.Name]
	if !ok {
		// An unknown filter in an if (Jinja2's TemplateRuntimeError).
		return nil, templateError{fmt.Errorf("no filter named '%s' found", fc.Name)}
	}
	args := make([]any, len(fc.Args))
	for i, a := range fc.Args {
		var err error
		if args[i], err = r.eval(a, sc); err != nil {
			return nil, err
		}
	}
	var kwargs map[string]any
	if len(fc.Kwargs) > 0 {
		kwargs = map[string]any{}
		for k, a := range fc.Kwargs {
			var err error
			if kwargs[k], err = r.eval(a, sc); err != nil {
				return nil, err
			}
		}
	}
	if u, ok := v.(*undefined); ok {
		switch {
		case fc.Name == "default", fc.Name == "d", fc.Name == "pprint":
			// These take an undefined value as it is.
		case !u.soft:
			return nil, u.err()
		case fc.Name == "int", fc.Name == "float", fc.Name == "regex_replace":
			// int(Undefined), float(Undefined) and re.sub on it fail
			// even for a lenient Undefined.
			return nil, u.err()
		}
	}
	out, err := f(r, v, args, kwargs)
	if err != nil {
		return nil, fmt.Errorf("filter %s: %w", fc.Name, err)
	}
	return out, nil
}

// param returns positional argument i, or keyword name, or def.
func param(args []any, kwargs map[string]any, i int, name string, def any) any {
	if i < len(args) {
		return args[i]
	}
	if v, ok := kwargs[name]; ok {
		return v
	}
	return def
}

// filters are Jinja2's builtin filters (jinja2/filters.py FILTERS), set
// by init: doMap and the filter test look names up in it.
var filters map[string]filterFunc

func init() {
	filters = builtinFilters()
	tests = builtinTests()
}

// builtinFilters maps each Jinja2 filter name to its implementation, a
// named function do<Name> after Jinja2's do_<name> (the functions follow
// in name order); the filters no lm-eval template uses compile and fail
// when applied (unsupportedFilter).
func builtinFilters() map[string]filterFunc {
	return map[string]filterFunc{
		"abs":            doAbs,
		"attr":           doAttr,
		"batch":          doBatch,
		"capitalize":     doCapitalize,
		"center":         doCenter,
		"count":          doLength,
		"d":              doDefault,
		"default":        doDefault,
		"dictsort":       doDictsort,
		"e":              doEscape,
		"escape":         doEscape,
		"filesizeformat": unsupportedFilter("filesizeformat"),
		"first":          doFirst,
		"float":          doFloat,
		"forceescape":    doForceescape,
		"format":         doFormat,
		"groupby":        doGroupby,
		"indent":         doIndent,
		"int":            doInt,
		"items":          doItems,
		"join":           doJoin,
		"last":           doLast,
		"length":         doLength,
		"list":           doList,
		"lower":          doLower,
		"map":            doMap,
		"max":            doMax,
		"min":            doMin,
		"pprint":         doPprint,
		"random":         unsupportedFilter("random (its result is not reproducible)"),
		"regex_replace":  doRegexReplace,
		"reject":         doReject,
		"rejectattr":     doRejectattr,
		"replace":        doReplace,
		"reverse":        doReverse,
		"round":          doRound,
		"safe":           doSafe,
		"select":         doSelect,
		"selectattr":     doSelectattr,
		"slice":          doSlice,
		"sort":           doSort,
		"string":         doString,
		"striptags":      doStriptags,
		"sum":            doSum,
		"title":          doTitle,
		"tojson":         doTojson,
		"trim":           doTrim,
		"truncate":       doTruncate,
		"unique":         doUnique,
		"upper":          doUpper,
		"urlencode":      unsupportedFilter("urlencode"),
		"urlize":         unsupportedFilter("urlize"),
		"wordcount":      doWordcount,
		"wordwrap":       unsupportedFilter("wordwrap"),
		"xmlattr":        unsupportedFilter("xmlattr"),
	}
}

func doAbs(r *renderer, v any, _ []any, _ map[string]any) (any, error) {
	switch x := v.(type) {
	case int64:
		if x < 0 {
			return -x, nil
		}
		return x, nil
	case float64:
		return math.Abs(x), nil
	case bool:
		return boolToInt(x), nil
	}
	return nil, fmt.Errorf("bad operand type for abs(): '%s'", typeName(v))
}

func doAttr(r *renderer, v any, args []any, _ map[string]any) (any, error) {
	name, _ := param(args, nil, 0, "", "").(string)
	return getAttr(r, v, name)
}

func doBatch(r *renderer, v any, args []any, kwargs map[string]any) (any, error) {
	items, err := iterate(r, v)
	if err != nil {
		return nil, err
	}
	n, _ := asInt(param(args, kwargs, 0, "linecount", int64(1)))
	if n <= 0 {
		return nil, errors.New("batch size must be positive")
	}
	fill, hasFill := kwargs["fill_with"]
	if len(args) > 1 {
		fill, hasFill = args[1], args[1] != nil
	}
	out := []any{}
	for i := 0; i < len(items); i += int(n) {
		end := min(i+int(n), len(items))
		row := append([]any{}, items[i:end]...)
		for hasFill && len(row) < int(n) {
			row = append(row, fill)
		}
		out = append(out, row)
	}
	return out, nil
}

func doCapitalize(r *renderer, v any, _ []any, _ map[string]any) (any, error) {
	return onString(v, pyCapitalize)
}

func doCenter(r *renderer, v any, args []any, kwargs map[string]any) (any, error) {
	s, err := str(v)
	if err != nil {
		return nil, err
	}
	w, _ := asInt(param(args, kwargs, 0, "width", int64(80)))
	return pad(s, int(w), " ", '^'), nil
}

func doDefault(r *renderer, v any, args []any, kwargs map[string]any) (any, error) {
	def := param(args, kwargs, 0, "default_value", "")
	boolean, _ := truth(param(args, kwargs, 1, "boolean", false))
	if _, ok := v.(*undefined); ok {
		return def, nil
	}
	if boolean {
		if ok, _ := truth(v); !ok {
			return def, nil
		}
	}
	return v, nil
}

func doDictsort(r *renderer, v any, args []any, kwargs map[string]any) (any, error) {
	var items callable
	switch m := v.(type) {
	case map[string]any:
		items, _ = dictMethod(r, m, "items")
	case *keyedDict:
		items, _ = m.method("items")
	default:
		return nil, errors.New("dictsort expects a dict")
	}
	out, _ := items(nil, nil)
	byValue := param(args, kwargs, 1, "by", "key") == "value"
	rev, _ := truth(param(args, kwargs, 2, "reverse", false))
	cs, _ := truth(param(args, kwargs, 0, "case_sensitive", false))
	l := out.([]any)
	err := sortValues(l, func(x any) any {
		k := x.(tuple)[0]
		if byValue {
			k = x.(tuple)[1]
		}
		return foldCase(k, cs)
	}, rev)
	return l, err
}

func doEscape(r *renderer, v any, _ []any, _ map[string]any) (any, error) {
	return escapeHTML(v)
}

func doFirst(r *renderer, v any, _ []any, _ map[string]any) (any, error) {
	items, err := iterate(r, v)
	if err != nil {
		return nil, err
	}
	if len(items) == 0 {
		return &undefined{name: "No first item, sequence was empty.", soft: r.env.lenient}, nil
	}
	return items[0], nil
}

func doFloat(r *renderer, v any, args []any, kwargs map[string]any) (any, error) {
	def := param(args, kwargs, 0, "default", 0.0)
	switch x := v.(type) {
	case float64:
		return x, nil
	case int64:
		return float64(x), nil
	case bool:
		return float64(boolToInt(x)), nil
	case string:
		if f, ok := parsePyFloat(x); ok {
			return f, nil
		}
	}
	return def, nil
}

func doForceescape(r *renderer, v any, _ []any, _ map[string]any) (any, error) {
	return escapeHTML(v)
}

func doFormat(r *renderer, v any, args []any, kwargs map[string]any) (any, error) {
	s, err := str(v)
	if err != nil {
		return nil, err
	}
	if len(kwargs) > 0 {
		return percentFormat(s, kwargs)
	}
	return percentFormat(s, tuple(args))
}

func doGroupby(r *renderer, v any, args []any, kwargs map[string]any) (any, error) {
	items, err := iterate(r, v)
	if err != nil {
		return nil, err
	}
	attr, ok := param(args, kwargs, 0, "attribute", nil).(string)
	if !ok {
		return nil, errors.New("groupby needs an attribute name")
	}
	def := param(args, kwargs, 1, "default", nil)
	keyed := make([]any, len(items))
	for i, it := range items {
		k, err := getAttrPath(it, attr)
		if err != nil {
			return nil, err
		}
		if _, u := k.(*undefined); u && def != nil {
			k = def
		}
		keyed[i] = tuple{k, it}
	}
	if err := sortValues(keyed, func(x any) any { return x.(tuple)[0] }, false); err != nil {
		return nil, err
	}
	out := []any{}
	for _, kv := range keyed {
		k, it := kv.(tuple)[0], kv.(tuple)[1]
		if n := len(out); n > 0 && pyval.Equal(out[n-1].(tuple)[0], k) {
			g := out[n-1].(tuple)
			out[n-1] = tuple{k, append(g[1].([]any), it)}
			continue
		}
		out = append(out, tuple{k, []any{it}})
	}
	return out, nil
}

func doIndent(r *renderer, v any, args []any, kwargs map[string]any) (any, error) {
	s, ok := v.(string)
	if !ok {
		return nil, fmt.Errorf("unsupported operand type(s) for +=: '%s' and 'str'", typeName(v))
	}
	w := param(args, kwargs, 0, "width", int64(4))
	var ind string
	if ws, ok := w.(string); ok {
		ind = ws
	} else {
		n, _ := asInt(w)
		ind = strings.Repeat(" ", int(max(n, 0)))
	}
	first, _ := truth(param(args, kwargs, 1, "first", false))
	blank, _ := truth(param(args, kwargs, 2, "blank", false))
	newline := "\n"
	s += newline
	lines := strings.Split(s, newline)
	lines = lines[:len(lines)-1]
	var b strings.Builder
	for i, l := range lines {
		if i > 0 {
			b.WriteString(newline)
		}
		if (i > 0 || first) && (blank || strings.TrimFunc(l, pyre.IsSpace) != "") {
			b.WriteString(ind)
		}
		b.WriteString(l)
	}
	return b.String(), nil
}

func doInt(r *renderer, v any, args []any, kwargs map[string]any) (any, error) {
	def := param(args, kwargs, 0, "default", int64(0))
	base, _ := asInt(param(args, kwargs, 1, "base", int64(10)))
	switch x := v.(type) {
	case int64:
		return x, nil
	case bool:
		return boolToInt(x), nil
	case float64:
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return def, nil
		}
		return int64(x), nil
	case string:
		s := strings.TrimFunc(x, pyre.IsSpace)
		s = strings.ReplaceAll(s, "_", "")
		if i, err := strconv.ParseInt(s, int(base), 64); err == nil {
			return i, nil
		}
		if base == 10 {
			if f, ok := parsePyFloat(x); ok && !math.IsInf(f, 0) && !math.IsNaN(f) {
				return int64(f), nil
			}
		}
	}
	return def, nil
}

func doItems(r *renderer, v any, _ []any, _ map[string]any) (any, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("can only get item pairs from a mapping, not %s", typeName(v))
	}
	items, _ := dictMethod(r, m, "items")
	return items(nil, nil)
}

func doJoin(r *renderer, v any, args []any, kwargs map[string]any) (any, error) {
	items, err := iterate(r, v)
	if err != nil {
		return nil, err
	}
	sep, err := str(param(args, kwargs, 0, "d", ""))
	if err != nil {
		return nil, err
	}
	if attr, ok := param(args, kwargs, 1, "attribute", nil).(string); ok {
		for i, it := range items {
			if items[i], err = getAttrPath(it, attr); err != nil {
				return nil, err
			}
		}
	}
	parts := make([]string, len(items))
	for i, it := range items {
		if parts[i], err = str(r.ordered(it)); err != nil {
			return nil, err
		}
	}
	return strings.Join(parts, sep), nil
}

func doLast(r *renderer, v any, _ []any, _ map[string]any) (any, error) {
	items, err := iterate(r, v)
	if err != nil {
		return nil, err
	}
	if len(items) == 0 {
		return &undefined{name: "No last item, sequence was empty.", soft: r.env.lenient}, nil
	}
	return items[len(items)-1], nil
}

func doLength(r *renderer, v any, _ []any, _ map[string]any) (any, error) {
	n, err := length(v)
	return int64(n), err
}

func doList(r *renderer, v any, _ []any, _ map[string]any) (any, error) {
	items, err := iterate(r, v)
	if err != nil {
		return nil, err
	}
	return append([]any{}, items...), nil
}

func doLower(r *renderer, v any, _ []any, _ map[string]any) (any, error) {
	return onString(v, pyLower)
}

func doMap(r *renderer, v any, args []any, kwargs map[string]any) (any, error) {
	// Jinja2 maps over `if value: for item in value`: a false value is empty.
	if ok, err := truth(v); err != nil || !ok {
		return []any{}, err
	}
	items, err := iterate(r, v)
	if err != nil {
		return nil, err
	}
	out := make([]any, len(items))
	if attr, ok := kwargs["attribute"].(string); ok {
		def, hasDef := kwargs["default"]
		for i, it := range items {
			if out[i], err = getAttrPath(it, attr); err != nil {
				return nil, err
			}
			if _, isU := out[i].(*undefined); isU && hasDef {
				out[i] = def
			}
		}
		return out, nil
	}
	if len(args) == 0 {
		return nil, errors.New("map requires a filter name or attribute=")
	}
	name, ok := args[0].(string)
	if !ok {
		return nil, errors.New("map filter name must be a string")
	}
	f, ok := filters[name]
	if !ok {
		return nil, fmt.Errorf("no filter named '%s'", name)
	}
	for i, it := range items {
		if out[i], err = f(r, it, args[1:], nil); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func doMax(r *renderer, v any, args []any, kwargs map[string]any) (any, error) {
	return minMax(r, v, args, kwargs, 1)
}

func doMin(r *renderer, v any, args []any, kwargs map[string]any) (any, error) {
	return minMax(r, v, args, kwargs, -1)
}

func doPprint(r *renderer, v any, _ []any, _ map[string]any) (any, error) {
	return repr(v)
}

func doRegexReplace(r *renderer, v any, args []any, kwargs map[string]any) (any, error) {
	s, ok := v.(string)
	if !ok {
		// re.sub takes only strings.
		return nil, fmt.Errorf("expected string or bytes-like object, got '%s'", typeName(v))
	}
	pattern, ok1 := param(args, kwargs, 0, "pattern", nil).(string)
	repl, ok2 := param(args, kwargs, 1, "repl", nil).(string)
	if !ok1 || !ok2 {
		return nil, errors.New("regex_replace(pattern, repl, count=0) needs string pattern and repl")
	}
	count, _ := asInt(param(args, kwargs, 2, "count", int64(0)))
	return pySub(s, pattern, repl, int(count))
}

func doReject(r *renderer, v any, args []any, _ map[string]any) (any, error) {
	return selectOrReject(r, v, args, false, false)
}

func doRejectattr(r *renderer, v any, args []any, _ map[string]any) (any, error) {
	return selectOrReject(r, v, args, false, true)
}

func doReplace(r *renderer, v any, args []any, kwargs map[string]any) (any, error) {
	s, err := str(v)
	if err != nil {
		return nil, err
	}
	old, err := str(param(args, kwargs, 0, "old", ""))
	if err != nil {
		return nil, err
	}
	repl, err := str(param(args, kwargs, 1, "new", ""))
	if err != nil {
		return nil, err
	}
	n := int64(-1)
	if c := param(args, kwargs, 2, "count", nil); c != nil {
		n, _ = asInt(c)
	}
	return strings.Replace(s, old, repl, int(n)), nil
}

func doReverse(r *renderer, v any, _ []any, _ map[string]any) (any, error) {
	if s, ok := v.(string); ok {
		rs := []rune(s)
		for i, j := 0, len(rs)-1; i < j; i, j = i+1, j-1 {
			rs[i], rs[j] = rs[j], rs[i]
		}
		return string(rs), nil
	}
	items, err := iterate(r, v)
	if err != nil {
		return nil, err
	}
	out := make([]any, len(items))
	for i, it := range items {
		out[len(items)-1-i] = it
	}
	return out, nil
}

func doRound(r *renderer, v any, args []any, kwargs map[string]any) (any, error) {
	prec, _ := asInt(param(args, kwargs, 0, "precision", int64(0)))
	method, _ := param(args, kwargs, 1, "method", "common").(string)
	f, ok := number(v)
	if !ok {
		return nil, fmt.Errorf("type %s doesn't define __round__", typeName(v))
	}
	if method == "common" {
		if i, isInt := asInt(v); isInt {
			return i, nil // Python's round of an int (or bool) is an int
		}
		s := strconv.FormatFloat(f, 'f', int(max(prec, 0)), 64)
		r, _ := strconv.ParseFloat(s, 64)
		if prec < 0 {
			p := math.Pow(10, float64(-prec))
			r = math.RoundToEven(f/p) * p
		}
		return r, nil
	}
	p := math.Pow(10, float64(prec))
	if method == "ceil" {
		return math.Ceil(f*p) / p, nil
	}
	if method == "floor" {
		return math.Floor(f*p) / p, nil
	}
	return nil, errors.New("method must be common, ceil or floor")
}

func doSafe(r *renderer, v any, _ []any, _ map[string]any) (any, error) {
	return v, nil
}

func doSelect(r *renderer, v any, args []any, _ map[string]any) (any, error) {
	return selectOrReject(r, v, args, true, false)
}

func doSelectattr(r *renderer, v any, args []any, _ map[string]any) (any, error) {
	return selectOrReject(r, v, args, true, true)
}

func doSlice(r *renderer, v any, args []any, kwargs map[string]any) (any, error) {
	items, err := iterate(r, v)
	if err != nil {
		return nil, err
	}
	n, _ := asInt(param(args, kwargs, 0, "slices", int64(1)))
	if n <= 0 {
		return nil, errors.New("slices must be positive")
	}
	fill, hasFill := kwargs["fill_with"]
	if len(args) > 1 {
		fill, hasFill = args[1], args[1] != nil
	}
	per, extra := len(items)/int(n), len(items)%int(n)
	offset := 0
	out := []any{}
	for i := 0; i < int(n); i++ {
		start := offset + i*per
		if i < extra {
			offset++
		}
		end := offset + (i+1)*per
		row := append([]any{}, items[start:end]...)
		if hasFill && i >= extra {
			row = append(row, fill)
		}
		out = append(out, row)
	}
	return out, nil
}

func doSort(r *renderer, v any, args []any, kwargs map[string]any) (any, error) {
	items, err := iterate(r, v)
	if err != nil {
		return nil, err
	}
	out := append([]any{}, items...)
	rev, _ := truth(param(args, kwargs, 0, "reverse", false))
	cs, _ := truth(param(args, kwargs, 1, "case_sensitive", false))
	attr, _ := param(args, kwargs, 2, "attribute", nil).(string)
	err = sortValues(out, func(x any) any {
		if attr != "" {
			x, _ = getAttrPath(x, attr)
		}
		return foldCase(x, cs)
	}, rev)
	return out, err
}

func doString(r *renderer, v any, _ []any, _ map[string]any) (any, error) {
	return str(r.ordered(v))
}

func doStriptags(r *renderer, v any, _ []any, _ map[string]any) (any, error) {
	s, err := str(v)
	if err != nil {
		return nil, err
	}
	s = commentOrTag.ReplaceAllString(s, "")
	s = strings.Join(strings.FieldsFunc(s, pyre.IsSpace), " ")
	return unescapeHTML(s), nil
}

func doSum(r *renderer, v any, args []any, kwargs map[string]any) (any, error) {
	items, err := iterate(r, v)
	if err != nil {
		return nil, err
	}
	attr, _ := param(args, kwargs, 0, "attribute", nil).(string)
	var total any = param(args, kwargs, 1, "start", int64(0))
	for _, it := range items {
		if attr != "" {
			if it, err = getAttrPath(it, attr); err != nil {
				return nil, err
			}
		}
		if total, err = binaryOp(tokAdd, "+", total, it); err != nil {
			return nil, err
		}
	}
	return total, nil
}

func doTitle(r *renderer, v any, _ []any, _ map[string]any) (any, error) {
	return onString(v, jinjaTitle)
}

func doTojson(r *renderer, v any, args []any, kwargs map[string]any) (any, error) {
	if r.env.hf {
		return hfToJSON(r, v, args, kwargs)
	}
	indent, _ := asInt(param(args, kwargs, 0, "indent", int64(-1)))
	s, err := toJSON(v, int(indent), true)
	if err != nil {
		return nil, err
	}
	return strings.NewReplacer("<", `\u003c`, ">", `\u003e`, "&", `\u0026`, "'", `\u0027`).Replace(s), nil
}

func doTrim(r *renderer, v any, args []any, kwargs map[string]any) (any, error) {
	s, err := str(v)
	if err != nil {
		return nil, err
	}
	chars, err := optChars("trim", []any{param(args, kwargs, 0, "chars", nil)})
	if err != nil {
		return nil, err
	}
	return pyStrip(s, chars, true, true), nil
}

func doTruncate(r *renderer, v any, args []any, kwargs map[string]any) (any, error) {
	n, _ := asInt(param(args, kwargs, 0, "length", int64(255)))
	killwords, _ := truth(param(args, kwargs, 1, "killwords", false))
	end, _ := param(args, kwargs, 2, "end", "...").(string)
	leeway, _ := asInt(param(args, kwargs, 3, "leeway", int64(5)))
	// Jinja2 returns anything short enough as it is, and slices
	// only strings.
	l, err := length(v)
	if err != nil {
		return nil, err
	}
	if int64(l) <= n+leeway {
		return v, nil
	}
	s, ok := v.(string)
	if !ok {
		return nil, fmt.Errorf("'%s' object has no attribute 'rfind'", typeName(v))
	}
	rs := []rune(s)
	cut := int(n) - len([]rune(end))
	if cut < 0 {
		cut = 0
	}
	if killwords {
		return string(rs[:cut]) + end, nil
	}
	head := string(rs[:cut])
	if i := strings.LastIndex(head, " "); i >= 0 {
		head = head[:i]
	}
	return head + end, nil
}

func doUnique(r *renderer, v any, args []any, kwargs map[string]any) (any, error) {
	items, err := iterate(r, v)
	if err != nil {
		return nil, err
	}
	cs, _ := truth(param(args, kwargs, 0, "case_sensitive", false))
	var out, seen []any
	for _, it := range items {
		switch it.(type) {
		case []any, map[string]any, *undefined:
			return nil, fmt.Errorf("unhashable type: '%s'", typeName(it))
		}
		k := foldCase(it, cs)
		if indexOf(seen, k) < 0 {
			seen = append(seen, k)
			out = append(out, it)
		}
	}
	if out == nil {
		out = []any{}
	}
	return out, nil
}

func doUpper(r *renderer, v any, _ []any, _ map[string]any) (any, error) {
	return onString(v, pyUpper)
}

func doWordcount(r *renderer, v any, _ []any, _ map[string]any) (any, error) {
	s, err := str(v)
	if err != nil {
		return nil, err
	}
	return int64(len(wordRe.FindAllString(s, -1))), nil
}

// commentOrTag is striptags' pattern for an HTML comment or tag.
var commentOrTag = regexp.MustCompile(`(?s)(<!--.*?-->|<[^>]*>)`)

// unsupportedFilter stands for a Jinja2 builtin filter that no lm-eval
// template uses: templates naming it compile, as in Jinja2, and fail when
// they apply it.
func unsupportedFilter(name string) filterFunc {
	return func(*renderer, any, []any, map[string]any) (any, error) {
		return nil, fmt.Errorf("the %s filter is not supported", name)
	}
}

func unescapeHTML(s string) string {
	return strings.NewReplacer("&amp;", "&", "&lt;", "<", "&gt;", ">", "&#34;", `"`, "&#39;", "'", "&quot;", `"`).Replace(s)
}

// wordRe is Python's \w+ on str: letters, digits and underscore.
var wordRe = regexp.MustCompile(`[\p{L}\p{N}_]+`)

// onString applies f to str(v).
func onString(v any, f func(string) string) (any, error) {
	s, err := str(v)
	if err != nil {
		return nil, err
	}
	return f(s), nil
}

// jinjaTitle is Jinja2's do_title: the string split at runs of whitespace
// and -({[<, each word's first character uppercased and the rest lowercased
// with Python's str.upper and str.lower.
func jinjaTitle(s string) string {
	var b strings.Builder
	isSep := func(r rune) bool { return pyre.IsSpace(r) || strings.ContainsRune("-({[<", r) }
	for len(s) > 0 {
		i := strings.IndexFunc(s, func(r rune) bool { return !isSep(r) })
		if i < 0 {
			b.WriteString(s)
			break
		}
		b.WriteString(s[:i])
		s = s[i:]
		j := strings.IndexFunc(s, isSep)
		if j < 0 {
			j = len(s)
		}
		word := s[:j]
		_, n := utf8.DecodeRuneInString(word)
		b.WriteString(pyUpper(word[:n]))
		b.WriteString(pyLower(word[n:]))
		s = s[j:]
	}
	return b.String()
}

func foldCase(v any, caseSensitive bool) any {
	if s, ok := v.(string); ok && !caseSensitive {
		return pyLower(s)
	}
	return v
}

func getAttrPath(v any, path string) (any, error) {
	for _, part := range strings.Split(path, ".") {
		var err error
		if n, e := strconv.Atoi(part); e == nil {
			v, err = getItem(nil, v, int64(n))
		} else {
			v, err = getItem(nil, v, part)
		}
		if err != nil {
			return nil, err
		}
	}
	return v, nil
}

func escapeHTML(v any) (any, error) {
	s, err := str(v)
	if err != nil {
		return nil, err
	}
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;").Replace(s), nil
}

// selectOrReject keeps the items (or, byAttr, the items whose attribute
// args[0]) that pass the test named next in args (truth when none) when
// keep, or that fail it when not.
func selectOrReject(r *renderer, v any, args []any, keep, byAttr bool) (any, error) {
	if ok, err := truth(v); err != nil || !ok {
		return []any{}, err // `if value: for item in value`, as Jinja2
	}
	items, err := iterate(r, v)
	if err != nil {
		return nil, err
	}
	var attr string
	if byAttr {
		if len(args) == 0 {
			return nil, errors.New("missing attribute")
		}
		attr, _ = args[0].(string)
		args = args[1:]
	}
	test := func(x any) (bool, error) { return truth(x) }
	if len(args) > 0 {
		name, _ := args[0].(string)
		t, ok := tests[name]
		if !ok {
			return nil, fmt.Errorf("no test named '%s'", name)
		}
		rest := args[1:]
		test = func(x any) (bool, error) { return t(x, rest) }
	}
	out := []any{}
	for _, it := range items {
		x := it
		if byAttr {
			if x, err = getAttrPath(it, attr); err != nil {
				return nil, err
			}
		}
		ok, err := test(x)
		if err != nil {
			return nil, err
		}
		if ok == keep {
			out = append(out, it)
		}
	}
	return out, nil
}

// minMax is the least item (sign -1) or the greatest (sign 1), the first
// of equals.
func minMax(r *renderer, v any, args []any, kwargs map[string]any, sign int) (any, error) {
	items, err := iterate(r, v)
	if err != nil {
		return nil, err
	}
	if len(items) == 0 {
		return &undefined{name: "no min/max item, sequence was empty", soft: r.env.lenient}, nil
	}
	cs, _ := truth(param(args, kwargs, 0, "case_sensitive", false))
	attr, _ := param(args, kwargs, 1, "attribute", nil).(string)
	key := func(x any) any {
		if attr != "" {
			x, _ = getAttrPath(x, attr)
		}
		return foldCase(x, cs)
	}
	best := items[0]
	for _, it := range items[1:] {
		c, err := compare(key(it), key(best))
		if err != nil {
			return nil, err
		}
		if c*sign > 0 {
			best = it
		}
	}
	return best, nil
}

// parsePyFloat is Python's float(str).
func parsePyFloat(s string) (float64, bool) {
	s = strings.TrimFunc(s, pyre.IsSpace)
	s = strings.ReplaceAll(s, "_", "")
	switch strings.ToLower(strings.TrimLeft(s, "+-")) {
	case "inf", "infinity", "nan":
	default:
		if strings.ContainsAny(s, "xXpP") {
			return 0, false
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return f, true
		}
		return 0, false
	}
	return f, true
}
