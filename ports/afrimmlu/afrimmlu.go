// Package afrimmlu ports the helpers of lm_eval/tasks/afrimmlu (AfriMMLU,
// IrokoBench): the choices, a Python list literal, and the prompt
// templates.
//
// Every afrimmlu task's metric_list names `!function
// utils.weighted_f1_score`, which none of its utils.py defines or
// imports: lm-eval cannot load these tasks (AttributeError), and lmeval
// reports them unavailable for that reason. The ports serve a YAML that
// fixes it.
package afrimmlu

import (
	"fmt"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/pydoc"
	"github.com/lmeval/lmeval/python/pyval"
)

// DocToChoice is doc_to_choice: ast.literal_eval(doc["choices"]).
func DocToChoice(doc task.Doc) (any, error) {
	v, err := pydoc.Field(doc, "choices")
	if err != nil {
		return nil, err
	}
	s, ok := v.(string)
	if !ok {
		return nil, fmt.Errorf("ValueError: malformed node or string: choices is %T, want a Python literal", v)
	}
	return pyval.LiteralEval(s)
}

// DocToText is doc_to_text for one of the templates: the subject, the
// question and the first four choices.
func DocToText(doc task.Doc, tmpl string) (string, error) {
	c, err := DocToChoice(doc)
	if err != nil {
		return "", err
	}
	vals := map[string]string{}
	for _, k := range []string{"subject", "question"} {
		if vals[k], err = pydoc.Str(doc, k); err != nil {
			return "", err
		}
	}
	for i := 0; i < 4; i++ {
		e, err := index(c, i)
		if err != nil {
			return "", err
		}
		vals[fmt.Sprintf("choice%d", i+1)] = pyval.Str(e)
	}
	return pydoc.Format(tmpl, vals)
}

// index is v[i] for a list, tuple or string.
func index(v any, i int) (any, error) {
	switch x := v.(type) {
	case []any:
		if i < len(x) {
			return x[i], nil
		}
	case string:
		r := []rune(x)
		if i < len(r) {
			return string(r[i]), nil
		}
	default:
		return nil, fmt.Errorf("TypeError: '%s' object is not subscriptable", pyval.Repr(v))
	}
	return nil, fmt.Errorf("IndexError: list index out of range")
}
