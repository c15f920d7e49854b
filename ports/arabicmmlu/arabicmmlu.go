// Package arabicmmlu ports lm_eval/tasks/arabicmmlu/utils.py, ArabicMMLU's
// English prompt (prepare_data_en): the subject, level and country, the
// question after its context, and the options lettered A. to E. up to
// the first empty one.
package arabicmmlu

import (
	"fmt"
	"strings"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/darijammlu"
	"github.com/lmeval/lmeval/ports/internal/pydoc"
	"github.com/lmeval/lmeval/python/pyval"
)

// Prompt is utils.py's PROMPT.
const Prompt = "This is a {}. Select the correct answer!\n\nQuestion: {}\n{}\n\nAnswer:"

var levelEN = map[string]string{
	"Primary": "primary school",
	"Middle":  "middle school",
	"High":    "high school",
	"Univ":    "university",
	"Prof":    "professional",
}

var alpa = []string{"A.", "B.", "C.", "D.", "E."}

var get = pydoc.Field

// DocToText is doc_to_text.
func DocToText(doc task.Doc) (string, error) {
	level, country := "", ""
	v, err := get(doc, "Level")
	if err != nil {
		return "", err
	}
	if pyval.Truthy(v) {
		s, _ := v.(string)
		l, ok := levelEN[s]
		if !ok {
			return "", fmt.Errorf("KeyError: %s", pyval.Repr(v))
		}
		level = " for " + l
	}
	if v, err = get(doc, "Country"); err != nil {
		return "", err
	}
	if pyval.Truthy(v) {
		s, ok := v.(string)
		if !ok {
			return "", fmt.Errorf("TypeError: can only concatenate str (not %s) to str", pyval.Repr(v))
		}
		country = " in " + s
	}
	subject, err := get(doc, "Subject")
	if err != nil {
		return "", err
	}
	meta := pyval.Str(subject) + " question" + level + country
	q, err := get(doc, "Question")
	if err != nil {
		return "", err
	}
	ctx, err := get(doc, "Context")
	if err != nil {
		return "", err
	}
	question := pyval.Str(q)
	if pyval.Truthy(ctx) {
		question = pyval.Str(ctx) + "\n\n" + pyval.Str(q)
	}
	var options []string
	for i := range alpa {
		o, err := get(doc, fmt.Sprintf("Option %d", i+1))
		if err != nil {
			return "", err
		}
		if !pyval.Truthy(o) {
			break
		}
		options = append(options, alpa[i]+" "+pyval.Str(o))
	}
	return darijammlu.Format(Prompt, meta, question, strings.Join(options, "\n")), nil
}

// DocToChoice is doc_to_choice: the letters of the non-empty options
// (every one of the five, not only those before the first empty one).
func DocToChoice(doc task.Doc) ([]string, error) {
	var out []string
	for i := range alpa {
		o, err := get(doc, fmt.Sprintf("Option %d", i+1))
		if err != nil {
			return nil, err
		}
		if pyval.Truthy(o) {
			out = append(out, alpa[i][:1])
		}
	}
	return out, nil
}

func init() {
	task.RegisterDocFunc(task.Helper{File: "arabicmmlu/utils.py", Function: "doc_to_text",
		SHA256: "4a1c2e7725f777909a11c67a733779cf562137744e69f0be7fa448273581fda4"}, func(d task.Doc) (any, error) { return DocToText(d) })
	task.RegisterDocFunc(task.Helper{File: "arabicmmlu/utils.py", Function: "doc_to_choice",
		SHA256: "aaece4bcdf34390f9ea7e3e53aa8151ffba53931b0b5957cb9292dd798075871"}, func(d task.Doc) (any, error) { return DocToChoice(d) })
}
