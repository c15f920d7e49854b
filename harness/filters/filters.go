// Package filters post-processes model responses before metrics see them,
// as lm-evaluation-harness's filters do (lm_eval/filters): take_first,
// take_first_k, regex, multi_choice_regex, majority_vote, lowercase,
// uppercase, map, remove_whitespace, custom and identity, plus a registry for
// task-specific filters.
//
// A task's filter_list names pipelines; each pipeline runs its steps in order
// on every document's list of responses, independently of the other
// pipelines. A document's value is a list ([]any) until a step such as
// take_first reduces it to a single response.
package filters

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

// Filter is one pipeline step. Apply receives one value per document (a list
// of responses, []any, or a single response after take_first) and the
// documents, and returns the new values, one per document.
type Filter interface {
	Apply(resps []any, docs []map[string]any) ([]any, error)
}

// FilterFunc adapts a function to Filter.
type FilterFunc func(resps []any, docs []map[string]any) ([]any, error)

// Apply calls f.
func (f FilterFunc) Apply(resps []any, docs []map[string]any) ([]any, error) { return f(resps, docs) }

// Factory makes a filter from the keyword arguments of its filter_list entry
// (every key of the entry except "function").
type Factory func(args map[string]any) (Filter, error)

var (
	regMu     sync.RWMutex
	factories = map[string]Factory{}
	funcs     = map[string]FilterFunc{}
)

// Register adds a named filter; task-specific filters register themselves
// the same way as the built-in ones. It panics on a duplicate name.
func Register(name string, f Factory) {
	regMu.Lock()
	defer regMu.Unlock()
	if _, dup := factories[name]; dup {
		panic("filters: duplicate filter " + name)
	}
	factories[name] = f
}

// RegisterFunc names a Go function that the "custom" filter can call through
// its filter_fn argument (lm-eval passes a Python function via !function;
// here the task names a registered function).
func RegisterFunc(name string, fn FilterFunc) {
	regMu.Lock()
	defer regMu.Unlock()
	if _, dup := funcs[name]; dup {
		panic("filters: duplicate filter function " + name)
	}
	funcs[name] = fn
}

// Lookup returns the factory registered under name.
func Lookup(name string) (Factory, bool) {
	regMu.RLock()
	defer regMu.RUnlock()
	f, ok := factories[name]
	return f, ok
}

// Names lists the registered filters, sorted.
func Names() []string {
	regMu.RLock()
	defer regMu.RUnlock()
	names := make([]string, 0, len(factories))
	for n := range factories {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Spec is one filter_list entry of a task: a named pipeline of steps
// (harness/task parses the YAML into Specs when the task loads).
type Spec struct {
	Name  string
	Steps []Step
}

// Step is one entry of a pipeline's "filter" list.
type Step struct {
	Function string
	Args     map[string]any
	// Factory, when set, makes the step's filter instead of the registry:
	// a filter class of a task's Python (`function: !function
	// utils.WordSortFilter`), ported natively.
	Factory Factory
	// Func, when set, is the custom filter's filter_fn given as a native
	// port (`filter_fn: !function utils.f`); a string filter_fn names a
	// function registered with RegisterFunc, in Args.
	Func FilterFunc
}

// Pipeline is a named chain of filters (lm-eval's FilterEnsemble).
type Pipeline struct {
	Name  string
	Steps []Step
	impl  []Filter
}

// NewPipeline builds a pipeline, making each step's filter from the
// registry.
func NewPipeline(name string, steps []Step) (*Pipeline, error) {
	p := &Pipeline{Name: name, Steps: steps}
	for i, s := range steps {
		if s.Func != nil {
			if s.Function != "custom" {
				return nil, fmt.Errorf("filter pipeline %q, step %d (%s): filter_fn is an argument of the custom filter only", name, i+1, s.Function)
			}
			if err := checkArgs("custom", s.Args, "filter_fn"); err != nil {
				return nil, fmt.Errorf("filter pipeline %q, step %d (%s): %w", name, i+1, s.Function, err)
			}
			p.impl = append(p.impl, s.Func)
			continue
		}
		f, ok := s.Factory, s.Factory != nil
		if !ok {
			f, ok = Lookup(s.Function)
		}
		if !ok {
			return nil, fmt.Errorf("filter pipeline %q, step %d: unknown filter %q (known: %s)", name, i+1, s.Function, strings.Join(Names(), ", "))
		}
		args := s.Args
		if args == nil {
			args = map[string]any{}
		}
		impl, err := f(args)
		if err != nil {
			return nil, fmt.Errorf("filter pipeline %q, step %d (%s): %w", name, i+1, s.Function, err)
		}
		p.impl = append(p.impl, impl)
	}
	return p, nil
}

// Default is the pipeline a task without filter_list gets: "none", which
// takes each document's first response.
func Default() *Pipeline {
	p, err := NewPipeline("none", []Step{{Function: "take_first"}})
	if err != nil {
		panic(err)
	}
	return p
}

// Apply runs the pipeline on every document's responses and returns one
// filtered value per document.
func (p *Pipeline) Apply(resps [][]any, docs []map[string]any) ([]any, error) {
	if docs != nil && len(docs) != len(resps) {
		return nil, fmt.Errorf("filter pipeline %q: %d response lists for %d documents", p.Name, len(resps), len(docs))
	}
	cur := make([]any, len(resps))
	for i, r := range resps {
		cur[i] = r
	}
	for i, f := range p.impl {
		next, err := f.Apply(cur, docs)
		if err != nil {
			return nil, fmt.Errorf("filter pipeline %q, step %d (%s): %w", p.Name, i+1, p.Steps[i].Function, err)
		}
		if len(next) != len(cur) {
			return nil, fmt.Errorf("filter pipeline %q, step %d (%s): returned %d values for %d documents", p.Name, i+1, p.Steps[i].Function, len(next), len(cur))
		}
		cur = next
	}
	return cur, nil
}

// ApplyStrings is Apply for generated text.
func (p *Pipeline) ApplyStrings(resps [][]string, docs []map[string]any) ([]any, error) {
	in := make([][]any, len(resps))
	for i, r := range resps {
		in[i] = make([]any, len(r))
		for j, s := range r {
			in[i][j] = s
		}
	}
	return p.Apply(in, docs)
}

// list returns a document's value as a list of responses.
func list(v any, doc int) ([]any, error) {
	switch l := v.(type) {
	case []any:
		return l, nil
	case []string:
		out := make([]any, len(l))
		for i, s := range l {
			out[i] = s
		}
		return out, nil
	}
	return nil, fmt.Errorf("document %d: want a list of responses, got %T (did take_first run before this step?)", doc, v)
}

// perResponse applies fn to every response of every document.
func perResponse(resps []any, fn func(resp any, doc int) (any, error)) ([]any, error) {
	out := make([]any, len(resps))
	for i, v := range resps {
		l, err := list(v, i)
		if err != nil {
			return nil, err
		}
		res := make([]any, len(l))
		for j, r := range l {
			if res[j], err = fn(r, i); err != nil {
				return nil, err
			}
		}
		out[i] = res
	}
	return out, nil
}

func text(resp any, doc int) (string, error) {
	s, ok := resp.(string)
	if !ok {
		return "", fmt.Errorf("document %d: want a text response, got %T", doc, resp)
	}
	return s, nil
}
