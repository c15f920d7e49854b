// Package squadv2 ports lm-eval's squadv2/task.py: the SQuAD2 class
// (SQuAD 2.0, generation plus the log-likelihood of " unanswerable"),
// scored by Hugging Face evaluate's squad_v2 metric (harness/metrics
// SQuADv2), as a native class task.
package squadv2

import (
	"fmt"
	"math"

	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/harness/results"
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/pydoc"
	"github.com/lmeval/lmeval/python/pyval"
)

// Metrics are the class's metrics, in process_results' (and
// aggregation()'s) order.
var Metrics = []string{"exact", "f1", "HasAns_exact", "HasAns_f1", "NoAns_exact", "NoAns_f1", "best_exact", "best_f1"}

// answerTexts is doc["answers"]["text"].
func answerTexts(doc task.Doc) ([]string, error) {
	a, ok := doc["answers"].(map[string]any)
	if !ok {
		return nil, fmt.Errorf("document field \"answers\" is %s, not a dict", pyval.Repr(doc["answers"]))
	}
	l, ok := a["text"].([]any)
	if !ok {
		return nil, fmt.Errorf("answers[\"text\"] is %s, not a list", pyval.Repr(a["text"]))
	}
	out := make([]string, len(l))
	for i, e := range l {
		if out[i], ok = e.(string); !ok {
			return nil, fmt.Errorf("answers[\"text\"][%d] is %s, not a string", i, pyval.Repr(e))
		}
	}
	return out, nil
}

// DocToText is SQuAD2.doc_to_text.
func DocToText(doc task.Doc) (any, error) {
	var parts [3]string
	for i, k := range []string{"title", "context", "question"} {
		s, err := pydoc.String(doc, k)
		if err != nil {
			return nil, err
		}
		parts[i] = s
	}
	return "Title: " + parts[0] + "\n\n" + "Background: " + parts[1] + "\n\n" + "Question: " + parts[2] + "\n\n" + "Answer:", nil
}

// DocToTarget is SQuAD2.doc_to_target: the first answer, or
// "unanswerable", after a space.
func DocToTarget(doc task.Doc) (any, error) {
	answers, err := answerTexts(doc)
	if err != nil {
		return nil, err
	}
	if len(answers) > 0 {
		return " " + answers[0], nil
	}
	return " unanswerable", nil
}

// Requests is SQuAD2.construct_requests: a generation until "\n" and the
// log-likelihood of " unanswerable", both idx 0.
func Requests(task.Doc, string, task.RequestOptions) ([]task.ClassRequest, error) {
	return []task.ClassRequest{
		{Type: task.OutputGenerateUntil, GenKwargs: map[string]any{"until": []any{"\n"}}},
		{Type: task.OutputLoglikelihood, Continuation: " unanswerable"},
	}, nil
}

// Item is one document's (predictions, references) pair, each metric's
// per-document value.
type Item struct {
	Pred metrics.SQuADv2Prediction
	Ref  metrics.SQuADv2Reference
	// Answers is doc["answers"] as logged.
	Answers map[string]any
}

// SampleValue is the pair as lm-eval logs it: [{"id", "prediction_text",
// "no_answer_probability"}, {"id", "answers"}].
func (it Item) SampleValue() any {
	p := results.NewOrderedMap[any]()
	p.Set("id", it.Pred.ID)
	p.Set("prediction_text", it.Pred.PredictionText)
	p.Set("no_answer_probability", it.Pred.NoAnswerProbability)
	r := results.NewOrderedMap[any]()
	r.Set("id", it.Ref.ID)
	r.Set("answers", results.OrderDoc(it.Answers, pyval.ColumnsOf("text", "answer_start")))
	return []any{p, r}
}

// ProcessResults is SQuAD2.process_results.
func ProcessResults(doc task.Doc, res []any) (map[string]any, error) {
	if len(res) != 2 {
		return nil, fmt.Errorf("%d results, want a generation and a log-likelihood", len(res))
	}
	cont, ok := res[0].(string)
	if !ok {
		return nil, fmt.Errorf("result 0 is %T, not a generation", res[0])
	}
	ll, ok := res[1].(model.LoglikelihoodResult)
	if !ok {
		return nil, fmt.Errorf("result 1 is %T, not a log-likelihood", res[1])
	}
	id, err := pydoc.String(doc, "id")
	if err != nil {
		return nil, err
	}
	answers, err := answerTexts(doc)
	if err != nil {
		return nil, err
	}
	it := Item{
		Pred:    metrics.SQuADv2Prediction{ID: id, PredictionText: cont, NoAnswerProbability: math.Exp(ll.LogProb)},
		Ref:     metrics.SQuADv2Reference{ID: id, Answers: answers},
		Answers: doc["answers"].(map[string]any),
	}
	out := make(map[string]any, len(Metrics))
	for _, m := range Metrics {
		out[m] = it
	}
	return out, nil
}

// aggregation is _squad_agg(key): the squad_v2 metric over every
// document, its key (0 when the metric has none: HasAns_ with no
// answerable question, NoAns_ with no unanswerable one).
func aggregation(key string) func([]any) (float64, error) {
	return func(items []any) (float64, error) {
		preds := make([]metrics.SQuADv2Prediction, len(items))
		refs := make([]metrics.SQuADv2Reference, len(items))
		for i, v := range items {
			it, ok := v.(Item)
			if !ok {
				return 0, fmt.Errorf("squad_v2 %s: value %d is %T", key, i, v)
			}
			preds[i], refs[i] = it.Pred, it.Ref
		}
		return metrics.SQuADv2(preds, refs).Values[key], nil
	}
}

func aggName(m string) string { return "squadv2:" + m }

func init() {
	for _, m := range Metrics {
		metrics.RegisterAggregation(&metrics.Aggregation{Name: aggName(m), Fn: aggregation(m)})
	}
}

// Class is the port of squadv2/task.py:SQuAD2.
var Class = &task.Class{
	File: "squadv2/task.py", Name: "SQuAD2", Version: 3,
	SHA256: "da1dd99feb2c4714498f66bd8e384bcc5e71a77f845b941ad3bfda1673c07461",
	Setup: func(c *task.Config) error {
		c.DatasetPath, c.DatasetName = "lighteval/squad_v2", ""
		c.TrainingSplit, c.ValidationSplit = "train", "validation"
		c.DocToText = task.ClassDocFunc("task.SQuAD2.doc_to_text", DocToText)
		c.DocToTarget = task.ClassDocFunc("task.SQuAD2.doc_to_target", DocToTarget)
		c.ProcessResults = task.ClassProcessResults("task.SQuAD2.process_results", ProcessResults)
		c.Metrics = nil
		for _, m := range Metrics {
			s, err := task.ClassMetric(m, aggName(m), true)
			if err != nil {
				return err
			}
			c.Metrics = append(c.Metrics, s)
		}
		return nil
	},
	Requests: Requests,
}
