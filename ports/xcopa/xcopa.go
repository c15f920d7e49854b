// Package xcopa ports lm_eval/tasks/xcopa/utils.py: the premise without
// its final character followed by the language's connector for the
// question (cause or effect), and the two choices with a lower-cased
// first character.
package xcopa

import (
	"fmt"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/python/pyre"
)

// Connectors are the doc_to_text_<lang> partials' connector arguments.
var Connectors = map[string]map[string]string{
	"et": {"cause": "sest", "effect": "seetõttu"},
	"ht": {"cause": "poukisa", "effect": "donk sa"},
	"it": {"cause": "perché", "effect": "quindi"},
	"id": {"cause": "karena", "effect": "maka"},
	"qu": {"cause": "imataq", "effect": "chaymi"},
	"sw": {"cause": "kwa sababu", "effect": "kwa hiyo"},
	"zh": {"cause": "因为", "effect": "所以"},
	"ta": {"cause": "காரணமாக", "effect": "எனவே"},
	"th": {"cause": "เพราะ", "effect": "ดังนั้น"},
	"tr": {"cause": "çünkü", "effect": "bu yüzden"},
	"vi": {"cause": "bởi vì", "effect": "vì vậy"},
}

func text(doc task.Doc, key string) (string, error) {
	s, ok := doc[key].(string)
	if !ok {
		return "", fmt.Errorf("xcopa: %s is %T, want text", key, doc[key])
	}
	return s, nil
}

// DocToText is doc_to_text(doc, connector).
func DocToText(doc task.Doc, connector map[string]string) (string, error) {
	q, err := text(doc, "question")
	if err != nil {
		return "", err
	}
	conn, ok := connector[q]
	if !ok {
		return "", fmt.Errorf("xcopa: question %q is neither cause nor effect (KeyError)", q)
	}
	p, err := text(doc, "premise")
	if err != nil {
		return "", err
	}
	r := []rune(pyre.Strip(p))
	if len(r) > 0 {
		r = r[:len(r)-1]
	}
	return string(r) + " " + conn, nil
}

// ConvertChoice is convert_choice: the first character lower-cased.
func ConvertChoice(c string) (string, error) {
	r := []rune(c)
	if len(r) == 0 {
		return "", fmt.Errorf("xcopa: empty choice (IndexError)")
	}
	return pyre.Lower(string(r[0])) + string(r[1:]), nil
}

// DocToChoice is doc_to_choice.
func DocToChoice(doc task.Doc) ([]string, error) {
	out := make([]string, 2)
	for i, k := range []string{"choice1", "choice2"} {
		s, err := text(doc, k)
		if err != nil {
			return nil, err
		}
		if out[i], err = ConvertChoice(s); err != nil {
			return nil, err
		}
	}
	return out, nil
}
