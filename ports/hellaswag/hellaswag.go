package hellaswag

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/lmeval/lmeval/ports/internal/pydoc"
	"github.com/lmeval/lmeval/python/pyre"
	"github.com/lmeval/lmeval/python/pyval"
)

// bracketed matches the WikiHow section markers ("[header]", "[step]") that
// HellaSwag's contexts and endings carry; like Python's re, "." stops at a
// newline.
var bracketed = regexp.MustCompile(`\[.*?\]`)

// Preprocess cleans one HellaSwag text as lm-eval's
// hellaswag/utils.py preprocess does: strip, " [title]" becomes ". ", other
// bracketed markers are dropped, and each double space is halved once.
func Preprocess(text string) string {
	text = pyre.Strip(text)
	text = strings.ReplaceAll(text, " [title]", ". ")
	text = bracketed.ReplaceAllLiteralString(text, "")
	return strings.ReplaceAll(text, "  ", " ")
}

// ProcessDocs is hellaswag/utils.py process_docs: every document
// keeps its fields and gains, in Columns' order, "query" (activity
// label and context), "choices" (the four cleaned endings) and "gold" (the
// label as an int).
// Columns are the columns ProcessDocs sets, in the order
// of the dict utils.py's _process_doc returns (Dataset.map appends them in
// that order).
var Columns = []string{"query", "choices", "gold"}

func ProcessDocs(docs []map[string]any) ([]map[string]any, error) {
	out := make([]map[string]any, len(docs))
	for i, doc := range docs {
		d, err := processDoc(doc)
		if err != nil {
			return nil, fmt.Errorf("hellaswag process_docs: document %d: %w", i, err)
		}
		out[i] = d
	}
	return out, nil
}

func processDoc(doc map[string]any) (map[string]any, error) {
	var f [3]string
	for i, key := range [...]string{"activity_label", "ctx_a", "ctx_b"} {
		s, err := pydoc.GetStr(doc, key)
		if err != nil {
			return nil, err
		}
		f[i] = s
	}
	ctx := f[1] + " " + pyre.Capitalize(f[2])
	endings, ok := doc["endings"].([]any)
	if !ok {
		return nil, fmt.Errorf("document field \"endings\" is %T, want a list", doc["endings"])
	}
	choices := make([]any, len(endings))
	for i, e := range endings {
		s, ok := e.(string)
		if !ok {
			return nil, fmt.Errorf("endings[%d] is %T, want a string", i, e)
		}
		choices[i] = Preprocess(s)
	}
	gold, err := pyval.Int(doc["label"])
	if err != nil {
		return nil, fmt.Errorf("field \"label\": %w", err)
	}
	out := pydoc.Copy(doc)
	out["query"] = Preprocess(f[0] + ": " + ctx)
	out["choices"] = choices
	out["gold"] = gold
	return out, nil
}

// DocToChoice is hellaswag/utils.py doc_to_choice: the cleaned
// endings with their letters, "A. ...", "B. ...".
func DocToChoice(doc map[string]any) ([]any, error) {
	choices, ok := doc["choices"].([]any)
	if !ok {
		return nil, fmt.Errorf("hellaswag doc_to_choice: document field \"choices\" is %T, want a list (run process_docs first)", doc["choices"])
	}
	out := make([]any, len(choices))
	for i, c := range choices {
		out[i] = fmt.Sprintf("%c. %v", 'A'+i, c)
	}
	return out, nil
}
