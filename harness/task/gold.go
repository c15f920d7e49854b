package task

import (
	"slices"
	"strings"

	"github.com/lmeval/lmeval/python/pyval"
)

// GoldErrors counts the multiple-choice documents whose gold answer is not
// one of their choices (an index at or past the number of choices, or a
// text that is no choice: lm-eval's gold_index_error, which it scores as
// wrong and logs for every such document; or a negative index, which
// lm-eval takes silently as Python's index from the end, never equal to
// the predicted choice). first is the first of them in evaluation order,
// nil when there are none.
func (t *Task) GoldErrors() (first *DocInfo, n int) {
	if t.Config.OutputType != OutputMultipleChoice {
		return nil, 0
	}
	for _, d := range t.Docs {
		bad := d.Golds == nil && d.Gold < 0
		for _, g := range d.Golds {
			bad = bad || g < 0
		}
		if bad {
			if first == nil {
				first = d
			}
			n++
		}
	}
	return first, n
}

// GoldValue is a multiple-choice document's gold as doc_to_target (or, for
// multiple_input tasks, doc_to_text) gives it, for messages.
func (t *Task) GoldValue(d *DocInfo) any {
	if t.MultipleInput {
		if g, err := t.DocToText(d.Doc, nil); err == nil {
			return g
		}
	}
	return d.Target
}

// NoneFields counts the documents a field of which is None (a CSV row's
// missing cell, a JSON null) and shows in the document's prompt, target
// or choices as the text "None", as Python's str(None) renders it in
// lm-eval: a hole in the data, scored as if it were the text. field is the
// first such document's field; first is nil when there are none.
//
// A field counts when it is doc_to_text, doc_to_target or doc_to_choice
// itself, or when rendering the document without it has fewer "None"s:
// a template that tests the field (`{% if q %}`) or a choice whose own
// text says "None" does not count.
func (t *Task) NoneFields() (first *DocInfo, field string, n int) {
	c := t.Config
	specs := []any{c.DocToText, c.DocToTarget}
	if c.DocToChoice != nil {
		specs = append(specs, c.DocToChoice)
	}
	for _, d := range t.Docs {
		var holes []string
		for k, v := range d.Doc {
			if v == nil && t.mayRender(specs, k) {
				holes = append(holes, k)
			}
		}
		if len(holes) == 0 {
			continue
		}
		slices.Sort(holes)
		full := t.renderedText(d.Doc)
		for _, k := range holes {
			if !t.rendersNone(specs, d.Doc, k, full) {
				continue
			}
			if first == nil {
				first, field = d, k
			}
			n++
			break
		}
	}
	return first, field, n
}

// mayRender reports whether one of the specs can show field k: names it
// (a feature or a template that mentions it) or is a function.
func (t *Task) mayRender(specs []any, k string) bool {
	for _, s := range specs {
		switch s := s.(type) {
		case string:
			if strings.Contains(s, k) {
				return true
			}
		case *Func:
			return true
		}
	}
	return false
}

// rendersNone reports whether doc's None field k shows as "None" in its
// rendered text (full is renderedText(doc)).
func (t *Task) rendersNone(specs []any, doc Doc, k, full string) bool {
	for _, s := range specs {
		if s, ok := s.(string); ok && s == k && t.features[k] {
			return true
		}
	}
	without := make(Doc, len(doc))
	for f, v := range doc {
		if f != k {
			without[f] = v
		}
	}
	return strings.Count(full, "None") > strings.Count(t.renderedText(without), "None")
}

// renderedText is a document's prompt, target and choices as text,
// separated by NULs; a part that fails to render is left out.
func (t *Task) renderedText(doc Doc) string {
	var b strings.Builder
	if v, err := t.DocToText(doc, nil); err == nil {
		b.WriteString(pyval.Str(v))
	}
	b.WriteByte(0)
	if v, err := t.DocToTarget(doc, nil); err == nil {
		b.WriteString(pyval.Str(v))
	}
	if t.Config.DocToChoice != nil {
		if cs, err := t.DocToChoice(doc, nil); err == nil {
			for _, ch := range cs {
				b.WriteByte(0)
				b.WriteString(ch)
			}
		}
	}
	return b.String()
}
