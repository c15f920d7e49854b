// Package wsc273 ports lm_eval/tasks/wsc273/utils.py: the options are
// made to read in place of the pronoun (possessive 's, lower-cased
// determiners and pronouns inside a sentence).
package wsc273

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/pydoc"
	"github.com/lmeval/lmeval/python/pyre"
	"github.com/lmeval/lmeval/python/pyval"
)

var upperPronouns = []string{"A", "An", "The", "She", "He", "It", "They", "My", "His", "Her", "Their"}

// ProcessDoc is process_doc: datasets' map of process_fn over a copy of
// each document.
func ProcessDoc(docs []task.Doc) ([]task.Doc, error) {
	out := make([]task.Doc, len(docs))
	for i, d := range docs {
		nd, _ := pyval.DeepCopy(d).(map[string]any)
		if err := processFn(nd); err != nil {
			return nil, err
		}
		out[i] = nd
	}
	return out, nil
}

func processFn(doc task.Doc) error {
	text, err := pydoc.String(doc, "text")
	if err != nil {
		return err
	}
	doc["text"] = strings.ReplaceAll(text, "  ", " ")
	ov, err := pydoc.Field(doc, "options")
	if err != nil {
		return err
	}
	opts, ok := ov.([]any)
	if !ok || len(opts) < 2 {
		return fmt.Errorf("options is %s with fewer than 2 items", pydoc.TypeName(ov))
	}
	for i := 0; i < 2; i++ {
		s, ok := opts[i].(string)
		if !ok {
			return fmt.Errorf("TypeError: options[%d] is %s, not str", i, pydoc.TypeName(opts[i]))
		}
		if opts[i], err = normalizeOption(doc, s); err != nil {
			return err
		}
	}
	return nil
}

func normalizeOption(doc task.Doc, option string) (string, error) {
	p, err := pydoc.String(doc, "pronoun")
	if err != nil {
		return "", err
	}
	if slices.Contains([]string{"my", "his", "her", "our", "their"}, pyre.Lower(p)) {
		option += "'s"
	}
	words := strings.FieldsFunc(option, pyre.IsSpace)
	if len(words) == 0 {
		return "", fmt.Errorf("IndexError: list index out of range (empty option)")
	}
	pronoun := words[0]
	text := []rune(doc["text"].(string))
	lv, err := pydoc.Field(doc, "pronoun_loc")
	if err != nil {
		return "", err
	}
	loc, ok := pydoc.StrictInt(lv)
	if !ok {
		return "", fmt.Errorf("TypeError: pronoun_loc is %s, not int", pydoc.TypeName(lv))
	}
	i := loc - 2
	if i < 0 {
		i += len(text)
	}
	if i < 0 || i >= len(text) {
		return "", fmt.Errorf("IndexError: string index out of range (pronoun_loc %d)", loc)
	}
	startOfSentence := text[i] == '.'
	if !startOfSentence && slices.Contains(upperPronouns, pronoun) {
		return strings.ReplaceAll(option, pronoun, pyre.Lower(pronoun)), nil
	}
	return option, nil
}

func init() {
	task.RegisterProcessDocs(task.Helper{File: "wsc273/utils.py", Function: "process_doc",
		SHA256: "0009bf9e8906e45ae05c77a96997d694da07de61aa36d79cc43fd7f7c170639d"}, ProcessDoc)
}
