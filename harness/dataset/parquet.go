package dataset

import (
	"github.com/lmeval/lmeval/python/pyval"

	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/deprecated"
	pformat "github.com/parquet-go/parquet-go/format"
)

// readParquet reads every row of a Parquet file as a document. Values keep
// the types Python's datasets gives them (via Arrow): integers int64, floats
// float64, booleans bool, strings string, nulls nil, lists []any and structs
// map[string]any, nested to any depth.
func readParquet(name string) ([]map[string]any, *pyval.Columns, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	pf, err := parquet.OpenFile(f, fi.Size())
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	root, ncols := buildNode(pf.Schema(), "", 0, 0, 0, true)
	schema := &pyval.Columns{}
	root.columns(schema)
	docs := make([]map[string]any, 0, pf.NumRows())
	cols := make([][]parquet.Value, ncols)
	buf := make([]parquet.Row, 64)
	for _, rg := range pf.RowGroups() {
		rows := rg.Rows()
		for {
			n, err := rows.ReadRows(buf)
			for _, row := range buf[:n] {
				for i := range cols {
					cols[i] = cols[i][:0]
				}
				for _, v := range row {
					c := v.Column()
					if c < 0 || c >= ncols {
						rows.Close()
						return nil, nil, fmt.Errorf("%s: value of unknown column %d", name, c)
					}
					cols[c] = append(cols[c], v)
				}
				doc, err := root.content(cols)
				if err != nil {
					rows.Close()
					return nil, nil, fmt.Errorf("%s: row %d: %w", name, len(docs), err)
				}
				docs = append(docs, doc.(map[string]any))
			}
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				rows.Close()
				return nil, nil, fmt.Errorf("%s: %w", name, err)
			}
		}
		rows.Close()
	}
	return docs, schema, nil
}

type nodeKind int

const (
	leafNode nodeKind = iota
	groupNode
	listNode // LIST-annotated group: one repeated child
	mapNode  // MAP-annotated group: one repeated key_value child
)

// pnode is a schema node with what record assembly needs: its definition
// and repetition levels and the range of leaf columns beneath it.
type pnode struct {
	name      string
	kind      nodeKind
	optional  bool
	repeated  bool
	def, rep  int // levels of values that reach this node
	col0, col int // leaf columns [col0, col) under this node
	children  []*pnode
	unwrap    bool // list: elements are the single field of the repeated group
	leafType  parquet.Type

	// scratch for elements
	sub    [][]parquet.Value
	starts []int
}

// buildNode converts the parquet schema tree, numbering leaf columns in
// depth-first order as Parquet does.
func buildNode(n parquet.Node, name string, def, rep, col int, root bool) (*pnode, int) {
	p := &pnode{name: name, col0: col}
	if !root {
		p.optional, p.repeated = n.Optional(), n.Repeated()
	}
	if p.optional || p.repeated {
		def++
	}
	if p.repeated {
		rep++
	}
	p.def, p.rep = def, rep
	if n.Leaf() {
		p.kind, p.leafType = leafNode, n.Type()
		p.col = col + 1
		return p, p.col
	}
	p.kind = groupNode
	if !root {
		switch {
		case isAnnotated[*pformat.ListType](n, deprecated.List):
			p.kind = listNode
		case isAnnotated[*pformat.MapType](n, deprecated.Map) || isAnnotated[*pformat.MapType](n, deprecated.MapKeyValue):
			p.kind = mapNode
		}
	}
	fields := n.Fields()
	if p.kind != groupNode && (len(fields) != 1 || !fields[0].Repeated()) {
		p.kind = groupNode // malformed annotation: read as a plain struct
	}
	for _, f := range fields {
		var c *pnode
		c, col = buildNode(f, f.Name(), def, rep, col, false)
		p.children = append(p.children, c)
	}
	p.col = col
	if p.kind == listNode {
		// Backward-compatibility rules of the Parquet LIST spec: a repeated
		// group with one field is a wrapper (list/element) unless named
		// "array" or "<list>_tuple", in which case it is the element itself.
		rg := p.children[0]
		p.unwrap = rg.kind != leafNode && len(rg.children) == 1 && rg.name != "array" && rg.name != name+"_tuple"
	}
	return p, col
}

// columns adds the schema's field order under p to cols: a struct's
// fields, a list's elements' (lists are seen through). A map's keys are
// data, not schema.
func (p *pnode) columns(cols *pyval.Columns) {
	switch p.kind {
	case leafNode, mapNode:
	case listNode:
		el := p.children[0]
		if p.unwrap {
			el = el.children[0]
		}
		el.columns(cols)
	default:
		for _, c := range p.children {
			c.columns(cols.Add(c.name))
		}
	}
}

func isAnnotated[T any](n parquet.Node, ct deprecated.ConvertedType) bool {
	if lt := n.Type().LogicalType(); lt != nil {
		if _, ok := lt.Value.(T); ok {
			return true
		}
	}
	c := n.Type().ConvertedType()
	return c != nil && *c == ct
}

// value assembles the node's value from the values of its leaf columns
// (cols indexed by absolute column) belonging to one instance of its parent.
func (p *pnode) value(cols [][]parquet.Value) (any, error) {
	first := cols[p.col0]
	if len(first) == 0 {
		return nil, fmt.Errorf("column %q: no value", p.name)
	}
	if p.repeated {
		if first[0].DefinitionLevel() < p.def {
			return []any{}, nil
		}
		return p.elements(cols)
	}
	if p.optional && first[0].DefinitionLevel() < p.def {
		return nil, nil
	}
	return p.content(cols)
}

// elements splits a repeated node's values into its elements: a new element
// starts at each value whose repetition level is the node's own.
func (p *pnode) elements(cols [][]parquet.Value) ([]any, error) {
	// A node is never inside itself, so its scratch space is free here.
	if p.sub == nil {
		p.sub = make([][]parquet.Value, p.col)
		p.starts = make([]int, p.col-p.col0)
	}
	sub, starts := p.sub, p.starts
	clear(starts)
	var out []any
	for {
		done := true
		for c := p.col0; c < p.col; c++ {
			vs := cols[c]
			s := starts[c-p.col0]
			if s >= len(vs) {
				continue
			}
			done = false
			e := s + 1
			for e < len(vs) && vs[e].RepetitionLevel() > p.rep {
				e++
			}
			sub[c] = vs[s:e]
			starts[c-p.col0] = e
		}
		if done {
			return out, nil
		}
		v, err := p.content(sub)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
}

// content is the node's value once it is known to be present.
func (p *pnode) content(cols [][]parquet.Value) (any, error) {
	switch p.kind {
	case leafNode:
		return leafValue(cols[p.col0][0], p.leafType), nil
	case listNode:
		rg := p.children[0]
		items, err := rg.value(cols)
		if err != nil {
			return nil, err
		}
		list := items.([]any)
		if p.unwrap {
			field := rg.children[0].name
			for i, it := range list {
				list[i] = it.(map[string]any)[field]
			}
		}
		return list, nil
	case mapNode:
		kv := p.children[0]
		items, err := kv.value(cols)
		if err != nil {
			return nil, err
		}
		m := make(map[string]any)
		for _, it := range items.([]any) {
			pair, ok := it.(map[string]any)
			if !ok {
				continue
			}
			m[fmt.Sprint(pair["key"])] = pair["value"]
		}
		return m, nil
	default:
		m := make(map[string]any, len(p.children))
		for _, c := range p.children {
			v, err := c.value(cols)
			if err != nil {
				return nil, err
			}
			m[c.name] = v
		}
		return m, nil
	}
}

var epoch = time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC)

// pyDatetime formats a timestamp as Python's str(datetime) does, which is
// what a template shows: microseconds only when not zero, "+00:00" for a
// UTC-adjusted (timezone-aware) value.
func pyDatetime(t time.Time, utc bool) string {
	t = t.UTC()
	s := t.Format("2006-01-02 15:04:05")
	if us := t.Nanosecond() / 1000; us != 0 {
		s += fmt.Sprintf(".%06d", us)
	}
	if utc {
		s += "+00:00"
	}
	return s
}

func leafValue(v parquet.Value, t parquet.Type) any {
	if v.IsNull() {
		return nil
	}
	lt := t.LogicalType()
	var lv pformat.LogicalTypeValue
	if lt != nil {
		lv = lt.Value
	}
	switch v.Kind() {
	case parquet.Boolean:
		return v.Boolean()
	case parquet.Int32:
		if _, ok := lv.(*pformat.DateType); ok {
			// Python's str(datetime.date).
			return epoch.AddDate(0, 0, int(v.Int32())).Format("2006-01-02")
		}
		if it, ok := lv.(*pformat.IntType); ok && !it.IsSigned {
			return int64(uint32(v.Int32()))
		}
		return int64(v.Int32())
	case parquet.Int64:
		if ts, ok := lv.(*pformat.TimestampType); ok {
			var t time.Time
			switch ts.Unit.Value.(type) {
			case *pformat.MilliSeconds:
				t = time.UnixMilli(v.Int64())
			case *pformat.NanoSeconds:
				t = time.Unix(0, v.Int64())
			default:
				t = time.UnixMicro(v.Int64())
			}
			return pyDatetime(t, ts.IsAdjustedToUTC)
		}
		return v.Int64()
	case parquet.Float:
		return float64(v.Float())
	case parquet.Double:
		return v.Double()
	case parquet.Int96:
		// Legacy timestamps: nanoseconds of the day, then the Julian day.
		i := v.Int96()
		days := int64(i[2]) - 2440588
		return pyDatetime(time.Unix(days*86400, i.Int64()), false)
	default: // ByteArray, FixedLenByteArray
		return string(v.ByteArray())
	}
}
