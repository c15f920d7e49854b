// Package darija_bench ports lm_eval/tasks/darija_bench's utils.py files
// (sentiment, summarization, translation, transliteration): prompts and
// targets from the chat messages, the translation direction filters, the
// STRIP_ANSWER filter and the per-document metric functions.
//
// Every summarization, translation and transliteration task aggregates
// BERTScore (Hugging Face evaluate's bertscore over a BERT model:
// DarijaBERT, mBERT, AraBERT, CamemBERT, ...), which needs the neural
// model run by Python's bert_score: lmeval cannot compute it, so those
// aggregations are registered unavailable (task.RegisterUnavailable) and the tasks say why.
// Only the sentiment tasks run.
package darija_bench

import (
	"fmt"
	"strings"

	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/pydoc"
	"github.com/lmeval/lmeval/python/pyre"
	"github.com/lmeval/lmeval/python/pyval"
)

// Message is doc["messages"][i]["content"], as a string.
func Message(doc task.Doc, i int) (string, error) {
	m, err := pydoc.Field(doc, "messages")
	if err != nil {
		return "", err
	}
	l, ok := m.([]any)
	if !ok {
		return "", fmt.Errorf("messages is %s, want a list", pyval.Repr(m))
	}
	if i >= len(l) {
		return "", fmt.Errorf("IndexError: messages[%d] of %d", i, len(l))
	}
	d, ok := l[i].(map[string]any)
	if !ok {
		return "", fmt.Errorf("messages[%d] is %s, want a dict", i, pyval.Repr(l[i]))
	}
	return pydoc.GetStr(d, "content")
}

// DocToText is translation's and transliteration's doc_to_text: the user
// message.
func DocToText(doc task.Doc) (string, error) { return Message(doc, 0) }

// DocToTarget is doc_to_target (summarization, translation,
// transliteration): the assistant's message.
func DocToTarget(doc task.Doc) (string, error) { return Message(doc, 1) }

// SummarizationText is summarization's doc_to_text: the user message,
// asking for 30 words.
func SummarizationText(doc task.Doc) (string, error) {
	s, err := Message(doc, 0)
	if err != nil {
		return "", err
	}
	return strings.ReplaceAll(s, "لخص هاد المقطع", "لخص هاد المقطع في ٣٠ كلمة"), nil
}

var (
	sentimentAlpha = []any{"A", "B", "C"}
	sentimentOut   = map[string]int{"ايجابي": 1, "سلبي": 0, "ماكينش إحساس": 2}
)

// SentimentText is sentiment's doc_to_text: the labels of the user
// message lettered A to C.
func SentimentText(doc task.Doc) (string, error) {
	s, err := Message(doc, 0)
	if err != nil {
		return "", err
	}
	s = strings.ReplaceAll(s, "-سلبي", "A. سلبي")
	s = strings.ReplaceAll(s, "-ايجابي", "B. ايجابي")
	return strings.ReplaceAll(s, "-ماكينش إحساس", "C. ماكينش إحساس\nThe answer should be strictly one letter of the following: A, B, C."), nil
}

// SentimentTarget is sentiment's doc_to_target: the letter of the
// assistant's label.
func SentimentTarget(doc task.Doc) (any, error) {
	s, err := Message(doc, 1)
	if err != nil {
		return nil, err
	}
	i, ok := sentimentOut[s]
	if !ok {
		return nil, fmt.Errorf("KeyError: %s", pyval.Repr(s))
	}
	return sentimentAlpha[i], nil
}

// Strip is the STRIP_ANSWER filter's filter_fn: each document's first
// response, stripped.
func Strip(resps []any, _ []map[string]any) ([]any, error) {
	out := make([]any, len(resps))
	for i, r := range resps {
		var first any
		switch x := r.(type) {
		case []any:
			if len(x) == 0 {
				return nil, fmt.Errorf("strip: IndexError: document %d has no response", i)
			}
			first = x[0]
		case string: // r[0] of a string is its first character
			if x == "" {
				return nil, fmt.Errorf("strip: IndexError: document %d: empty string", i)
			}
			first = string([]rune(x)[:1])
		default:
			return nil, fmt.Errorf("strip: document %d: responses are %T", i, r)
		}
		s, ok := first.(string)
		if !ok {
			return nil, fmt.Errorf("strip: document %d: response is %T, not a str", i, first)
		}
		out[i] = pyre.Strip(s)
	}
	return out, nil
}

// Items is bert, rouge1, rougeL and rougeLsum (`return items`): lm-eval
// calls them with references= and predictions=, which they do not take,
// and on the TypeError with [gold, result], which they return.
func Items(_ metrics.Spec, d *metrics.DocResult) (any, error) {
	if len(d.Golds) != 1 {
		return nil, fmt.Errorf("%d targets, want one", len(d.Golds))
	}
	return []any{d.Golds[0], d.Result}, nil
}

// bertScore is why an aggregation computing BERTScore with model cannot
// run (task.RegisterUnavailable).
func bertScore(model string) string {
	return fmt.Sprintf("its aggregation is BERTScore F1 with the neural model %s "+
		"(Hugging Face evaluate's bertscore runs the model in Python); lmeval cannot compute BERTScore", model)
}

// rouge is why summarization's ROUGE aggregations cannot run.
const rouge = "ROUGE as Hugging Face evaluate computes it (rouge_score, " +
	"bootstrap-aggregated with numpy's random generator) is not ported: darija_summarization also needs BERTScore, which lmeval cannot compute"

// Direction is a translation direction's process_docs:
// dataset.filter(lambda x: x["direction"] == direction).
func Direction(direction string) task.ProcessDocsFunc {
	return func(docs []task.Doc) ([]task.Doc, error) { return pydoc.FilterEq(docs, "direction", direction) }
}
