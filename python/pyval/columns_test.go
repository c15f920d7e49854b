package pyval

import (
	"strings"
	"testing"
)

func TestColumnsMapped(t *testing.T) {
	c := ColumnsOf("ind", "label", "ctx", "gone")
	c.Add("ctx").Add("inner")
	docs := []map[string]any{{"ind": 1, "label": "0", "ctx": map[string]any{}, "gold": 0, "query": "q", "choices": nil, "zz": 1, "aa": 2}}
	// Dataset.map keeps the old columns in place (dropping removed ones)
	// and appends the new ones in the function's order; unknown ones sorted.
	m := c.Mapped(docs, []string{"query", "choices", "gold"})
	if got := strings.Join(m.Names, ","); got != "ind,label,ctx,query,choices,gold,aa,zz" {
		t.Errorf("Mapped = %s", got)
	}
	if f := m.Field("ctx"); f == nil || strings.Join(f.Names, ",") != "inner" {
		t.Errorf("nested order lost: %+v", f)
	}
	if got := strings.Join(m.Keys(map[string]any{"zz": 1, "new": 2, "ind": 3}), ","); got != "ind,zz,new" {
		t.Errorf("Keys = %s", got)
	}
	var none *Columns
	if got := strings.Join(none.Keys(map[string]any{"b": 1, "a": 2}), ","); got != "a,b" {
		t.Errorf("nil Keys = %s, want sorted", got)
	}
}
