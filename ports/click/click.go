// Package click ports lm_eval/tasks/click's utils.py (click_cul and
// click_lang share get_context, get_target and get_choices): the Korean
// prompt with the four options, the answer's letter (five letters for
// CSAT items), and the extract_<category> filters over the documents'
// ids.
package click

import (
	"fmt"
	"strings"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/pydoc"
	"github.com/lmeval/lmeval/ports/internal/pyfn"
	"github.com/lmeval/lmeval/python/pyre"
	"github.com/lmeval/lmeval/python/pyval"
)

func truthy(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case string:
		return x != ""
	case []any:
		return len(x) > 0
	case bool:
		return x
	case float64:
		return x != 0
	case int64:
		return x != 0
	}
	return true
}

// GetContext is get_context.
func GetContext(doc task.Doc) (any, error) {
	ctx, err := pydoc.Field(doc, "paragraph")
	if err != nil {
		return nil, err
	}
	q, err := pydoc.Field(doc, "question")
	if err != nil {
		return nil, err
	}
	opt, err := pyfn.List(doc, "choices")
	if err != nil {
		return nil, err
	}
	if len(opt) < 4 {
		return nil, fmt.Errorf("IndexError: list index out of range")
	}
	o := func(i int) string { return pyval.Str(opt[i]) }
	options := "보기:\nA:" + o(0) + ", B: " + o(1) + ", C: " + o(2) + ", D: " + o(3) + "\n정답:"
	if truthy(ctx) {
		return "주어진 맥락을 천천히 읽고, 질문에 대한 적절한 정답을 A, B, C, D 중에 골라 알파벳 하나로 답하시오.\n\n맥락: " +
			pyval.Str(ctx) + "\n질문: " + pyval.Str(q) + "\n" + options, nil
	}
	return "주어진 질문을 천천히 읽고, 적절한 정답을 A, B, C, D 중에 골라 알파벳 하나로 답하시오.\n\n질문: " +
		pyval.Str(q) + "\n" + options, nil
}

func letters(doc task.Doc) ([]string, string, error) {
	id, err := pyfn.Str(doc, "id")
	if err != nil {
		return nil, "", err
	}
	if strings.Contains(id, "CSAT") {
		return []string{"A", "B", "C", "D", "E"}, id, nil
	}
	return []string{"A", "B", "C", "D"}, id, nil
}

// GetTarget is get_target: the letter of the answer's place among the
// choices.
func GetTarget(doc task.Doc) (any, error) {
	ans, err := pydoc.Field(doc, "answer")
	if err != nil {
		return nil, err
	}
	ls, _, err := letters(doc)
	if err != nil {
		return nil, err
	}
	opt, err := pyfn.List(doc, "choices")
	if err != nil {
		return nil, err
	}
	for i, o := range opt {
		if pyval.Equal(o, ans) {
			if i >= len(ls) {
				return nil, fmt.Errorf("IndexError: list index out of range")
			}
			return ls[i], nil
		}
	}
	return nil, fmt.Errorf("ValueError: %s is not in list", pyval.Repr(ans))
}

// GetChoices is get_choices.
func GetChoices(doc task.Doc) (any, error) {
	ls, _, err := letters(doc)
	return ls, err
}

// idFilter is dataset.filter over a predicate of the id (and question).
func idFilter(pred func(id string, doc task.Doc) (bool, error)) func([]task.Doc) ([]task.Doc, error) {
	return func(docs []task.Doc) ([]task.Doc, error) {
		return pyfn.FilterDocs(docs, func(d task.Doc) (bool, error) {
			id, err := pyfn.Str(d, "id")
			if err != nil {
				return false, err
			}
			return pred(id, d)
		})
	}
}

// lowerHas is `word in example["id"].lower()`.
func lowerHas(word string) func(string, task.Doc) (bool, error) {
	return func(id string, _ task.Doc) (bool, error) { return strings.Contains(pyre.Lower(id), word), nil }
}

// part is int(id.split("_")[i]) (i < 0 from the end).
func part(id string, i int) (int64, error) {
	ps := strings.Split(id, "_")
	if i < 0 {
		i += len(ps)
	}
	if i < 0 || i >= len(ps) {
		return 0, fmt.Errorf("IndexError: list index out of range")
	}
	return pyval.Int(ps[i])
}

// dialogue is `"대화" in q or "발화" in q or "질의" in q`.
func dialogue(doc task.Doc) (bool, error) {
	q, err := pyfn.Str(doc, "question")
	if err != nil {
		return false, err
	}
	return strings.Contains(q, "대화") || strings.Contains(q, "발화") || strings.Contains(q, "질의"), nil
}

// Culture are click_cul's extract_<category> filters.
var Culture = map[string]func([]task.Doc) ([]task.Doc, error){
	"economy":   idFilter(lowerHas("economy")),
	"geography": idFilter(lowerHas("geography")),
	"history": idFilter(func(id string, d task.Doc) (bool, error) {
		return strings.Contains(id, "KHB") || strings.Contains(pyre.Lower(id), "history"), nil
	}),
	"law": idFilter(func(id string, d task.Doc) (bool, error) {
		return strings.Contains(pyre.Lower(id), "law") || strings.Contains(id, "PSAT"), nil
	}),
	"politics":  idFilter(lowerHas("politics")),
	"kpop":      idFilter(lowerHas("popular")),
	"society":   idFilter(lowerHas("society")),
	"tradition": idFilter(lowerHas("tradition")),
}

// ExtractText is click_lang's extract_text.
func ExtractText(id string, _ task.Doc) (bool, error) {
	if strings.Contains(id, "CSAT_korean_22") {
		return true, nil
	}
	if strings.Contains(id, "CSAT_korean_23") {
		n, err := part(id, -1)
		if err != nil {
			return false, err
		}
		if n < 35 {
			return true, nil
		}
	}
	if strings.Contains(id, "TK") {
		n, err := part(id, -1)
		if err != nil {
			return false, err
		}
		return n > 4, nil
	}
	return false, nil
}

// ExtractGrammar is click_lang's extract_grammar.
func ExtractGrammar(id string, d task.Doc) (bool, error) {
	if strings.Contains(id, "CSAT_korean") {
		a, err := part(id, 2)
		if err != nil {
			return false, err
		}
		if a < 21 {
			b, err := part(id, 3)
			if err != nil {
				return false, err
			}
			if b > 10 {
				return true, nil
			}
		}
	}
	if strings.Contains(id, "Kedu_1") {
		ps := strings.Split(id, "_")
		if len(ps) < 2 {
			return false, fmt.Errorf("IndexError: list index out of range")
		}
		if ps[1] != "16" {
			return true, nil
		}
		dl, err := dialogue(d)
		if err != nil {
			return false, err
		}
		if !dl {
			return true, nil
		}
	}
	if strings.Contains(id, "TK") {
		n, err := part(id, -1)
		if err != nil {
			return false, err
		}
		return n < 5, nil
	}
	return false, nil
}

// ExtractFunction is click_lang's extract_function.
func ExtractFunction(id string, d task.Doc) (bool, error) {
	if strings.Contains(id, "CSAT_korean") {
		n, err := part(id, -1)
		if err != nil {
			return false, err
		}
		if n > 34 {
			return true, nil
		}
		a, err := part(id, 2)
		if err != nil {
			return false, err
		}
		if a < 21 {
			b, err := part(id, 3)
			if err != nil {
				return false, err
			}
			if b < 11 {
				return true, nil
			}
		}
	}
	if strings.Contains(id, "Kedu_16") {
		dl, err := dialogue(d)
		if err != nil {
			return false, err
		}
		if dl {
			return true, nil
		}
	}
	return strings.Contains(id, "PSE_korean"), nil
}

var cultureSHA = map[string]string{
	"economy":   "83339e162f4e71b52b771e5cbb9777a72c5f5965d7c3284a5cbb098395826f96",
	"geography": "b623f0325e7c1cac7048e8dab67dfd0513bae414d5126f602f1f44a858cff2b6",
	"history":   "de0777e01320e3e77f9ac3f9f71e42c144aaa7295e06e7490bc43d942e62509a",
	"law":       "84d01beec3db747f3375be90e54bd913d4f97f8fc30ac91f47d2a7d86a6b26c0",
	"politics":  "6d077ec43499a7ee7b889cd55c98c1dcbdf59286aca3de75be517645497d3b48",
	"kpop":      "41d90579cd00dc804e10611951c787d81f29b2df3d98abc275aa00803fcac0d9",
	"society":   "4cf212f83131bb4378e3ac6e13001c197298bddd4d72e3e1a1ec900c72a2462e",
	"tradition": "ba6ebfa2c745c2bfc30bb4070f2312a8fbbc2ca0e080287e66bdea5d1fc64092",
}

func init() {

	const cul, lang = "click/click_cul/utils.py", "click/click_lang/utils.py"
	task.RegisterDocFunc(task.Helper{File: cul, Function: "get_context", SHA256: "b6c2aa20444588db0c597b8661c47cd8ab2253df5d36fbc8cc86b5f069d4ac8c"}, GetContext)
	task.RegisterDocFunc(task.Helper{File: cul, Function: "get_target", SHA256: "83fe63eae68ff752d98e9823e8987ff31216255223b6542d5a1f03462ee2de3a"}, GetTarget)
	task.RegisterDocFunc(task.Helper{File: cul, Function: "get_choices", SHA256: "d597421ba11745e05813ef01cd7c2e7ed3b8b006a1261c7ad025ac50723dcc19"}, GetChoices)
	for k, f := range Culture {
		task.RegisterProcessDocs(task.Helper{File: cul, Function: "extract_" + k, SHA256: cultureSHA[k]}, f)
	}
	task.RegisterProcessDocs(task.Helper{File: lang, Function: "extract_text", SHA256: "d984a0333ee76fdc48a61bc60a81a465251b5fd27a852c34cb397c3665d6f99a"}, idFilter(ExtractText))
	task.RegisterProcessDocs(task.Helper{File: lang, Function: "extract_grammar", SHA256: "32eef80f623490fadd9d56165cfecec87af065ff39ca128011b5f3034751caf8"}, idFilter(ExtractGrammar))
	task.RegisterProcessDocs(task.Helper{File: lang, Function: "extract_function", SHA256: "cee380518e8bab4a90c2f71273f0146d430aa94cea21a5b3c0346c61e55b3fa8"}, idFilter(ExtractFunction))
}
