package jinja

import (
	"fmt"

	"github.com/lmeval/lmeval/python/pyval"
)

// ParseLiteral is Python's ast.literal_eval (pyval.LiteralEval) for the
// literals templates produce: str, int, float, bool, None, and lists,
// tuples and dicts of them (tuples are returned as []any, dicts as
// map[string]any). Its errors wrap ErrNotLiteral.
func ParseLiteral(s string) (any, error) {
	v, err := pyval.LiteralEval(s)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotLiteral, err)
	}
	return v, nil
}
