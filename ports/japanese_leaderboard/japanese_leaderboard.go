// Package japanese_leaderboard ports lm_eval/tasks/japanese_leaderboard's
// helpers: JCommonsenseQA's and XWinograd's process_docs and MGSM's
// process_results. XL-Sum's MeCab-tokenised ROUGE-2 is registered
// unavailable: it needs the MeCab morphological analyser with a Japanese
// dictionary (fugashi), neologdn and rouge_score's bootstrap.
package japanese_leaderboard

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/pynum"
	"github.com/lmeval/lmeval/python/pyre"
	"github.com/lmeval/lmeval/python/pyval"
)

func copyDoc(d task.Doc) task.Doc {
	nd := make(task.Doc, len(d)+2)
	for k, v := range d {
		nd[k] = v
	}
	return nd
}

// JCommonsenseQAProcessDocs is ja_leaderboard_jcommonsenseqa.process_docs:
// choices is [choice0, ..., choice4].
func JCommonsenseQAProcessDocs(docs []task.Doc) ([]task.Doc, error) {
	out := make([]task.Doc, len(docs))
	for i, d := range docs {
		cs := make([]any, 5)
		for j := range cs {
			v, ok := d["choice"+strconv.Itoa(j)]
			if !ok {
				return nil, fmt.Errorf("jcommonsenseqa process_docs: document %d has no choice%d (KeyError)", i, j)
			}
			cs[j] = v
		}
		nd := copyDoc(d)
		nd["choices"] = cs
		out[i] = nd
	}
	return out, nil
}

// XWinogradProcessDocs is ja_leaderboard_xwinograd.process_docs: label is
// int(answer) - 1, choices the two sentences stripped.
func XWinogradProcessDocs(docs []task.Doc) ([]task.Doc, error) {
	out := make([]task.Doc, len(docs))
	for i, d := range docs {
		var label int64
		switch a := d["answer"].(type) {
		case int:
			label = int64(a)
		case int64:
			label = a
		case string:
			n, ok := pynum.Int64(a)
			if !ok {
				return nil, fmt.Errorf("xwinograd process_docs: document %d: invalid literal for int() with base 10: %s", i, pyval.Repr(a))
			}
			label = n
		case float64:
			label = int64(a)
		default:
			return nil, fmt.Errorf("xwinograd process_docs: document %d: answer is %T", i, d["answer"])
		}
		s1, ok1 := d["sentence1"].(string)
		s2, ok2 := d["sentence2"].(string)
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("xwinograd process_docs: document %d: sentence1 and sentence2 must be text", i)
		}
		nd := copyDoc(d)
		nd["label"] = int(label - 1)
		nd["choices"] = []any{pyre.Strip(s1), pyre.Strip(s2)}
		out[i] = nd
	}
	return out, nil
}

var answerRe = pyre.MustCompile(`(\-?[0-9\.\,]+)`)

// MGSMProcessResults is ja_leaderboard_mgsm.process_results: acc is
// whether the last number of the completion (an integral float) equals
// answer_number.
func MGSMProcessResults(doc task.Doc, results []any) (map[string]any, error) {
	if len(results) != 1 {
		return nil, fmt.Errorf("mgsm process_results: results should be a list with 1 str element, but is %v", results)
	}
	c, ok := results[0].(string)
	if !ok {
		return nil, fmt.Errorf("mgsm process_results: result is %T, want the generated string", results[0])
	}
	acc := false
	if ms := answerRe.FindAll(c); len(ms) > 0 {
		s := strings.ReplaceAll(strings.Trim(ms[len(ms)-1].Group(1), "."), ",", "")
		if f, ok := pynum.Float(s); ok && pynum.IsInteger(f) {
			acc = pyval.Equal(f, doc["answer_number"])
		}
	}
	return map[string]any{"acc": acc}, nil
}
