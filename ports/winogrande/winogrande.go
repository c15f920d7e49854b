package winogrande

import (
	"fmt"
	"strings"

	"github.com/lmeval/lmeval/ports/internal/pydoc"
	"github.com/lmeval/lmeval/python/pyre"
)

// Winogrande is scored by partial evaluation (Trinh & Le, 2018): each option
// replaces the blank "_" and the sentence is cut after it, giving one
// context per option; the model scores the same continuation, the rest of
// the sentence, after each context. In lm-eval's YAML this is a
// multiple_input task: doc_to_text returns the gold index, doc_to_choice the
// contexts and doc_to_target the shared continuation.

// DocToText is preprocess_winogrande.doc_to_text: the index of
// the correct option, 0 for answer "1" and 1 for answer "2".
func DocToText(doc map[string]any) (int64, error) {
	a, err := pydoc.GetStr(doc, "answer")
	if err != nil {
		return 0, fmt.Errorf("winogrande doc_to_text: %w", err)
	}
	switch a {
	case "1":
		return 0, nil
	case "2":
		return 1, nil
	}
	return 0, fmt.Errorf("winogrande doc_to_text: answer %q is neither \"1\" nor \"2\"", a)
}

// DocToTarget is preprocess_winogrande.doc_to_target: the
// sentence after the blank, stripped.
func DocToTarget(doc map[string]any) (string, error) {
	s, i, err := winograndeBlank(doc)
	if err != nil {
		return "", fmt.Errorf("winogrande doc_to_target: %w", err)
	}
	return pyre.Strip(s[i+1:]), nil
}

// DocToChoice is preprocess_winogrande.doc_to_choice: the
// sentence up to the blank followed by each option ("partial contexts").
func DocToChoice(doc map[string]any) ([]any, error) {
	s, i, err := winograndeBlank(doc)
	if err != nil {
		return nil, fmt.Errorf("winogrande doc_to_choice: %w", err)
	}
	out := make([]any, 2)
	for j, key := range [...]string{"option1", "option2"} {
		opt, err := pydoc.GetStr(doc, key)
		if err != nil {
			return nil, fmt.Errorf("winogrande doc_to_choice: %w", err)
		}
		out[j] = s[:i] + opt
	}
	return out, nil
}

func winograndeBlank(doc map[string]any) (string, int, error) {
	s, err := pydoc.GetStr(doc, "sentence")
	if err != nil {
		return "", 0, err
	}
	i := strings.IndexByte(s, '_')
	if i < 0 {
		return "", 0, fmt.Errorf("sentence %q has no blank \"_\"", s)
	}
	return s, i, nil
}
