package results

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// OrderedMap is a JSON object that keeps its keys in insertion order, as
// Python dicts (and so lm-eval's results files) do.
type OrderedMap[V any] struct {
	keys []string
	m    map[string]V
}

// NewOrderedMap returns an empty map.
func NewOrderedMap[V any]() *OrderedMap[V] { return &OrderedMap[V]{m: map[string]V{}} }

// Set adds or replaces key; a new key goes last.
func (o *OrderedMap[V]) Set(key string, v V) {
	if o.m == nil {
		o.m = map[string]V{}
	}
	if _, ok := o.m[key]; !ok {
		o.keys = append(o.keys, key)
	}
	o.m[key] = v
}

// Get returns key's value.
func (o *OrderedMap[V]) Get(key string) (V, bool) {
	v, ok := o.m[key]
	return v, ok
}

// Delete removes key.
func (o *OrderedMap[V]) Delete(key string) {
	if _, ok := o.m[key]; !ok {
		return
	}
	delete(o.m, key)
	for i, k := range o.keys {
		if k == key {
			o.keys = append(o.keys[:i:i], o.keys[i+1:]...)
			break
		}
	}
}

// Keys returns the keys in order.
func (o *OrderedMap[V]) Keys() []string { return append([]string(nil), o.keys...) }

// Len is the number of keys.
func (o *OrderedMap[V]) Len() int { return len(o.keys) }

// MarshalJSON writes the keys in order.
func (o *OrderedMap[V]) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, err := marshal(k)
		if err != nil {
			return nil, err
		}
		b.Write(kb)
		b.WriteByte(':')
		vb, err := marshal(o.m[k])
		if err != nil {
			return nil, fmt.Errorf("key %q: %w", k, err)
		}
		b.Write(vb)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// marshal is json.Marshal without HTML escaping (Python's json leaves <, >
// and & alone).
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// UnmarshalJSON reads an object, keeping its key order.
func (o *OrderedMap[V]) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	t, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := t.(json.Delim); !ok || d != '{' {
		return fmt.Errorf("want a JSON object")
	}
	o.keys, o.m = nil, map[string]V{}
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return err
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return err
		}
		var v V
		if err := unmarshalValue(raw, &v); err != nil {
			return fmt.Errorf("key %q: %w", kt, err)
		}
		o.Set(kt.(string), v)
	}
	_, err = dec.Token()
	return err
}

// unmarshalValue decodes numbers of untyped values as float64, except
// integers, which stay int64 (n-shot, sizes).
func unmarshalValue[V any](raw json.RawMessage, v *V) error {
	if p, ok := any(v).(*any); ok {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		var x any
		if err := dec.Decode(&x); err != nil {
			return err
		}
		*p = fromNumbers(x)
		return nil
	}
	return json.Unmarshal(raw, v)
}

func fromNumbers(x any) any {
	switch t := x.(type) {
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return i
		}
		f, _ := t.Float64()
		return f
	case []any:
		for i := range t {
			t[i] = fromNumbers(t[i])
		}
	case map[string]any:
		for k := range t {
			t[k] = fromNumbers(t[k])
		}
	}
	return x
}
