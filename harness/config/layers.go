package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// EncodeLayers writes layers as JSON that DecodeLayers reads back into
// layers that resolve to the same settings: every value keeps its type
// (a float that happens to be whole, 0.0, stays a float, as gen_kwargs'
// temperature must for the samples to record 0.0), and a command line's
// values stay strings and lists of strings.
func EncodeLayers(layers []Layer) ([]byte, error) {
	type layerJSON struct {
		Source string         `json:"source"`
		Flags  bool           `json:"flags,omitempty"`
		Values map[string]any `json:"values"`
	}
	out := make([]layerJSON, len(layers))
	for i, l := range layers {
		v, err := typedJSON(l.Values)
		if err != nil {
			return nil, fmt.Errorf("settings from %s: %w", l.Source, err)
		}
		out[i] = layerJSON{Source: l.Source, Flags: l.Flags, Values: v.(map[string]any)}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// DecodeLayers reads EncodeLayers' JSON. It is read as YAML (JSON is
// YAML), so that numbers come back as a YAML file's do: int when written
// without a point, float64 with one.
func DecodeLayers(data []byte) ([]Layer, error) {
	var in []struct {
		Source string         `yaml:"source"`
		Flags  bool           `yaml:"flags"`
		Values map[string]any `yaml:"values"`
	}
	if err := yaml.Unmarshal(data, &in); err != nil {
		return nil, fmt.Errorf("recorded settings: %w", err)
	}
	out := make([]Layer, len(in))
	for i, l := range in {
		if l.Values == nil {
			l.Values = map[string]any{}
		}
		if l.Flags {
			// A command line's values are strings and lists of strings.
			for k, v := range l.Values {
				if list, ok := v.([]any); ok {
					ss := make([]string, len(list))
					for j, e := range list {
						s, ok := e.(string)
						if !ok {
							return nil, fmt.Errorf("recorded settings: %s: %s: item %d is %T, want a string", l.Source, k, j, e)
						}
						ss[j] = s
					}
					l.Values[k] = ss
				}
			}
		}
		out[i] = Layer{Source: l.Source, Flags: l.Flags, Values: l.Values}
	}
	return out, nil
}

// typedJSON copies a settings value for JSON, writing floats so that they
// read back as floats.
func typedJSON(v any) (any, error) {
	switch x := v.(type) {
	case nil, string, bool, int, int64, uint64:
		return x, nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("the number %v cannot be recorded", x)
		}
		s := strconv.FormatFloat(x, 'g', -1, 64)
		if !strings.ContainsAny(s, ".e") {
			s += ".0"
		}
		return json.RawMessage(s), nil
	case []string:
		return x, nil
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			c, err := typedJSON(e)
			if err != nil {
				return nil, err
			}
			out[i] = c
		}
		return out, nil
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			c, err := typedJSON(e)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", k, err)
			}
			out[k] = c
		}
		return out, nil
	}
	return nil, fmt.Errorf("a value of type %T cannot be recorded", v)
}
