package filters

import (
	"fmt"

	"github.com/lmeval/lmeval/python/pyval"
)

// ListFunc adapts a Python filter function of the shape lm-eval's
// utils.py files define for the "custom" filter — def f(resps:
// list[list[str]], docs: list[dict]) -> list[list[str]] — to a
// FilterFunc: each document's value must be a list of responses, and each
// becomes the list fn returns for it.
func ListFunc(fn func(resps [][]string, docs []map[string]any) ([][]string, error)) FilterFunc {
	return func(resps []any, docs []map[string]any) ([]any, error) {
		in := make([][]string, len(resps))
		for i, r := range resps {
			l, ok := r.([]any)
			if !ok {
				return nil, fmt.Errorf("document %d: want a list of responses, got %T (a take_first before this filter?)", i, r)
			}
			in[i] = make([]string, len(l))
			for j, e := range l {
				s, ok := e.(string)
				if !ok {
					s = pyval.Str(e)
				}
				in[i][j] = s
			}
		}
		out, err := fn(in, docs)
		if err != nil {
			return nil, err
		}
		res := make([]any, len(out))
		for i, l := range out {
			v := make([]any, len(l))
			for j, s := range l {
				v[j] = s
			}
			res[i] = v
		}
		return res, nil
	}
}
