// Package jinja renders lm-eval's Jinja templates (doc_to_text, doc_to_target,
// doc_to_choice, description, gen_prefix, chat templates) exactly as Python's
// Jinja2 renders them in lm-eval: StrictUndefined, keep_trailing_newline and
// the regex_replace filter, with Python's semantics for values.
//
// It is built on gonja v2's lexer, parser and environment, configured the way
// lm_eval/utils.py configures jinja2.Environment.
package jinja

import (
	"bytes"
	"fmt"
	"io"
	"sync"

	"github.com/nikolalohinski/gonja/v2/builtins"
	"github.com/nikolalohinski/gonja/v2/config"
	"github.com/nikolalohinski/gonja/v2/exec"
	"github.com/nikolalohinski/gonja/v2/loaders"
	"github.com/nikolalohinski/gonja/v2/nodes"
)

// Env is a template environment configured like lm-eval's Jinja2
// environment. It is safe for concurrent use; compiled templates are cached
// by source text.
type Env struct {
	cfg   *config.Config
	env   *exec.Environment
	mu    sync.Mutex // guards env.Context writes in RegisterFunc
	cache sync.Map   // source -> *exec.Template
	exprs sync.Map   // expression source -> nodes.Expression
}

// New returns an environment equivalent to lm-eval's
// Environment(undefined=StrictUndefined, keep_trailing_newline=True) with the
// regex_replace filter.
func New() *Env {
	cfg := config.New()
	cfg.StrictUndefined = true
	cfg.KeepTrailingNewline = true
	filters := exec.NewFilterSet(map[string]exec.FilterFunction{})
	filters.Update(builtins.Filters)
	filters.Register("regex_replace", regexReplaceFilter)
	tests := exec.NewTestSet(map[string]exec.TestFunction{})
	tests.Update(builtins.Tests)
	ctx := exec.EmptyContext().Update(builtins.GlobalFunctions).Update(builtins.GlobalVariables)
	e := &Env{
		cfg: cfg,
		env: &exec.Environment{
			Context:           ctx,
			Filters:           filters,
			Tests:             tests,
			ControlStructures: builtins.ControlStructures,
			Methods:           builtins.Methods,
		},
	}
	return e
}

// RegisterFunc adds a global function (for example raise_exception for chat
// templates). fn follows gonja's calling conventions: either
// func(*exec.VarArgs) (any, error), or a plain Go function whose parameters
// match the argument types.
func (e *Env) RegisterFunc(name string, fn any) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.env.Context.Set(name, fn)
}

// Compile parses src and caches the result; it reports syntax errors.
func (e *Env) Compile(src string) error {
	_, err := e.template(src)
	return err
}

func (e *Env) template(src string) (*exec.Template, error) {
	if t, ok := e.cache.Load(src); ok {
		return t.(*exec.Template), nil
	}
	t, err := exec.NewTemplate("template", e.cfg, sourceLoader(src), e.env)
	if err != nil {
		return nil, fmt.Errorf("jinja: parse %q: %w", abbreviate(src), err)
	}
	e.cache.Store(src, t)
	return t, nil
}

// Render renders src with vars as the template's variables.
func (e *Env) Render(src string, vars map[string]any) (string, error) {
	t, err := e.template(src)
	if err != nil {
		return "", err
	}
	out, err := t.ExecuteToString(exec.NewContext(copyVars(vars)))
	if err != nil {
		return "", fmt.Errorf("jinja: render %q: %w", abbreviate(src), err)
	}
	return out, nil
}

// Eval evaluates a single Jinja expression (without braces) and returns its
// value as a Go value: string, int64, float64, bool, nil, []any or
// map[string]any.
func (e *Env) Eval(expr string, vars map[string]any) (any, error) {
	node, err := e.expression(expr)
	if err != nil {
		return nil, err
	}
	ev := &exec.Evaluator{
		Config: e.cfg,
		Environment: &exec.Environment{
			Context:           e.env.Context.Inherit().Update(exec.NewContext(copyVars(vars))),
			Filters:           e.env.Filters,
			Tests:             e.env.Tests,
			ControlStructures: e.env.ControlStructures,
			Methods:           e.env.Methods,
		},
		Loader: sourceLoader(""),
	}
	v := ev.Eval(node)
	if v.IsError() {
		return nil, fmt.Errorf("jinja: eval %q: %w", abbreviate(expr), v.Interface().(error))
	}
	return v.ToGoSimpleType(false), nil
}

func (e *Env) expression(expr string) (nodes.Expression, error) {
	if n, ok := e.exprs.Load(expr); ok {
		return n.(nodes.Expression), nil
	}
	t, err := exec.NewTemplate("expression", e.cfg, sourceLoader(e.cfg.VariableStartString+" "+expr+" "+e.cfg.VariableEndString), e.env)
	if err != nil {
		return nil, fmt.Errorf("jinja: parse expression %q: %w", abbreviate(expr), err)
	}
	root := t.Root()
	if len(root.Nodes) != 1 {
		return nil, fmt.Errorf("jinja: %q is not a single expression", abbreviate(expr))
	}
	out, ok := root.Nodes[0].(*nodes.Output)
	if !ok || out.Condition != nil {
		return nil, fmt.Errorf("jinja: %q is not a single expression", abbreviate(expr))
	}
	e.exprs.Store(expr, out.Expression)
	return out.Expression, nil
}

func copyVars(vars map[string]any) map[string]any {
	m := make(map[string]any, len(vars))
	for k, v := range vars {
		m[k] = v
	}
	return m
}

func abbreviate(s string) string {
	const max = 80
	if len(s) <= max {
		return s
	}
	return s[:max] + "..."
}

// sourceLoader serves one template source; includes and imports are not
// supported (lm-eval uses a BaseLoader, which cannot load either).
type sourceLoader string

func (s sourceLoader) Read(path string) (io.Reader, error) {
	return bytes.NewReader([]byte(s)), nil
}

func (s sourceLoader) Resolve(path string) (string, error) { return path, nil }

func (s sourceLoader) Inherit(from string) (loaders.Loader, error) {
	return nil, fmt.Errorf("jinja: cannot load template %q: no loader", from)
}
