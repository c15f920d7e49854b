// Package eus_reading ports lm_eval/tasks/eus_reading/utils.py (and
// eus_trivia's, whose doc_to_choice is the same source and whose
// doc_to_text is this one's without the passage): the question, the
// lettered candidates (at most four letters), and the letters as choices.
package eus_reading

import (
	"fmt"
	"strings"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/pydoc"
	"github.com/lmeval/lmeval/ports/internal/pyfn"
	"github.com/lmeval/lmeval/python/pyval"
)

var letters = []string{"A", "B", "C", "D"}

func candidates(doc task.Doc) ([]any, error) {
	c, err := pyfn.List(doc, "candidates")
	if err != nil {
		return nil, err
	}
	if len(c) < 2 {
		return nil, fmt.Errorf("ValueError: Invalid number of candidates")
	}
	return c, nil
}

// Choices is doc_to_choice: letters[:len(candidates)].
func Choices(doc task.Doc) (any, error) {
	c, err := candidates(doc)
	if err != nil {
		return nil, err
	}
	return letters[:min(len(c), len(letters))], nil
}

// Text is doc_to_text_context (withContext) or eus_trivia's doc_to_text.
func Text(doc task.Doc, withContext bool) (any, error) {
	c, err := candidates(doc)
	if err != nil {
		return nil, err
	}
	n := min(len(c), len(letters))
	lines := make([]string, n)
	for i := range n {
		lines[i] = letters[i] + ": " + pyval.Str(c[i])
	}
	q, err := pydoc.Field(doc, "question")
	if err != nil {
		return nil, err
	}
	out := "Galdera: " + pyval.Str(q) + "\n" + strings.Join(lines, "\n") + "\nErantzuna:"
	if withContext {
		ctx, err := pydoc.Field(doc, "context")
		if err != nil {
			return nil, err
		}
		out = "Pasartea: " + pyval.Str(ctx) + "\n\n" + out
	}
	return out, nil
}

func init() {
	task.RegisterDocFunc(task.Helper{File: "eus_reading/utils.py", Function: "doc_to_text_context",
		SHA256: "3d3f23a14e4c182c14a191b25a3d8744b9d26f79e4026e0ce89e79203935ecf1"}, func(d task.Doc) (any, error) { return Text(d, true) })
	task.RegisterDocFunc(task.Helper{File: "eus_reading/utils.py", Function: "doc_to_choice",
		SHA256: "ae8f97117295724d2de3bb059eb66dc825eb70bf4adaae453b93815677be7108"}, Choices)
	task.RegisterDocFunc(task.Helper{File: "eus_trivia/utils.py", Function: "doc_to_text",
		SHA256: "a55270fad49060a43d8b83c81490c804d774b11ee096f88c7711c93032144182"}, func(d task.Doc) (any, error) { return Text(d, false) })
}
