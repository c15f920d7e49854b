// Package arab_culture_completion ports lm_eval/tasks/arab_culture_completion/
// utils_completion.py: arab_culture's prompt without the options (the
// model completes the statement with each option's text), the options'
// texts as choices and the text of the English answer key as target.
package arab_culture_completion

import (
	"fmt"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/arab_culture"
	"github.com/lmeval/lmeval/python/pyre"
	"github.com/lmeval/lmeval/python/pyval"
)

// DocToText is doc_to_text.
func DocToText(s arab_culture.Settings, doc task.Doc) (string, error) {
	return s.Prompt(doc, prompts, nil)
}

// DocToChoice is doc_to_choice: the options' texts.
func DocToChoice(doc task.Doc) (any, error) { return arab_culture.Field(doc, "options", "text") }

// DocToTarget is doc_to_target: the text of the option whose English key
// is the English answer key, stripped.
func DocToTarget(doc task.Doc) (any, error) {
	key, err := arab_culture.Field(doc, "answer_key", "english_answer_key")
	if err != nil {
		return nil, err
	}
	texts, err := arab_culture.List(doc, "options", "text")
	if err != nil {
		return nil, err
	}
	keys, err := arab_culture.List(doc, "options", "english_keys")
	if err != nil {
		return nil, err
	}
	i := 0
	for i < len(keys) && !pyval.Equal(keys[i], key) {
		i++
	}
	if i == len(keys) {
		return nil, fmt.Errorf("ValueError: %s is not in list", pyval.Repr(key))
	}
	if i >= len(texts) {
		return nil, fmt.Errorf("IndexError: list index %d out of range", i)
	}
	t, ok := texts[i].(string)
	if !ok {
		return nil, fmt.Errorf("AttributeError: %s is not a str", pyval.Repr(texts[i]))
	}
	return pyre.Strip(t), nil
}

func init() {
	const file = "arab_culture_completion/utils_completion.py"
	task.RegisterDocFunc(task.Helper{File: file, Function: "doc_to_text",
		SHA256: "eb2dc8f5420810316987932ae2555a8bb3b21ed5a769fb952dc43b5f615d23bc"}, func(d task.Doc) (any, error) { return DocToText(arab_culture.Env(), d) })
	task.RegisterDocFunc(task.Helper{File: file, Function: "doc_to_choice",
		SHA256: "7a2c16456ba6e27d446213d86dac2c022a05c96dd1f79dab18b8695ad72af88e"}, DocToChoice)
	task.RegisterDocFunc(task.Helper{File: file, Function: "doc_to_target",
		SHA256: "43dacd3ea059adfde61d4424875326eb96cbe2c3a5b1de0624021b88f892ba03"}, DocToTarget)
}
