// Package darijammlu ports lm_eval/tasks/darijammlu/utils.py: the
// question (after its context) and its choices lettered A. to E. under a
// Darija prompt naming the subject. egymmlu's utils.py is the same with
// another prompt and subject column (ports/egymmlu).
package darijammlu

import (
	"fmt"
	"strings"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/pydoc"
	"github.com/lmeval/lmeval/python/pyval"
)

// Prompt is darijammlu's PROMPT, a str.format template of three {}.
const Prompt = "هادا سؤال متعدد الخيارات (مع الجواب ديالو) على {}\n\n{}\n{}\nالجواب:"

var alpha = []string{"A.", "B.", "C.", "D.", "E."}

var get = pydoc.Field

func choices(doc task.Doc) ([]any, error) {
	c, err := get(doc, "choices")
	if err != nil {
		return nil, err
	}
	l, ok := c.([]any)
	if !ok {
		return nil, fmt.Errorf("choices is %s, want a list", pyval.Repr(c))
	}
	if len(l) > len(alpha) {
		return nil, fmt.Errorf("IndexError: %d choices, at most %d letters", len(l), len(alpha))
	}
	return l, nil
}

// Format is prompt.format(args...) for a template whose fields are all
// "{}" (str() of each argument, in order).
func Format(prompt string, args ...string) string {
	parts := strings.Split(prompt, "{}")
	var b strings.Builder
	for i, p := range parts {
		b.WriteString(p)
		if i < len(parts)-1 {
			b.WriteString(args[i])
		}
	}
	return b.String()
}

// DocToText is doc_to_text with the given prompt and subject column: the
// subject, the question (after the context and a blank line unless the
// context is ""), and the choices.
func DocToText(doc task.Doc, prompt, subjectKey string) (string, error) {
	subject, err := get(doc, subjectKey)
	if err != nil {
		return "", err
	}
	q, err := get(doc, "question")
	if err != nil {
		return "", err
	}
	ctx, err := get(doc, "context")
	if err != nil {
		return "", err
	}
	question := pyval.Str(q)
	if ctx != "" {
		question = pyval.Str(ctx) + "\n\n" + pyval.Str(q)
	}
	cs, err := choices(doc)
	if err != nil {
		return "", err
	}
	options := make([]string, len(cs))
	for i, c := range cs {
		options[i] = alpha[i] + " " + pyval.Str(c)
	}
	return Format(prompt, pyval.Str(subject), question, strings.Join(options, "\n")), nil
}

// DocToChoice is doc_to_choice: a letter per choice.
func DocToChoice(doc task.Doc) ([]string, error) {
	cs, err := choices(doc)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(cs))
	for i := range cs {
		out[i] = alpha[i][:1]
	}
	return out, nil
}
