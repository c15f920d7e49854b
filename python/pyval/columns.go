package pyval

import "slices"

// Columns is the key order of a dataset's documents, as an Arrow schema
// keeps it and so as Python's datasets returns rows: the columns in order
// and, for a struct column (or the structs inside a list column), the order
// of its fields. A document is a map[string]any, which has no order of its
// own; Columns gives it back the dataset's. The zero value (and nil) knows
// no order.
type Columns struct {
	Names  []string
	Fields map[string]*Columns
}

// Add appends name unless present and returns the order of its fields,
// for a caller learning a schema.
func (c *Columns) Add(name string) *Columns {
	if c.Fields == nil {
		c.Fields = map[string]*Columns{}
	}
	f, ok := c.Fields[name]
	if !ok {
		c.Names = append(c.Names, name)
		f = &Columns{}
		c.Fields[name] = f
	}
	return f
}

// Field is the order inside column name (nil when unknown).
func (c *Columns) Field(name string) *Columns {
	if c == nil {
		return nil
	}
	return c.Fields[name]
}

// Has reports whether name is one of the columns.
func (c *Columns) Has(name string) bool {
	if c == nil {
		return false
	}
	_, ok := c.Fields[name]
	return ok
}

// Keys orders m's keys: the known columns first, in order, then the others
// sorted.
func (c *Columns) Keys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	if c != nil {
		for _, k := range c.Names {
			if _, ok := m[k]; ok {
				keys = append(keys, k)
			}
		}
	}
	var rest []string
	for k := range m {
		if !c.Has(k) {
			rest = append(rest, k)
		}
	}
	slices.Sort(rest)
	return append(keys, rest...)
}

// Mapped is the order after a process_docs that returns docs: the columns
// still present keep their place, and new ones follow, in the order given
// (datasets' Dataset.map appends the columns its function adds, in the
// order of the returned dict), then any others sorted.
func (c *Columns) Mapped(docs []map[string]any, added []string) *Columns {
	present := map[string]bool{}
	for _, d := range docs {
		for k := range d {
			present[k] = true
		}
	}
	out := &Columns{}
	if c != nil {
		for _, k := range c.Names {
			if present[k] {
				out.Add(k)
				out.Fields[k] = c.Fields[k]
			}
		}
	}
	for _, k := range added {
		if present[k] {
			out.Add(k)
		}
	}
	var rest []string
	for k := range present {
		if !out.Has(k) {
			rest = append(rest, k)
		}
	}
	slices.Sort(rest)
	for _, k := range rest {
		out.Add(k)
	}
	return out
}

// Merge adds other's columns (and fields) that c lacks, after c's.
func (c *Columns) Merge(other *Columns) {
	if other == nil {
		return
	}
	for _, k := range other.Names {
		c.Add(k).Merge(other.Fields[k])
	}
}

// ColumnsOf is the order of the given names (no nested fields).
func ColumnsOf(names ...string) *Columns {
	c := &Columns{}
	for _, n := range names {
		c.Add(n)
	}
	return c
}
