package jinja

import (
	"testing"

	"github.com/lmeval/lmeval/python/pyval"
)

// A document's dicts iterate in the dataset's key order (pyval.Columns),
// as the Python dicts of datasets' rows do; dicts the order does not know,
// and documents rendered without one, iterate sorted. Expected values are
// Jinja2's over the same document built as a Python dict in this order.
func TestRenderColumnsKeyOrder(t *testing.T) {
	doc := map[string]any{
		"question": "q",
		"answer": map[string]any{
			"number": "24", "date": map[string]any{"day": "", "month": "", "year": ""},
			"spans": []any{}, "worker_id": "", "hit_id": "",
		},
		"validated": []any{
			map[string]any{"spans": []any{"a"}, "number": ""},
			map[string]any{"spans": []any{}, "number": "3"},
		},
	}
	cols := &pyval.Columns{}
	cols.Add("question")
	a := cols.Add("answer")
	for _, k := range []string{"number", "date", "spans", "worker_id", "hit_id"} {
		f := a.Add(k)
		if k == "date" {
			f.Add("year")
			f.Add("month")
			f.Add("day")
		}
	}
	v := cols.Add("validated")
	v.Add("spans")
	v.Add("number")
	e := New()
	for _, c := range []struct{ src, want, sorted string }{
		{"{{ answer|join(',') }}", "number,date,spans,worker_id,hit_id", "date,hit_id,number,spans,worker_id"},
		{"{% for k in answer %}{{ k }};{% endfor %}", "number;date;spans;worker_id;hit_id;", "date;hit_id;number;spans;worker_id;"},
		{"{% for k, x in answer.date.items() %}{{ k }}{% endfor %}", "yearmonthday", "daymonthyear"},
		{"{{ answer.keys()|list }}", "['number', 'date', 'spans', 'worker_id', 'hit_id']", "['date', 'hit_id', 'number', 'spans', 'worker_id']"},
		{"{{ answer.date }}", "{'year': '', 'month': '', 'day': ''}", "{'day': '', 'month': '', 'year': ''}"},
		{"{{ validated }}", "[{'spans': ['a'], 'number': ''}, {'spans': [], 'number': '3'}]", "[{'number': '', 'spans': ['a']}, {'number': '3', 'spans': []}]"},
		{"{{ validated[1]|list|join(' ') }}", "spans number", "number spans"},
		{"{{ validated|map(attribute='number')|list }}", "['', '3']", "['', '3']"},
		// A dict literal keeps its keys' order, with or without Columns.
		{"{{ {'b': 1, 'a': 2}|list }}", "['b', 'a']", "['b', 'a']"},
		{"{% set d = {'z': answer.number, 'a': 1} %}{{ d }} {{ d.items()|list }}", "{'z': '24', 'a': 1} [('z', '24'), ('a', 1)]", "{'z': '24', 'a': 1} [('z', '24'), ('a', 1)]"},
	} {
		got, err := e.RenderColumns(c.src, doc, cols)
		if err != nil || got != c.want {
			t.Errorf("RenderColumns(%q) = %q, %v; want %q", c.src, got, err, c.want)
		}
		got, err = e.Render(c.src, doc)
		if err != nil || got != c.sorted {
			t.Errorf("Render(%q) = %q, %v; want %q", c.src, got, err, c.sorted)
		}
	}
	got, err := e.RenderValueColumns("{{ answer|list }}", doc, cols)
	if err != nil || pyval.Repr(got) != "['number', 'date', 'spans', 'worker_id', 'hit_id']" {
		t.Errorf("RenderValueColumns = %v, %v", got, err)
	}
}
