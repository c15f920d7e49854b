// Package xwinograd ports lm_eval/tasks/xwinograd/utils.py: winogrande's
// "multiple input" form (the sentence up to the blank, completed by each
// option, is the context; the rest of the sentence is the target).
package xwinograd

import (
	"fmt"
	"strings"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/pydoc"
	"github.com/lmeval/lmeval/ports/internal/pyfn"
	"github.com/lmeval/lmeval/python/pyre"
	"github.com/lmeval/lmeval/python/pyval"
)

// DocToText is doc_to_text: the index of the right option.
func DocToText(doc task.Doc) (any, error) {
	a, err := pydoc.Field(doc, "answer")
	if err != nil {
		return nil, err
	}
	switch a {
	case "1":
		return 0, nil
	case "2":
		return 1, nil
	}
	return nil, fmt.Errorf("KeyError: %s", pyval.Repr(a))
}

// Blank is sentence.index("_") in code points, a ValueError when absent.
func Blank(sentence string) (int, error) {
	i := strings.Index(sentence, "_")
	if i < 0 {
		return 0, fmt.Errorf("ValueError: substring not found")
	}
	return pyfn.Len(sentence[:i]), nil
}

// DocToTarget is doc_to_target: the sentence after the blank, stripped.
func DocToTarget(doc task.Doc) (any, error) {
	s, err := pyfn.Str(doc, "sentence")
	if err != nil {
		return nil, err
	}
	i, err := Blank(s)
	if err != nil {
		return nil, err
	}
	return pyre.Strip(pyfn.Slice(s, i+1, nil)), nil
}

// DocToChoice is doc_to_choice: the sentence up to the blank with each
// option.
func DocToChoice(doc task.Doc) (any, error) {
	s, err := pyfn.Str(doc, "sentence")
	if err != nil {
		return nil, err
	}
	i, err := Blank(s)
	if err != nil {
		return nil, err
	}
	out := make([]string, 2)
	for j, k := range []string{"option1", "option2"} {
		o, err := pyfn.Str(doc, k)
		if err != nil {
			return nil, err
		}
		out[j] = pyfn.Slice(s, 0, &i) + o
	}
	return out, nil
}

func init() {
	const f = "xwinograd/utils.py"
	task.RegisterDocFunc(task.Helper{File: f, Function: "doc_to_text",
		SHA256: "51b22ef18f05f0123dc0c883741c2a3bd75555426ca606d7eee3222c63d9d764"}, DocToText)
	task.RegisterDocFunc(task.Helper{File: f, Function: "doc_to_target",
		SHA256: "2957c9e3ec4427728edb339baa4607b902f62624320f68a067ed0cb4ea08f467"}, DocToTarget)
	task.RegisterDocFunc(task.Helper{File: f, Function: "doc_to_choice",
		SHA256: "e8831c5ab2d435375333bfb1ac4a31e0cfc1c9108cc38c8a49a5fac26376827d"}, DocToChoice)
}
