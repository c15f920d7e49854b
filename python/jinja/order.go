package jinja

import (
	"reflect"
	"unsafe"

	"github.com/lmeval/lmeval/python/pyval"
)

// keyOrder gives the dicts of one document their keys in the dataset's
// order, as Python's datasets returns rows (a dict keeps its insertion
// order, and iterating it, its keys(), items(), values() and str() follow
// it). A document is a map[string]any, which has no order of its own; the
// dataset's (pyval.Columns: its columns and the fields of its struct
// columns) is attached to the document's dicts, found by identity, the
// first time a template needs it; a dict literal of the template keeps
// its keys' order. Other dicts (a helper's) iterate sorted.
type keyOrder struct {
	doc     map[string]any
	cols    *pyval.Columns
	learned bool
	known   map[unsafe.Pointer]*pyval.Columns
}

// remember gives m (a dict literal) the order of keys.
func (r *renderer) remember(m map[string]any, keys []string) {
	if len(keys) < 2 {
		return
	}
	if r.order == nil {
		r.order = &keyOrder{learned: true}
	}
	if r.order.known == nil {
		r.order.known = map[unsafe.Pointer]*pyval.Columns{}
	}
	r.order.known[mapID(m)] = pyval.ColumnsOf(keys...)
}

func newRenderer(e *Env, doc map[string]any, cols *pyval.Columns) *renderer {
	r := &renderer{env: e}
	if cols != nil {
		r.order = &keyOrder{doc: doc, cols: cols}
	}
	return r
}

func mapID(m map[string]any) unsafe.Pointer { return reflect.ValueOf(m).UnsafePointer() }

func (o *keyOrder) learn(v any, c *pyval.Columns) {
	switch x := v.(type) {
	case map[string]any:
		if c == nil || x == nil {
			return
		}
		if _, ok := o.known[mapID(x)]; ok {
			return // seen (a dict twice in the document)
		}
		o.known[mapID(x)] = c
		for k, e := range x {
			o.learn(e, c.Field(k))
		}
	case []any:
		// The fields of the dicts inside a list column are the column's.
		for _, e := range x {
			o.learn(e, c)
		}
	}
}

// keys is m's keys in Python's order: the document's dicts in the
// dataset's, any other sorted.
func (r *renderer) keys(m map[string]any) []string {
	if r == nil || r.order == nil {
		return pyval.SortedKeys(m)
	}
	o := r.order
	if !o.learned {
		o.learned = true
		if o.known == nil {
			o.known = map[unsafe.Pointer]*pyval.Columns{}
		}
		o.learn(o.doc, o.cols)
	}
	if c, ok := o.known[mapID(m)]; ok {
		return c.Keys(m)
	}
	return pyval.SortedKeys(m)
}

// ordered is v with the document's dicts in it as ordered dicts
// (pyval.Dict), for str() and repr().
func (r *renderer) ordered(v any) any {
	if r == nil || r.order == nil {
		return v
	}
	switch x := v.(type) {
	case map[string]any:
		keys := r.keys(x)
		vals := make([]any, len(keys))
		for i, k := range keys {
			vals[i] = r.ordered(x[k])
		}
		return &orderedDict{keys: keys, vals: vals, m: x}
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = r.ordered(e)
		}
		return out
	case tuple:
		out := make(tuple, len(x))
		for i, e := range x {
			out[i] = r.ordered(e)
		}
		return out
	}
	return v
}

// orderedDict is a dict as repr() writes it, keys in a given order.
type orderedDict struct {
	keys []string
	vals []any
	m    map[string]any
}

func (d *orderedDict) Keys() []string { return d.keys }

func (d *orderedDict) Get(k string) (any, bool) {
	for i, kk := range d.keys {
		if kk == k {
			return d.vals[i], true
		}
	}
	return nil, false
}
