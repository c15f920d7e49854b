package scrolls

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"reflect"
	"testing"

	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/harness/task"
)

// vectors are testdata/vectors.json, from lm-eval's scrolls/task.py
// (ports/testdata/gen_class_vectors.py).
type vectors struct {
	Dedupe []struct {
		Input, Output []task.Doc
	}
	ProcessDoc []struct {
		Class  string
		Input  task.Doc
		Output []task.Doc
		Error  string
	} `json:"process_doc"`
	Prompt []struct {
		Class        string
		Doc          task.Doc
		Text, Target string
	}
	Requests []struct {
		Class  string
		Doc    task.Doc
		Chat   bool
		Output []struct {
			Type      string
			Idx       int
			Arguments []any
		}
	}
	ProcessResults []struct {
		Class   string
		Doc     task.Doc
		Results []any
		Output  map[string]any
		Error   string
	} `json:"process_results"`
	Aggregate []struct {
		Config string
		Pairs  [][]any
		Output map[string]float64
	}
}

// load decodes JSON with Python's number types: integers as int64 (as
// documents are loaded), other numbers as float64.
func load(t *testing.T) *vectors {
	t.Helper()
	b, err := os.ReadFile("testdata/vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var raw any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&raw); err != nil {
		t.Fatal(err)
	}
	fixed, _ := json.Marshal(raw)
	var v vectors
	if err := json.Unmarshal(fixed, &v); err != nil {
		t.Fatal(err)
	}
	walk := func(d task.Doc) { numbers(d) }
	for _, x := range v.Dedupe {
		for _, d := range append(x.Input, x.Output...) {
			walk(d)
		}
	}
	for i := range v.ProcessDoc {
		walk(v.ProcessDoc[i].Input)
		for _, d := range v.ProcessDoc[i].Output {
			walk(d)
		}
	}
	for i := range v.ProcessResults {
		walk(v.ProcessResults[i].Doc)
	}
	return &v
}

// numbers turns whole float64s of a decoded document into int64.
func numbers(v any) any {
	switch x := v.(type) {
	case task.Doc:
		for k, e := range x {
			x[k] = numbers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = numbers(e)
		}
	case float64:
		if x == math.Trunc(x) {
			return int64(x)
		}
	}
	return v
}

func kindOf(t *testing.T, name string) *kind {
	t.Helper()
	for _, k := range kinds {
		if k.name == name {
			return k
		}
	}
	t.Fatalf("no class %s", name)
	return nil
}

// normal is v as JSON would decode it, numbers as int64 when whole.
func normal(v any) any {
	if s, ok := v.(interface{ SampleValue() any }); ok {
		v = s.SampleValue()
	}
	b, _ := json.Marshal(v)
	var out any
	_ = json.Unmarshal(b, &out)
	return numbers(out)
}

func TestDropDuplicatesInInput(t *testing.T) {
	for _, c := range load(t).Dedupe {
		got, err := DropDuplicatesInInput(c.Input)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(normal(got), normal(c.Output)) {
			t.Errorf("got %v\nwant %v", got, c.Output)
		}
	}
}

func TestProcessDoc(t *testing.T) {
	for _, c := range load(t).ProcessDoc {
		k := kindOf(t, c.Class)
		got, err := k.processDoc, error(nil)
		var doc task.Doc
		if got == nil {
			doc = c.Input
		} else {
			doc, err = got(c.Input)
		}
		if c.Error != "" {
			if err == nil {
				t.Errorf("%s %v: no error, lm-eval raises %s", c.Class, c.Input["input"], c.Error)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s %v: %v", c.Class, c.Input["input"], err)
			continue
		}
		if !reflect.DeepEqual(normal(doc), normal(c.Output[0])) {
			t.Errorf("%s %q:\n got %v\nwant %v", c.Class, c.Input["input"], normal(doc), normal(c.Output[0]))
		}
	}
}

func TestPrompts(t *testing.T) {
	for _, c := range load(t).Prompt {
		k := kindOf(t, c.Class)
		text, err := k.docToText(c.Doc)
		if err != nil || text != c.Text {
			t.Errorf("%s doc_to_text = %q, %v; want %q", c.Class, text, err, c.Text)
		}
		target, err := docToTarget(c.Doc)
		if err != nil || target != c.Target {
			t.Errorf("%s doc_to_target = %q, %v; want %q", c.Class, target, err, c.Target)
		}
	}
}

func TestRequests(t *testing.T) {
	for _, c := range load(t).Requests {
		k := kindOf(t, c.Class)
		reqs, err := k.requests(c.Doc, task.RequestOptions{ChatTemplate: c.Chat})
		if err != nil {
			t.Fatal(err)
		}
		if len(reqs) != len(c.Output) {
			t.Errorf("%s %v chat=%v: %d requests, want %d", c.Class, c.Doc, c.Chat, len(reqs), len(c.Output))
			continue
		}
		for i, r := range reqs {
			w := c.Output[i]
			var args []any
			if r.Type == task.OutputLoglikelihood {
				args = []any{"CTX", r.Continuation}
			} else {
				args = []any{"CTX", r.GenKwargs}
			}
			if string(r.Type) != w.Type || r.Idx != w.Idx || !reflect.DeepEqual(normal(args), normal(w.Arguments)) {
				t.Errorf("%s %v chat=%v request %d: %s %d %v, want %s %d %v", c.Class, c.Doc, c.Chat, i, r.Type, r.Idx, args, w.Type, w.Idx, w.Arguments)
			}
		}
	}
}

func results(t *testing.T, rs []any) []any {
	out := make([]any, len(rs))
	for i, r := range rs {
		if l, ok := r.([]any); ok {
			ll, _ := l[0].(float64)
			if n, ok := l[0].(int64); ok {
				ll = float64(n)
			}
			out[i] = model.LoglikelihoodResult{LogProb: ll, IsGreedy: l[1].(bool)}
		} else {
			out[i] = r
		}
	}
	return out
}

func TestProcessResults(t *testing.T) {
	for _, c := range load(t).ProcessResults {
		k := kindOf(t, c.Class)
		got, err := k.process(c.Doc, results(t, c.Results))
		if err != nil {
			t.Errorf("%s %v: %v", c.Class, c.Results, err)
			continue
		}
		g := map[string]any{}
		for m, v := range got {
			g[m] = normal(v)
		}
		if !reflect.DeepEqual(g, normal(c.Output)) {
			t.Errorf("%s %v %v:\n got %v\nwant %v", c.Class, c.Doc, c.Results, g, c.Output)
		}
	}
}

func TestMetric(t *testing.T) {
	for _, c := range load(t).Aggregate {
		ps := make([]Pair, len(c.Pairs))
		for i, p := range c.Pairs {
			ps[i].Pred = p[0].(string)
			for _, r := range p[1].([]any) {
				ps[i].Refs = append(ps[i].Refs, r.(string))
			}
		}
		got := map[string]float64{}
		if c.Config == "qasper" {
			got["f1"] = F1(ps)
		} else {
			got = Rouge(ps)
		}
		if !reflect.DeepEqual(got, c.Output) {
			t.Errorf("%s over %d pairs: got %v, want %v", c.Config, len(ps), got, c.Output)
		}
	}
}
