package jinja

import (
	"fmt"

	"github.com/lmeval/lmeval/python/pyval"
)

// toJSON is Python's json.dumps(v, sort_keys=True, indent=indent,
// ensure_ascii=ascii) as Jinja2's tojson filter calls it (indent < 0:
// indent=None).
func toJSON(v any, indent int, ascii bool) (string, error) {
	return pyval.JSON(v, pyval.JSONOptions{Indent: indent, ASCII: ascii, Default: notJSON})
}

// notJSON is json.dumps' error for a value it cannot write; an undefined
// value reports its name.
func notJSON(v any) (any, error) {
	if u, ok := v.(*undefined); ok {
		return nil, u.err()
	}
	return nil, fmt.Errorf("Object of type %s is not JSON serializable", typeName(v))
}
