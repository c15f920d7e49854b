package squadv2

import (
	"encoding/json"
	"os"
	"reflect"
	"testing"

	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/harness/task"
)

// testdata/vectors.json: lm-eval's SQuAD2 class (doc_to_text,
// doc_to_target, construct_requests, process_results) and evaluate's
// squad_v2 metric as fidelity/pystubs/evaluate computes it, from
// ports/testdata/gen_class_vectors.py.
type vector struct {
	Doc          task.Doc
	Text, Target string
	Requests     []struct {
		Type      string
		Idx       int
		Arguments []any
	}
	ProcessResults []any `json:"process_results"`
	Corpus         [][]any
	Output         map[string]float64
}

func vectors(t *testing.T) []vector {
	b, err := os.ReadFile("testdata/vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var v struct{ Squadv2 []vector }
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v.Squadv2
}

func normal(v any) any {
	if s, ok := v.(interface{ SampleValue() any }); ok {
		v = s.SampleValue()
	}
	b, _ := json.Marshal(v)
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}

func TestClass(t *testing.T) {
	for _, c := range vectors(t) {
		if c.Doc == nil {
			continue
		}
		text, err := DocToText(c.Doc)
		if err != nil || text != c.Text {
			t.Errorf("doc_to_text = %q, %v; want %q", text, err, c.Text)
		}
		target, err := DocToTarget(c.Doc)
		if err != nil || target != c.Target {
			t.Errorf("doc_to_target = %q, %v; want %q", target, err, c.Target)
		}
		reqs, _ := Requests(c.Doc, "CTX", task.RequestOptions{})
		for i, r := range reqs {
			args := []any{"CTX", r.Continuation}
			if r.Type == task.OutputGenerateUntil {
				args = []any{"CTX", r.GenKwargs}
			}
			w := c.Requests[i]
			if string(r.Type) != w.Type || r.Idx != w.Idx || !reflect.DeepEqual(normal(args), normal(w.Arguments)) {
				t.Errorf("request %d: %s %d %v, want %s %d %v", i, r.Type, r.Idx, args, w.Type, w.Idx, w.Arguments)
			}
		}
		m, err := ProcessResults(c.Doc, []any{" A1", model.LoglikelihoodResult{LogProb: -0.5}})
		if err != nil {
			t.Fatal(err)
		}
		if got := normal(m["exact"]); !reflect.DeepEqual(got, normal(c.ProcessResults)) {
			t.Errorf("process_results: %v, want %v", got, c.ProcessResults)
		}
	}
}

func TestMetric(t *testing.T) {
	for _, c := range vectors(t) {
		if c.Corpus == nil {
			continue
		}
		var preds []metrics.SQuADv2Prediction
		var refs []metrics.SQuADv2Reference
		for _, q := range c.Corpus {
			id := q[0].(string)
			preds = append(preds, metrics.SQuADv2Prediction{ID: id, PredictionText: q[1].(string), NoAnswerProbability: q[2].(float64)})
			r := metrics.SQuADv2Reference{ID: id}
			for _, a := range q[3].([]any) {
				r.Answers = append(r.Answers, a.(string))
			}
			refs = append(refs, r)
		}
		got := metrics.SQuADv2(preds, refs)
		if !reflect.DeepEqual(got.Values, c.Output) {
			t.Errorf("%v:\n got %v\nwant %v", c.Corpus, got.Values, c.Output)
		}
		if len(got.Keys) != len(c.Output) {
			t.Errorf("keys %v", got.Keys)
		}
	}
}
