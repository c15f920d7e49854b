package config

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/lmeval/lmeval/python/pyval"
)

// SplitTopLevel splits s on commas outside brackets, braces, parentheses
// and quotes, as lm-eval's split_top_level: a quote opens a span only at the
// start of a token (so "don't" stays literal) and only when it has a partner
// later in the string. Empty parts are dropped.
func SplitTopLevel(s string) []string {
	var parts []string
	var buf strings.Builder
	depth := 0
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case (c == '"' || c == '\'') && opensQuote(s, i):
			quote = c
		case c == '[' || c == '(' || c == '{':
			depth++
		case c == ']' || c == ')' || c == '}':
			depth = max(depth-1, 0)
		case c == ',' && depth == 0:
			if buf.Len() > 0 {
				parts = append(parts, buf.String())
			}
			buf.Reset()
			continue
		}
		buf.WriteByte(c)
	}
	if buf.Len() > 0 {
		parts = append(parts, buf.String())
	}
	return parts
}

func opensQuote(s string, i int) bool {
	if i > 0 && !strings.ContainsRune("=,[({: \t", rune(s[i-1])) {
		return false
	}
	return strings.IndexByte(s[i+1:], s[i]) >= 0
}

// ParseKeyValues parses "k=v,k2=v2" (or a JSON object) into typed values as
// lm-eval's key_val_to_dict: true/false become bools, numbers numbers, and
// Python literals (lists, quoted strings, dicts) their values; anything else
// stays a string.
func ParseKeyValues(s string) (map[string]any, error) {
	out := map[string]any{}
	t := strings.TrimSpace(s)
	if t == "" {
		return out, nil
	}
	if strings.HasPrefix(t, "{") {
		// Numbers keep Python's json.loads types: 1 an int, 1.5 a float.
		dec := json.NewDecoder(strings.NewReader(t))
		dec.UseNumber()
		if err := dec.Decode(&out); err != nil {
			return nil, fmt.Errorf("invalid JSON object %q (use double quotes): %w", t, err)
		}
		if dec.More() {
			return nil, fmt.Errorf("invalid JSON object %q: text after the object", t)
		}
		return jsonNumbers(out).(map[string]any), nil
	}
	pairs, err := keyValuePairs(t)
	if err != nil {
		return nil, err
	}
	for _, p := range pairs {
		out[p[0]] = CLIValue(p[1])
	}
	return out, nil
}

// jsonNumbers replaces json.Numbers in v: integers become int64 (as the
// k=v form gives), the rest float64.
func jsonNumbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i
		}
		f, _ := x.Float64()
		return f
	case map[string]any:
		for k, e := range x {
			x[k] = jsonNumbers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = jsonNumbers(e)
		}
	}
	return v
}

// keyValuePairs splits "k=v,k2=v2" into keys (trimmed, not empty) and
// values (as written).
func keyValuePairs(s string) ([][2]string, error) {
	var pairs [][2]string
	for _, item := range SplitTopLevel(s) {
		k, v, ok := strings.Cut(item, "=")
		if !ok {
			return nil, fmt.Errorf("expected key=value, got %q", item)
		}
		k = strings.TrimSpace(k)
		if k == "" {
			return nil, fmt.Errorf("expected key=value, got %q (empty key)", item)
		}
		pairs = append(pairs, [2]string{k, v})
	}
	return pairs, nil
}

// CLIValue converts one command-line value as lm-eval's
// handle_cli_value_string does.
func CLIValue(s string) any {
	switch strings.ToLower(s) {
	case "true":
		return true
	case "false":
		return false
	}
	if i, err := strconv.ParseInt(strings.TrimSpace(strings.ReplaceAll(s, "_", "")), 10, 64); err == nil && s != "" {
		return i
	}
	if f, err := strconv.ParseFloat(strings.TrimSpace(s), 64); err == nil {
		return f
	}
	if v, err := pyval.LiteralEval(s); err == nil {
		return v
	}
	return s
}

// ArgString renders a typed value (from a YAML config file or a JSON
// object) as the string a backend's model_args receive: strings as
// themselves, numbers and booleans in Go's shortest form, lists and maps as
// JSON.
func ArgString(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case bool:
		return strconv.FormatBool(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case int:
		return strconv.Itoa(x)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case nil:
		return "None"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// ParseModelArgs parses one --model_args value ("k=v,k2=v2" or a JSON
// object) into backend arguments. Values keep their text, except that a
// quoted value loses its quotes, so pretrained="/a,b.gguf" passes a path
// containing a comma.
func ParseModelArgs(s string) (map[string]string, error) {
	out := map[string]string{}
	t := strings.TrimSpace(s)
	if t == "" {
		return out, nil
	}
	if strings.HasPrefix(t, "{") {
		m, err := ParseKeyValues(t)
		if err != nil {
			return nil, err
		}
		for k, v := range m {
			out[k] = ArgString(v)
		}
		return out, nil
	}
	pairs, err := keyValuePairs(urlList.ReplaceAllString(t, `$1"$2"`))
	if err != nil {
		return nil, err
	}
	for _, p := range pairs {
		k, v := p[0], p[1]
		if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
			if lit, err := pyval.LiteralEval(v); err == nil {
				if s, ok := lit.(string); ok {
					v = s
				}
			}
		}
		out[k] = v
	}
	return out, nil
}

// dictOrder is the order of m's keys as v (what asDict parsed) gives them:
// "k=v,..." strings and JSON objects in order, one after the other; a
// mapping, which has no order, sorted.
func dictOrder(v any, m map[string]any) []string {
	var out []string
	seen := map[string]bool{}
	add := func(k string) {
		if _, ok := m[k]; ok && !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	if ss, err := asStrings(v); err == nil {
		for _, s := range ss {
			t := strings.TrimSpace(s)
			if strings.HasPrefix(t, "{") {
				dec := json.NewDecoder(strings.NewReader(t))
				if tok, err := dec.Token(); err == nil && tok == json.Delim('{') {
					for dec.More() {
						kt, err := dec.Token()
						if err != nil {
							break
						}
						if k, ok := kt.(string); ok {
							add(k)
						}
						var skip json.RawMessage
						if dec.Decode(&skip) != nil {
							break
						}
					}
				}
				continue
			}
			if pairs, err := keyValuePairs(t); err == nil {
				for _, p := range pairs {
					add(p[0])
				}
			}
		}
	}
	rest := make([]string, 0, len(m))
	for k := range m {
		if !seen[k] {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	return append(out, rest...)
}
