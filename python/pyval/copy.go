package pyval

// DeepCopy copies a JSON-like value (maps of string keys and lists, nested
// to any depth) as Python's copy.deepcopy would, so that the copy can be
// changed without touching the original. Other values are shared as they
// are: strings and numbers are immutable.
func DeepCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = DeepCopy(e)
		}
		return m
	case []any:
		l := make([]any, len(x))
		for i, e := range x {
			l[i] = DeepCopy(e)
		}
		return l
	}
	return v
}
