package results

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/lmeval/lmeval/python/pyval"
)

// Sample is one document's record in lm-eval's samples_<task>_*.jsonl: the
// document, target, request arguments, raw and filtered responses, the
// filter, the metric values, and the hashes lm-eval computes.
type Sample struct {
	DocID  int
	Doc    any // map[string]any or *OrderedMap[any] (dataset column order)
	Target any
	// Arguments holds each request's arguments (context, continuation or
	// generation kwargs); Resps each request's raw responses.
	Arguments     [][]any
	Resps         [][]any
	FilteredResps []any
	Filter        string
	Metrics       *OrderedMap[any] // metric name -> per-document value
	// Generations, for a reasoning model, are each request's whole
	// generations (reasoning trace included) with their token counts,
	// where Resps hold the answers filters and metrics saw: lmeval's
	// addition, written after lm-eval's keys.
	Generations [][]GenerationRecord
	// Hashes as lm-eval's hash_string: of json.dumps(doc, indent=2,
	// ensure_ascii=False), of the first request's first argument (the
	// prompt), and of str(target).
	DocHash, PromptHash, TargetHash string
}

// NewSample builds a sample record and computes its hashes.
func NewSample(docID int, doc, target any, arguments, resps [][]any, filtered []any, filter string, metrics *OrderedMap[any]) *Sample {
	s := &Sample{
		DocID: docID, Doc: doc, Target: target, Arguments: arguments, Resps: resps,
		FilteredResps: filtered, Filter: filter, Metrics: metrics,
	}
	if s.Metrics == nil {
		s.Metrics = NewOrderedMap[any]()
	}
	s.DocHash = HashString(pyJSON(doc, 2))
	prompt := ""
	if len(arguments) > 0 && len(arguments[0]) > 0 {
		prompt = pyval.Str(arguments[0][0])
	}
	s.PromptHash = HashString(prompt)
	s.TargetHash = HashString(pyval.Str(target))
	return s
}

// OrderDoc gives a document (and the dicts nested in it) the dataset's
// key order, as the row lm-eval logs has it; keys cols does not know
// follow, sorted. Lists are walked, so the structs of a list column take
// its fields' order.
func OrderDoc(doc map[string]any, cols *pyval.Columns) *OrderedMap[any] {
	out := NewOrderedMap[any]()
	for _, k := range cols.Keys(doc) {
		out.Set(k, orderValue(doc[k], cols.Field(k)))
	}
	return out
}

func orderValue(v any, cols *pyval.Columns) any {
	switch x := v.(type) {
	case map[string]any:
		return OrderDoc(x, cols)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = orderValue(e, cols)
		}
		return out
	}
	return v
}

// sanitize is lm-eval's sanitize_list: every leaf becomes str(leaf).
func sanitize(v any) any {
	switch x := v.(type) {
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = sanitize(e)
		}
		return out
	case [][]any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = sanitize(e)
		}
		return out
	case []string:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = e
		}
		return out
	}
	return pyval.Str(v)
}

// MarshalJSON writes the record as EvaluationTracker saves it: arguments
// as {"gen_args_i": {"arg_j": ...}}, responses sanitized to strings, the
// target as str(target), then the metric values at top level.
func (s *Sample) MarshalJSON() ([]byte, error) { return s.Record().MarshalJSON() }

// Record is the sample as the ordered object lm-eval writes.
func (s *Sample) Record() *OrderedMap[any] {
	args := NewOrderedMap[any]()
	for i, a := range s.Arguments {
		m := NewOrderedMap[any]()
		for j, x := range a {
			m.Set(fmt.Sprintf("arg_%d", j), jsonable(x))
		}
		args.Set(fmt.Sprintf("gen_args_%d", i), m)
	}
	names := make([]any, 0, s.Metrics.Len())
	for _, k := range s.Metrics.Keys() {
		names = append(names, k)
	}
	o := NewOrderedMap[any]()
	o.Set("doc_id", s.DocID)
	o.Set("doc", jsonable(s.Doc))
	o.Set("target", pyval.Str(s.Target))
	o.Set("arguments", args)
	o.Set("resps", sanitize(s.Resps))
	o.Set("filtered_resps", sanitize(s.FilteredResps))
	o.Set("filter", s.Filter)
	o.Set("metrics", names)
	o.Set("doc_hash", s.DocHash)
	o.Set("prompt_hash", s.PromptHash)
	o.Set("target_hash", s.TargetHash)
	for _, k := range s.Metrics.Keys() {
		v, _ := s.Metrics.Get(k)
		o.Set(k, jsonable(v))
	}
	if s.Generations != nil {
		o.Set("generations", generationsRecord(s.Generations))
	}
	return o
}

// generationsRecord is a sample's Generations as its record lists them.
func generationsRecord(gens [][]GenerationRecord) []any {
	out := make([]any, len(gens))
	for i, rs := range gens {
		l := make([]any, len(rs))
		for j, g := range rs {
			m := NewOrderedMap[any]()
			m.Set("text", g.Text)
			m.Set("tokens", g.Tokens)
			m.Set("thinking_tokens", g.ThinkingTokens)
			m.Set("budget_hit", g.BudgetHit)
			l[j] = m
		}
		out[i] = l
	}
	return out
}

// GenerationRecord is one whole generation of a sample (Generations),
// written as {"text", "tokens", "thinking_tokens", "budget_hit"}.
type GenerationRecord struct {
	Text           string
	Tokens         int
	ThinkingTokens int
	BudgetHit      bool
}

// jsonable converts float64s to Float (Python's float format) inside
// JSON-like values.
func jsonable(v any) any {
	switch x := v.(type) {
	case float64:
		return Float(x)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = jsonable(e)
		}
		return out
	case map[string]any:
		if x == nil {
			return x
		}
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = jsonable(e)
		}
		return out
	case *OrderedMap[any]:
		out := NewOrderedMap[any]()
		for _, k := range x.keys {
			out.Set(k, jsonable(x.m[k]))
		}
		return out
	}
	return v
}

// JSONLine is the sample as one line of a samples file, newline included,
// in Python's json.dumps(..., ensure_ascii=False) format.
func (s *Sample) JSONLine() []byte { return WriteSamples([]*Sample{s}) }

// SortKey orders a task's samples as lm-eval writes them: by filter (in the
// order filters first appear), then by doc_id.
func (s *Sample) SortKey() (filter string, docID int) { return s.Filter, s.DocID }

// recordKeys are the fields of a sample's record before its metrics.
var recordKeys = []string{"doc_id", "doc", "target", "arguments", "resps", "filtered_resps", "filter", "metrics", "doc_hash", "prompt_hash", "target_hash"}

// WriteSamples writes records as JSON lines, byte for byte as Python's
// json.dumps(sample, ensure_ascii=False) writes them: Record's object,
// written field by field without building it (a run writes a line per
// document and filter).
func WriteSamples(samples []*Sample) []byte {
	var b strings.Builder
	o := pyval.JSONOptions{Indent: -1, Default: handleNonSerializable}
	value := func(v any) { pyval.AppendJSON(&b, v, o) }
	for _, s := range samples {
		if slices.ContainsFunc(recordKeys, func(k string) bool { _, ok := s.Metrics.Get(k); return ok }) {
			// A metric named as a field replaces its value in place.
			b.WriteString(pyJSON(s.Record(), -1))
			b.WriteByte('\n')
			continue
		}
		b.WriteString(`{"doc_id": `)
		b.WriteString(strconv.Itoa(s.DocID))
		b.WriteString(`, "doc": `)
		value(s.Doc)
		b.WriteString(`, "target": `)
		value(pyval.Str(s.Target))
		b.WriteString(`, "arguments": {`)
		for i, a := range s.Arguments {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, `"gen_args_%d": {`, i)
			for j, x := range a {
				if j > 0 {
					b.WriteString(", ")
				}
				fmt.Fprintf(&b, `"arg_%d": `, j)
				value(x)
			}
			b.WriteByte('}')
		}
		b.WriteString(`}, "resps": `)
		value(sanitize(s.Resps))
		b.WriteString(`, "filtered_resps": `)
		value(sanitize(s.FilteredResps))
		b.WriteString(`, "filter": `)
		value(s.Filter)
		b.WriteString(`, "metrics": [`)
		for i, k := range s.Metrics.Keys() {
			if i > 0 {
				b.WriteString(", ")
			}
			value(k)
		}
		b.WriteString(`], "doc_hash": `)
		value(s.DocHash)
		b.WriteString(`, "prompt_hash": `)
		value(s.PromptHash)
		b.WriteString(`, "target_hash": `)
		value(s.TargetHash)
		for _, k := range s.Metrics.Keys() {
			b.WriteString(", ")
			value(k)
			b.WriteString(": ")
			v, _ := s.Metrics.Get(k)
			value(v)
		}
		if s.Generations != nil {
			b.WriteString(`, "generations": `)
			value(generationsRecord(s.Generations))
		}
		b.WriteString("}\n")
	}
	return []byte(b.String())
}
