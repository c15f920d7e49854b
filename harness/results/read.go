package results

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// CleanPyJSON turns what Python's json module writes into JSON: the bare
// tokens NaN, Infinity and -Infinity (outside strings) become null. Other
// bytes are kept.
func CleanPyJSON(data []byte) []byte {
	if !bytes.Contains(data, []byte("NaN")) && !bytes.Contains(data, []byte("Infinity")) {
		return data
	}
	var out bytes.Buffer
	inStr, esc := false, false
	for i := 0; i < len(data); i++ {
		c := data[i]
		if inStr {
			out.WriteByte(c)
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				inStr = false
			}
			continue
		}
		switch {
		case c == '"':
			inStr = true
		case bytes.HasPrefix(data[i:], []byte("NaN")):
			out.WriteString("null")
			i += len("NaN") - 1
			continue
		case bytes.HasPrefix(data[i:], []byte("-Infinity")):
			out.WriteString("null")
			i += len("-Infinity") - 1
			continue
		case bytes.HasPrefix(data[i:], []byte("Infinity")):
			out.WriteString("null")
			i += len("Infinity") - 1
			continue
		}
		out.WriteByte(c)
	}
	return out.Bytes()
}

// sampleRecord is one line of a samples file as lm-eval writes it.
type sampleRecord struct {
	DocID         *int            `json:"doc_id"`
	Doc           json.RawMessage `json:"doc"`
	Target        any             `json:"target"`
	Arguments     json.RawMessage `json:"arguments"`
	Resps         []any           `json:"resps"`
	FilteredResps []any           `json:"filtered_resps"`
	Filter        string          `json:"filter"`
	Metrics       []string        `json:"metrics"`
	DocHash       string          `json:"doc_hash"`
	PromptHash    string          `json:"prompt_hash"`
	TargetHash    string          `json:"target_hash"`
}

// ReadSamples reads a samples_<task>_*.jsonl file written by lmeval or
// lm-eval: one Sample per line, with the document (its keys in order),
// arguments ({"gen_args_i": {"arg_j": ...}} back to lists), responses,
// filter, hashes and the metric values named by the line's "metrics"
// list (numbers as float64 or int64, booleans, lists; NaN and infinities,
// which Python writes as bare tokens, as nil). Errors name the line.
func ReadSamples(r io.Reader) ([]*Sample, error) {
	br := bufio.NewReaderSize(r, 1<<20)
	var out []*Sample
	for line := 1; ; line++ {
		data, err := br.ReadBytes('\n')
		if len(bytes.TrimSpace(data)) > 0 {
			s, perr := parseSample(CleanPyJSON(data))
			if perr != nil {
				return out, fmt.Errorf("line %d: %w", line, perr)
			}
			out = append(out, s)
		}
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return out, fmt.Errorf("line %d: %w", line, err)
		}
	}
}

func parseSample(data []byte) (*Sample, error) {
	var rec sampleRecord
	if err := json.Unmarshal(data, &rec); err != nil {
		return nil, err
	}
	if rec.DocID == nil {
		return nil, errors.New("no doc_id")
	}
	var all OrderedMap[any]
	if err := all.UnmarshalJSON(data); err != nil {
		return nil, err
	}
	s := &Sample{DocID: *rec.DocID, Filter: rec.Filter, DocHash: rec.DocHash, PromptHash: rec.PromptHash,
		TargetHash: rec.TargetHash, Target: rec.Target, Metrics: NewOrderedMap[any]()}
	if len(rec.Doc) > 0 && string(rec.Doc) != "null" {
		doc := NewOrderedMap[any]()
		if err := doc.UnmarshalJSON(rec.Doc); err != nil {
			// A document that is not an object (lm-eval allows any value).
			var v any
			if err := unmarshalValue(rec.Doc, &v); err != nil {
				return nil, fmt.Errorf("doc: %w", err)
			}
			s.Doc = v
		} else {
			s.Doc = doc
		}
	}
	if len(rec.Arguments) > 0 && string(rec.Arguments) != "null" {
		args, err := readArguments(rec.Arguments)
		if err != nil {
			return nil, fmt.Errorf("arguments: %w", err)
		}
		s.Arguments = args
	}
	for _, r := range rec.Resps {
		if l, ok := r.([]any); ok {
			s.Resps = append(s.Resps, l)
		} else {
			s.Resps = append(s.Resps, []any{r})
		}
	}
	s.FilteredResps = rec.FilteredResps
	for _, name := range rec.Metrics {
		v, ok := all.Get(name)
		if !ok {
			return nil, fmt.Errorf("metric %q is listed but has no value", name)
		}
		s.Metrics.Set(name, v)
	}
	return s, nil
}

// readArguments turns {"gen_args_0": {"arg_0": ..., "arg_1": ...}, ...}
// back into lists, in index order.
func readArguments(raw json.RawMessage) ([][]any, error) {
	var m map[string]map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, err
	}
	index := func(key, prefix string) (int, error) {
		i, err := strconv.Atoi(strings.TrimPrefix(key, prefix))
		if err != nil || !strings.HasPrefix(key, prefix) {
			return 0, fmt.Errorf("unexpected key %q", key)
		}
		return i, nil
	}
	type pos struct {
		i    int
		args map[string]any
	}
	var reqs []pos
	for k, a := range m {
		i, err := index(k, "gen_args_")
		if err != nil {
			return nil, err
		}
		reqs = append(reqs, pos{i, a})
	}
	sort.Slice(reqs, func(a, b int) bool { return reqs[a].i < reqs[b].i })
	out := make([][]any, len(reqs))
	for n, r := range reqs {
		vals := make([]any, len(r.args))
		for k, v := range r.args {
			j, err := index(k, "arg_")
			if err != nil || j >= len(vals) {
				return nil, fmt.Errorf("unexpected key %q", k)
			}
			vals[j] = v
		}
		out[n] = vals
	}
	return out, nil
}
