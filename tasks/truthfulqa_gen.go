package tasks

import (
	"fmt"
	"strings"
)

// TruthfulQAProcessDocsGen is truthfulqa/utils.py process_docs_gen (for
// lm-eval's truthfulqa_gen, whose BLEU/ROUGE process_results_gen lmeval
// does not provide): the question stripped, every answer stripped and
// ended with a period, empty answers dropped, and "I have no comment."
// added to the correct answers when missing. Each document becomes
// {question, correct_answers, incorrect_answers}, the fields dataset.map
// keeps besides the originals.
func TruthfulQAProcessDocsGen(docs []map[string]any) ([]map[string]any, error) {
	out := make([]map[string]any, len(docs))
	for i, doc := range docs {
		q, err := docString(doc, "question")
		if err != nil {
			return nil, fmt.Errorf("truthfulqa process_docs_gen: document %d: %w", i, err)
		}
		correct, err := formatAnswers(doc, "correct_answers")
		if err != nil {
			return nil, fmt.Errorf("truthfulqa process_docs_gen: document %d: %w", i, err)
		}
		incorrect, err := formatAnswers(doc, "incorrect_answers")
		if err != nil {
			return nil, fmt.Errorf("truthfulqa process_docs_gen: document %d: %w", i, err)
		}
		found := false
		for _, a := range correct {
			found = found || a == "I have no comment."
		}
		if !found {
			correct = append(correct, "I have no comment.")
		}
		d := copyDoc(doc, 0)
		d["question"] = pyStrip(q)
		d["correct_answers"] = correct
		d["incorrect_answers"] = incorrect
		out[i] = d
	}
	return out, nil
}

func formatAnswers(doc map[string]any, key string) ([]any, error) {
	raw, ok := doc[key].([]any)
	if !ok {
		return nil, fmt.Errorf("document field %q is %T, want a list", key, doc[key])
	}
	out := make([]any, 0, len(raw))
	for j, v := range raw {
		s, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("%s[%d] is %T, want a string", key, j, v)
		}
		s = pyStrip(s)
		if s == "" {
			continue
		}
		if !strings.HasSuffix(s, ".") {
			s += "."
		}
		out = append(out, s)
	}
	return out, nil
}
