package acpbench

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/lmeval/lmeval/python/pyre"
)

// visitor is ACPBench_Visitor's state after visit_topdown.
type visitor struct {
	actionLists      []any // list of str; nil is None
	actionNames      any   // str or nil
	progressionLists []any // list of lists of str; nil is None
	progLists        []any
	progListsSet     bool
	indexes          any
	actionListsSet   bool
	progressionSet   bool
}

func (v *visitor) visit(t *larkTree) {
	switch t.data {
	case "action_list":
		v.actionLists, v.actionListsSet = []any{}, true
	case "prog_list":
		if v.progListsSet {
			v.progressionLists = append(v.progressionLists, v.progLists)
		}
		v.progLists, v.progListsSet = []any{}, true
	case "progression_list":
		v.progressionLists, v.progressionSet = []any{}, true
	case "action_none":
		v.actionNames = "None"
	case "action_name":
		var b strings.Builder
		b.WriteString("(")
		for _, c := range t.children[1 : len(t.children)-1] {
			b.WriteString(c.(larkToken).value)
		}
		b.WriteString(")")
		name := b.String()
		v.actionNames = name
		if v.actionListsSet {
			v.actionLists = append(v.actionLists, name)
		}
		if v.progListsSet {
			v.progLists = append(v.progLists, name)
		}
	case "index":
		var b strings.Builder
		for _, c := range t.children {
			b.WriteString(c.(larkToken).value)
		}
		s := b.String()
		v.indexes = s
		if !isNumeric(s) {
			v.indexes = nil
		}
	}
}

// isNumeric is str.isnumeric for the texts an index token can hold.
func isNumeric(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !unicode.In(r, unicode.Nd, unicode.Nl, unicode.No) {
			return false
		}
	}
	return true
}

// grammarParse is ACPGrammarParser(task).parse(input): the parsed answer
// as the Python value (a str, a list of str, a list of lists of str) or
// nil for None.
func grammarParse(task, input string) (any, error) {
	t, ok := larkTables[task]
	if !ok {
		return nil, fmt.Errorf("ACPGrammarParser: unknown grammar task %q", task)
	}
	input = pyre.Strip(strings.ReplaceAll(input, "\n", ""))
	tree, err := t.parse(input)
	if err != nil {
		return nil, nil // any exception: None
	}
	v := &visitor{}
	tree.topdown(v.visit)
	switch task {
	case "action_list":
		if !v.actionListsSet {
			return nil, nil
		}
		return v.actionLists, nil
	case "act", "action_name":
		return v.actionNames, nil
	case "index":
		return v.indexes, nil
	case "progression_list":
		if !v.progressionSet {
			return nil, nil // visitor.progression_lists is None: a TypeError, caught
		}
		var last any
		if v.progListsSet {
			last = v.progLists
		}
		if !containsList(v.progressionLists, last) {
			v.progressionLists = append(v.progressionLists, last)
		}
		return v.progressionLists, nil
	}
	return nil, nil
}

// containsList is `x in l` for lists of lists of str (None for nil).
func containsList(l []any, x any) bool {
	for _, e := range l {
		if equalStrLists(e, x) {
			return true
		}
	}
	return false
}

func equalStrLists(a, b any) bool {
	la, oka := a.([]any)
	lb, okb := b.([]any)
	if !oka || !okb {
		return a == nil && b == nil && !oka && !okb
	}
	if len(la) != len(lb) {
		return false
	}
	for i := range la {
		if la[i] != lb[i] {
			return false
		}
	}
	return true
}
