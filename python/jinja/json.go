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

// hfToJSON is transformers' tojson filter (utils/chat_template_utils.py):
// json.dumps(x, ensure_ascii=False, indent=None, separators=None,
// sort_keys=False), its arguments in that order. Dicts keep their order
// (the messages' and the template's literals'); a dict whose keys are not
// strings has them converted as json.dumps does.
func hfToJSON(r *renderer, v any, args []any, kwargs map[string]any) (any, error) {
	for k := range kwargs {
		switch k {
		case "ensure_ascii", "indent", "separators", "sort_keys":
		default:
			return nil, fmt.Errorf("tojson() got an unexpected keyword argument '%s'", k)
		}
	}
	if len(args) > 4 {
		return nil, fmt.Errorf("tojson() takes from 1 to 5 positional arguments but %d were given", len(args)+1)
	}
	ascii, err := truth(param(args, kwargs, 0, "ensure_ascii", false))
	if err != nil {
		return nil, err
	}
	o := pyval.JSONOptions{Indent: -1, ASCII: ascii, Default: notJSON}
	switch x := param(args, kwargs, 1, "indent", nil).(type) {
	case nil:
	case int64:
		o.Indent = int(max(x, 0))
	case bool:
		o.Indent = int(boolToInt(x))
	default:
		return nil, fmt.Errorf("tojson: indent must be an int or None, not %s", typeName(x))
	}
	switch x := param(args, kwargs, 2, "separators", nil).(type) {
	case nil:
	case []any, tuple:
		seps, _ := iterate(r, x)
		if len(seps) != 2 {
			return nil, fmt.Errorf("too many values to unpack (expected 2)")
		}
		item, ok1 := seps[0].(string)
		key, ok2 := seps[1].(string)
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("tojson: separators must be two strings")
		}
		// "" is json.dumps' empty separator, which the options would
		// read as the default: a zero-width stand-in is not possible,
		// so an empty separator is refused.
		if item == "" || key == "" {
			return nil, fmt.Errorf("tojson: empty separators are not supported")
		}
		o.ItemSep, o.KeySep = item, key
	default:
		return nil, fmt.Errorf("tojson: separators must be a tuple of two strings")
	}
	if o.SortKeys, err = truth(param(args, kwargs, 3, "sort_keys", false)); err != nil {
		return nil, err
	}
	j, err := jsonValue(r, v)
	if err != nil {
		return nil, err
	}
	return pyval.JSON(j, o)
}

// jsonValue is v with its dicts as json.dumps walks them: in their
// order, keys converted to strings.
func jsonValue(r *renderer, v any) (any, error) {
	switch x := v.(type) {
	case map[string]any:
		keys := r.keys(x)
		d := &orderedDict{keys: keys, vals: make([]any, len(keys))}
		for i, k := range keys {
			e, err := jsonValue(r, x[k])
			if err != nil {
				return nil, err
			}
			d.vals[i] = e
		}
		return d, nil
	case *keyedDict:
		d, err := x.jsonDict()
		if err != nil {
			return nil, err
		}
		for i := range d.vals {
			if d.vals[i], err = jsonValue(r, d.vals[i]); err != nil {
				return nil, err
			}
		}
		return d, nil
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			var err error
			if out[i], err = jsonValue(r, e); err != nil {
				return nil, err
			}
		}
		return out, nil
	case tuple:
		return jsonValue(r, []any(x))
	case *namespace:
		return nil, fmt.Errorf("Object of type Namespace is not JSON serializable")
	}
	return v, nil
}
