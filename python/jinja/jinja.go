// Package jinja renders lm-eval's Jinja templates (doc_to_text, doc_to_target,
// doc_to_choice, description, gen_prefix, chat templates) exactly as Python's
// Jinja2 renders them in lm-eval, whose environment is
// Environment(undefined=StrictUndefined, keep_trailing_newline=True) with a
// regex_replace filter.
//
// Templates are lexed and their expressions parsed by gonja v2; the
// statements are parsed and everything is evaluated here with Python's
// semantics: str/list/dict methods, Python's repr when a list or None is
// printed, Python's int/float arithmetic and float formatting, and
// StrictUndefined errors that name the missing variable.
package jinja

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/lmeval/lmeval/python/pyval"
	"github.com/nikolalohinski/gonja/v2/config"
)

// Env is a template environment configured like lm-eval's Jinja2
// environment. It is safe for concurrent use; compiled templates are cached
// by source text, so rendering the same template for millions of documents
// parses it once.
type Env struct {
	cfg     *config.Config
	lenient bool   // jinja2.Undefined instead of StrictUndefined
	syntax  syntax // extensions' tags
	hf      bool   // transformers' chat templates: its tojson, its namespace
	mu      sync.RWMutex
	globals map[string]any
	cache   sync.Map // source -> *compiled
}

type compiled struct {
	body []node
	err  error
}

// New returns an environment equivalent to lm-eval's
// Environment(undefined=StrictUndefined, keep_trailing_newline=True) with the
// regex_replace filter. Options change that configuration, for example to
// Hugging Face's chat-template environment.
func New(opts ...Option) *Env {
	cfg := config.New()
	cfg.StrictUndefined = true
	cfg.KeepTrailingNewline = true
	e := &Env{cfg: cfg, globals: globals()}
	for _, o := range opts {
		o(e)
	}
	return e
}

// An Option configures an Env like a jinja2.Environment argument.
type Option func(*Env)

// TrimBlocks removes the first newline after a block tag (trim_blocks=True).
func TrimBlocks() Option { return func(e *Env) { e.cfg.TrimBlocks = true } }

// LstripBlocks strips spaces and tabs from the start of a line up to a block
// tag (lstrip_blocks=True).
func LstripBlocks() Option { return func(e *Env) { e.cfg.LeftStripBlocks = true } }

// LenientUndefined uses jinja2.Undefined instead of StrictUndefined: an
// undefined value prints as "", is false and iterates as empty; only
// attribute access, calls and arithmetic on it fail.
func LenientUndefined() Option {
	return func(e *Env) {
		e.lenient = true
		e.cfg.StrictUndefined = false
	}
}

// LoopControls enables {% break %} and {% continue %} (jinja2.ext.loopcontrols).
func LoopControls() Option { return func(e *Env) { e.syntax.loopControls = true } }

// GenerationTag accepts transformers' {% generation %} ... {% endgeneration %}
// (its AssistantTracker extension), which renders its body as it is.
func GenerationTag() Option { return func(e *Env) { e.syntax.generation = true } }

// DropTrailingNewline removes a single trailing newline of the template, as
// Jinja2 does by default (keep_trailing_newline=False).
func DropTrailingNewline() Option { return func(e *Env) { e.cfg.KeepTrailingNewline = false } }

// HFChatTemplate configures the environment transformers renders chat
// templates in: ImmutableSandboxedEnvironment(trim_blocks=True,
// lstrip_blocks=True, extensions=[AssistantTracker, loopcontrols]) with the
// default Undefined, and its tojson filter (json.dumps with
// ensure_ascii=False, indent, separators and sort_keys; dicts in their
// order, see RenderColumns).
// Its namespace refuses attributes whose names start with an underscore
// (transformers' TemplateNamespace). Register raise_exception (and
// strftime_now if templates use it) with RegisterFunc.
func HFChatTemplate() Option {
	return func(e *Env) {
		for _, o := range []Option{TrimBlocks(), LstripBlocks(), LenientUndefined(), LoopControls(), GenerationTag(), DropTrailingNewline()} {
			o(e)
		}
		e.hf = true
		e.globals["namespace"] = callable(sandboxedNamespace)
	}
}

// RegisterFunc adds a global function, for example raise_exception for chat
// templates. fn is either func(args []any, kwargs map[string]any) (any, error),
// which receives template values (string, int64, float64, bool, nil, []any,
// map[string]any), or any other Go function, whose arguments are converted
// from template values and whose optional trailing error is raised.
func (e *Env) RegisterFunc(name string, fn any) {
	e.mu.Lock()
	defer e.mu.Unlock()
	g := make(map[string]any, len(e.globals)+1)
	for k, v := range e.globals {
		g[k] = v
	}
	g[name] = norm(fn)
	e.globals = g
}

// Compile parses src (and caches it); it reports syntax errors.
func (e *Env) Compile(src string) error {
	_, err := e.compile(src)
	return err
}

func (e *Env) compile(src string) ([]node, error) {
	if c, ok := e.cache.Load(src); ok {
		c := c.(*compiled)
		return c.body, c.err
	}
	body, err := parseTemplateSafe(src, e.cfg, e.syntax)
	if err != nil {
		err = fmt.Errorf("jinja: parse %q: %w", abbreviate(src), templateError{err})
	}
	e.cache.Store(src, &compiled{body, err})
	return body, err
}

// parseTemplateSafe turns a panic inside gonja's lexer or parser into an
// error: templates come from user YAML. It refuses invalid UTF-8, which
// Jinja2 never sees (its templates are str) and on which gonja's lexer can
// loop forever.
func parseTemplateSafe(src string, cfg *config.Config, syn syntax) (body []node, err error) {
	if !utf8.ValidString(src) {
		return nil, errors.New("template is not valid UTF-8")
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("parser failure: %v", r)
		}
	}()
	return parseTemplate(src, cfg, syn)
}

func (e *Env) scope(vars map[string]any) *scope {
	e.mu.RLock()
	g := e.globals
	e.mu.RUnlock()
	root := &scope{vars: g}
	// The document is read in place (values are normalized as they are
	// looked up); template assignments go to a scope above it.
	doc := &scope{vars: vars, parent: root}
	return &scope{vars: make(map[string]any, 2), parent: doc}
}

// Render renders src with vars as the template's variables. Its dicts
// iterate (and print) with their keys sorted, a map having no order; see
// RenderColumns.
func (e *Env) Render(src string, vars map[string]any) (string, error) {
	return e.RenderColumns(src, vars, nil)
}

// RenderColumns is Render for a document of a dataset whose key order cols
// gives (pyval.Columns: the columns and the fields of struct columns):
// the document's dicts iterate, and print, in that order, as the Python
// dicts of datasets' rows do (`{{ answer|join(',') }}` over a struct
// column yields its fields in the schema's order). cols nil: sorted.
func (e *Env) RenderColumns(src string, vars map[string]any, cols *pyval.Columns) (string, error) {
	body, err := e.compile(src)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	r := newRenderer(e, vars, cols)
	if err := safeRun(func() error { return r.render(&b, body, e.scope(vars)) }); err != nil {
		return "", fmt.Errorf("jinja: render %q: %w", abbreviate(src), err)
	}
	return b.String(), nil
}

func safeRun(f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("internal error: %v", r)
		}
	}()
	return f()
}

// Eval evaluates a single Jinja expression (without braces) and returns its
// value as a Go value: string, int64, float64, bool, nil, []any (lists and
// tuples) or map[string]any.
func (e *Env) Eval(expr string, vars map[string]any) (any, error) {
	src := e.cfg.VariableStartString + " " + expr + " " + e.cfg.VariableEndString
	body, err := e.compile(src)
	if err != nil {
		return nil, err
	}
	out, ok := singleOutput(body)
	if !ok {
		return nil, fmt.Errorf("jinja: %q is not a single expression", abbreviate(expr))
	}
	v, err := e.evalNode(out, vars, nil)
	if err != nil {
		return nil, fmt.Errorf("jinja: eval %q: %w", abbreviate(expr), err)
	}
	return v, nil
}

func singleOutput(body []node) (*outputNode, bool) {
	if len(body) != 1 {
		return nil, false
	}
	out, ok := body[0].(*outputNode)
	return out, ok
}

func (e *Env) evalNode(out *outputNode, vars map[string]any, cols *pyval.Columns) (any, error) {
	var v any
	r := newRenderer(e, vars, cols)
	err := safeRun(func() error {
		var err error
		v, err = r.eval(out.expr, e.scope(vars))
		if err != nil {
			return err
		}
		// An undefined value, also inside a list or dict, has no Go
		// equivalent: report it by name.
		return findUndefined(v)
	})
	if err != nil {
		return nil, err
	}
	return toGo(v), nil
}

func findUndefined(v any) error {
	switch x := v.(type) {
	case *undefined:
		return x.err()
	case []any:
		for _, e := range x {
			if err := findUndefined(e); err != nil {
				return err
			}
		}
	case tuple:
		for _, e := range x {
			if err := findUndefined(e); err != nil {
				return err
			}
		}
	case map[string]any:
		for _, e := range x {
			if err := findUndefined(e); err != nil {
				return err
			}
		}
	}
	return nil
}

// ErrTemplate is wrapped by the errors jinja2 raises as a TemplateError
// or one of its subclasses: syntax errors, sandbox violations, unknown
// filters and tests; undefined values wrap ErrUndefined (see
// IsTemplateError). Any other error is one of Python's own exceptions
// raised inside the template (TypeError, ValueError, ...), or a Go
// function's.
var ErrTemplate = errors.New("template error")

// templateError marks err as one of jinja2's TemplateErrors.
type templateError struct{ err error }

func (e templateError) Error() string   { return e.err.Error() }
func (e templateError) Unwrap() []error { return []error{e.err, ErrTemplate} }

// IsTemplateError reports whether err is one jinja2 raises as a
// TemplateError (transformers' raise_exception aside, which its caller
// defines): lm-eval's HF backend retries a chat template without the
// system role on these.
func IsTemplateError(err error) bool {
	return errors.Is(err, ErrTemplate) || errors.Is(err, ErrUndefined)
}

// ErrNotLiteral is returned by RenderValue when the rendered text is not a
// Python literal (lm-eval's ast.literal_eval would raise).
var ErrNotLiteral = errors.New("not a Python literal")

// RenderValue gives what lm-eval computes for a templated doc_to_choice:
// ast.literal_eval(render(src, vars)). The result is a Go value ([]any for
// lists and tuples). When src is a single {{ expression }} whose value is a
// list of strings and numbers, that list is returned directly: it is what
// literal_eval of its rendering gives, without the round trip.
func (e *Env) RenderValue(src string, vars map[string]any) (any, error) {
	return e.RenderValueColumns(src, vars, nil)
}

// RenderValueColumns is RenderValue with the document's key order (see
// RenderColumns).
func (e *Env) RenderValueColumns(src string, vars map[string]any, cols *pyval.Columns) (any, error) {
	body, err := e.compile(src)
	if err != nil {
		return nil, err
	}
	if out, ok := singleOutput(body); ok {
		v, err := e.evalNode(out, vars, cols)
		if err != nil {
			return nil, fmt.Errorf("jinja: render %q: %w", abbreviate(src), err)
		}
		if l, ok := v.([]any); ok && literalList(l) {
			return l, nil
		}
	}
	s, err := e.RenderColumns(src, vars, cols)
	if err != nil {
		return nil, err
	}
	v, err := ParseLiteral(s)
	if err != nil {
		return nil, fmt.Errorf("jinja: value of %q: %w", abbreviate(src), err)
	}
	return v, nil
}

// literalList reports whether repr(l) parses back to l: strings, ints,
// finite floats, bools and None only.
func literalList(l []any) bool {
	for _, v := range l {
		switch x := v.(type) {
		case string, int64, bool, nil:
		case float64:
			if x != x || x > 1.7976931348623157e308 || x < -1.7976931348623157e308 {
				return false
			}
		default:
			return false
		}
	}
	return true
}

func abbreviate(s string) string {
	const max = 80
	if len(s) <= max {
		return s
	}
	return s[:max] + "..."
}
