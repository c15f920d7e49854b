package chat

import (
	"errors"
	"fmt"

	"github.com/lmeval/lmeval/python/jinja"
)

// A TemplateError is an error jinja2 raises as a TemplateError (or one of
// its subclasses): raise_exception, an undefined variable used, a syntax
// error. lm-eval's HF backend (Apply) retries without the system messages
// on these, and only these.
type TemplateError struct{ Err error }

func (e *TemplateError) Error() string { return "chat template: " + e.Err.Error() }
func (e *TemplateError) Unwrap() error { return e.Err }

// RaisedError is what a template's raise_exception(message) raises (a
// TemplateError in transformers); Msg is the template's message.
type RaisedError struct{ Msg string }

func (e *RaisedError) Error() string { return e.Msg }

// A PythonError is any other exception transformers raises: its own
// checks (ValueError: an empty conversation, a final message it cannot
// continue) and Python's errors inside the template (TypeError, ...).
// lm-eval does not catch these: the run stops.
type PythonError struct {
	Type string // the Python exception class: ValueError, TypeError, ...
	Msg  string
	Err  error // the renderer's error, when it came from the template
}

func (e *PythonError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("chat template: %s: %v", e.Type, e.Err)
	}
	return fmt.Sprintf("chat template: %s: %s", e.Type, e.Msg)
}

func (e *PythonError) Unwrap() error { return e.Err }

func valueError(msg string) error { return &PythonError{Type: "ValueError", Msg: msg} }

// classify sorts a rendering error into jinja2's TemplateError family or
// another Python exception.
func classify(err error) error {
	var pe *PythonError
	if errors.As(err, &pe) {
		return pe
	}
	var re *RaisedError
	if errors.As(err, &re) || jinja.IsTemplateError(err) {
		return &TemplateError{Err: err}
	}
	return &PythonError{Type: "Exception", Err: err}
}
