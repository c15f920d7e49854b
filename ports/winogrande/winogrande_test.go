package winogrande

import (
	"reflect"
	"testing"
)

func TestWinogrande(t *testing.T) {
	tests := []struct {
		doc     map[string]any
		text    int64
		choices []any
		target  string
	}{
		{
			doc:     map[string]any{"sentence": "The trophy doesn't fit into the brown suitcase because the _ is too large.", "option1": "trophy", "option2": "suitcase", "answer": "1"},
			text:    0,
			choices: []any{"The trophy doesn't fit into the brown suitcase because the trophy", "The trophy doesn't fit into the brown suitcase because the suitcase"},
			target:  "is too large.",
		},
		{
			doc:     map[string]any{"sentence": "_ had to buy a new phone because Rebecca's broke.", "option1": "Rebecca", "option2": "Amy", "answer": "2"},
			text:    1,
			choices: []any{"Rebecca", "Amy"},
			target:  "had to buy a new phone because Rebecca's broke.",
		},
		{
			doc:     map[string]any{"sentence": "we had to cut the _ .", "option1": "cake", "option2": "box", "answer": "1"},
			text:    0,
			choices: []any{"we had to cut the cake", "we had to cut the box"},
			target:  ".",
		},
		{ // only the first blank counts
			doc:     map[string]any{"sentence": "Ünïcode _ then _ again", "option1": "é", "option2": "b", "answer": "2"},
			text:    1,
			choices: []any{"Ünïcode é", "Ünïcode b"},
			target:  "then _ again",
		},
	}
	for _, tt := range tests {
		text, err := DocToText(tt.doc)
		if err != nil || text != tt.text {
			t.Errorf("doc_to_text(%q) = %d, %v; want %d", tt.doc["sentence"], text, err, tt.text)
		}
		choices, err := DocToChoice(tt.doc)
		if err != nil || !reflect.DeepEqual(choices, tt.choices) {
			t.Errorf("doc_to_choice(%q) = %q, %v; want %q", tt.doc["sentence"], choices, err, tt.choices)
		}
		target, err := DocToTarget(tt.doc)
		if err != nil || target != tt.target {
			t.Errorf("doc_to_target(%q) = %q, %v; want %q", tt.doc["sentence"], target, err, tt.target)
		}
	}
	if _, err := DocToChoice(map[string]any{"sentence": "no blank", "option1": "a", "option2": "b"}); err == nil {
		t.Error("doc_to_choice accepted a sentence without a blank")
	}
	if _, err := DocToText(map[string]any{"answer": "3"}); err == nil {
		t.Error("doc_to_text accepted answer \"3\"")
	}
}
