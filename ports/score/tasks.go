package score

import (
	"fmt"
	"strings"

	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/python/pyre"
	"github.com/lmeval/lmeval/python/pyval"
)

var (
	agiLabels     = []string{"A", "B", "C", "D", "E"}
	mmluProLabels = []string{"A", "B", "C", "D", "E", "F", "G", "H", "I", "J"}

	agiTemplates     = loadTemplates("agi_eval")
	mmluProTemplates = loadTemplates("mmlu_pro")

	bracketOption  = pyre.MustCompile(`^\([A-E]\)`)
	letterSpace    = pyre.MustCompile(`^[A-E] `)
	letterQuestion = pyre.MustCompile(`^[A-E]\? `)
)

// agiColumns are the columns initial_process_docs adds, in its order.
var agiColumns = []string{"question", "question_id", "answer_index", "answer", "options"}

// AGIInitialProcessDocs is utils_agieval.initial_process_docs: question
// (the query before " Answer Choices:", without "Q: "), question_id (the
// document's index), answer_index (gold[0]), answer (its label) and
// options (the choices without their "(A)", "A " or "A? " prefix), each
// only where the document lacks it.
func AGIInitialProcessDocs(docs []task.Doc) ([]task.Doc, error) {
	out := make([]task.Doc, len(docs))
	for idx, d := range docs {
		nd := pyval.DeepCopy(d).(map[string]any)
		if _, ok := nd["question"]; !ok {
			q, ok := nd["query"].(string)
			if !ok {
				return nil, fmt.Errorf("score: query is %T (KeyError)", nd["query"])
			}
			q, _, _ = strings.Cut(q, " Answer Choices:")
			q = strings.TrimPrefix(q, "Q: ")
			nd["question"] = q
		}
		if _, ok := nd["question_id"]; !ok {
			nd["question_id"] = int64(idx)
		}
		if _, ok := nd["answer_index"]; !ok {
			g, ok := nd["gold"].([]any)
			if !ok || len(g) == 0 {
				return nil, fmt.Errorf("score: gold is %v, want a non-empty list", nd["gold"])
			}
			nd["answer_index"] = g[0]
		}
		if _, ok := nd["answer"]; !ok {
			l, err := label(agiLabels, nd, "answer_index")
			if err != nil {
				return nil, err
			}
			nd["answer"] = l
		}
		if _, ok := nd["options"]; !ok {
			cs, ok := nd["choices"].([]any)
			if !ok {
				return nil, fmt.Errorf("score: choices is %T, want a list", nd["choices"])
			}
			opts := make([]any, len(cs))
			for i, c := range cs {
				s, ok := c.(string)
				if !ok {
					return nil, fmt.Errorf("score: choice %d is %T", i, c)
				}
				switch {
				case bracketOption.Match(s) != nil, letterQuestion.Match(s) != nil:
					s = string([]rune(s)[3:])
				case letterSpace.Match(s) != nil:
					s = string([]rune(s)[2:])
				}
				opts[i] = s
			}
			nd["options"] = opts
		}
		out[idx] = nd
	}
	return out, nil
}

// processResults are the three process_results of a module.
type bindings struct {
	labels    []string
	templates templates
	pre       preprocess
	preCols   []string
	macro     bool // MMLU-Pro: the items carry the category
}

func (b bindings) promptDocs() task.MapDocs {
	return task.MapDocs{Fn: func(docs []task.Doc) ([]task.Doc, error) { return AddPrompts(docs, b.templates.Prompt, b.pre) },
		Columns: append(append([]string{}, b.preCols...), "prompt_id", "prompt", "options_format")}
}

func (b bindings) optionDocs(labels []string) task.MapDocs {
	return task.MapDocs{Fn: func(docs []task.Doc) ([]task.Doc, error) {
		return OptionOrder(docs, b.templates.OptionOrder, labels, b.pre)
	},
		Columns: append(append([]string{}, b.preCols...), "always_same_option", "prompt", "options_format", "original_answer_index")}
}

func (b bindings) nonGreedyDocs() task.MapDocs {
	return task.MapDocs{Fn: func(docs []task.Doc) ([]task.Doc, error) { return NonGreedy(docs, b.templates.NonGreedy, b.pre) },
		Columns: append(append([]string{}, b.preCols...), "prompt", "options_format")}
}

func category(doc task.Doc) (any, error) {
	c, ok := doc["category"]
	if !ok {
		return nil, fmt.Errorf("score: no category (KeyError)")
	}
	return c, nil
}

func (b bindings) promptResults(doc task.Doc, results []any) (map[string]any, error) {
	final, err := finalAnswer(doc, results, b.labels)
	if err != nil {
		return nil, err
	}
	gt, err := label(b.labels, doc, "answer_index")
	if err != nil {
		return nil, err
	}
	pid, qid := doc["prompt_id"], doc["question_id"]
	if pid == nil || qid == nil {
		return nil, fmt.Errorf("score: no prompt_id or question_id (KeyError)")
	}
	if b.macro {
		c, err := category(doc)
		if err != nil {
			return nil, err
		}
		return map[string]any{
			pyval.Str(pid) + "_macro_accuracy": []any{qid, pid, final, gt, c},
			"consistency_rate":                 []any{qid, pid, final, gt},
		}, nil
	}
	return map[string]any{
		pyval.Str(pid) + "_accuracy": []any{qid, pid, final, gt},
		"consistency_rate":           []any{qid, pid, final, gt},
	}, nil
}

func (b bindings) optionResults(doc task.Doc, results []any) (map[string]any, error) {
	final, err := finalAnswer(doc, results, b.labels)
	if err != nil {
		return nil, err
	}
	gt, err := label(b.labels, doc, "answer_index")
	if err != nil {
		return nil, err
	}
	always, qid, orig := doc["always_same_option"], doc["question_id"], doc["original_answer_index"]
	if always == nil || qid == nil || orig == nil {
		return nil, fmt.Errorf("score: no always_same_option, question_id or original_answer_index (KeyError)")
	}
	consistency := []any{qid, always, final, orig, []any{doc["answer_index"]}}
	if b.macro {
		c, err := category(doc)
		if err != nil {
			return nil, err
		}
		return map[string]any{
			"per_option_macro_accuracy_" + pyval.Str(always): []any{qid, always, final, gt, c},
			"options_consistency_rate":                       consistency,
		}, nil
	}
	return map[string]any{
		"per_option_accuracy_" + pyval.Str(always): []any{qid, always, final, gt},
		"options_consistency_rate":                 consistency,
	}, nil
}

func (b bindings) nonGreedyResults(doc task.Doc, results []any) (map[string]any, error) {
	final, err := finalAnswer(doc, results, b.labels)
	if err != nil {
		return nil, err
	}
	qid := doc["question_id"]
	if qid == nil {
		return nil, fmt.Errorf("score: no question_id (KeyError)")
	}
	gt, err := label(b.labels, doc, "answer_index")
	if err != nil {
		return nil, err
	}
	if b.macro {
		c, err := category(doc)
		if err != nil {
			return nil, err
		}
		return map[string]any{"non_greedy_macro_accuracy": []any{qid, final, gt, c}}, nil
	}
	return map[string]any{"non_greedy_accuracy": []any{qid, final, gt, nil}}, nil
}

// filtered is an accuracy over the items whose element at (key) equals
// want (every item when key < 0): finals at final, golds at gt, the
// category at cat (macro accuracy) when cat >= 0.
func filteredAccuracy(items []any, n, key int, want any, final, gt, cat int) (float64, error) {
	var cats []any
	var right []bool
	k := 0
	for _, it := range items {
		t, err := tuple(it, n)
		if err != nil {
			return 0, err
		}
		if key >= 0 && !pyval.Equal(t[key], want) {
			continue
		}
		ok := pyval.Equal(t[final], t[gt])
		right = append(right, ok)
		if ok {
			k++
		}
		if cat >= 0 {
			cats = append(cats, t[cat])
		}
	}
	if cat >= 0 {
		return macroAccuracy(cats, right), nil
	}
	acc, err := accuracy(k, len(right))
	if err != nil {
		return 0, err
	}
	return npRound(acc), nil
}

func agg(name string, fn func(items []any) (float64, error)) *metrics.Aggregation {
	a := &metrics.Aggregation{Name: name, Fn: fn}
	metrics.RegisterAggregation(a)
	return a
}
