package task

import (
	"context"
	"errors"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/harness/model"
)

// testClass is a native class port as a port package registers one (for
// a file lm-eval's tree does not have, so no sha256 is checked).
var testClass = &Class{
	File: "testclass/task.py", Name: "Echo", Version: 7,
	Setup: func(c *Config) error {
		c.DatasetPath, c.DatasetName = "hub/echo", "default"
		c.ValidationSplit = "validation"
		c.DocToText = ClassDocFunc("task.Echo.doc_to_text", func(d Doc) (any, error) { return "Q: " + d["q"].(string), nil })
		c.DocToTarget = ClassDocFunc("task.Echo.doc_to_target", func(d Doc) (any, error) { return " " + d["a"].(string), nil })
		c.ProcessResults = ClassProcessResults("task.Echo.process_results", func(Doc, []any) (map[string]any, error) { return map[string]any{"m": 1}, nil })
		m, err := ClassMetric("m", "mean", true)
		c.Metrics = []metrics.Spec{m}
		return err
	},
	Requests: func(d Doc, ctx string, o RequestOptions) ([]ClassRequest, error) {
		return []ClassRequest{
			{Type: OutputGenerateUntil, GenKwargs: map[string]any{"until": []any{"\n"}, "max_gen_toks": o.GenKwargs["max_gen_toks"]}},
			{Type: OutputLoglikelihood, Continuation: " no"},
		}, nil
	},
}

func init() { RegisterClass(testClass) }

func classRegistry(t *testing.T) *Registry {
	t.Helper()
	fsys := fstest.MapFS{
		"testclass/echo.yaml":    {Data: []byte("task: echo\nclass: !function task.Echo\nnum_fewshot: 3\ndoc_to_text: ignored\n")},
		"testclass/missing.yaml": {Data: []byte("task: nope\nclass: !function task.Missing\n")},
		"local/echo_local.yaml":  {Data: []byte("include: ../testclass/echo.yaml\ntask: echo_local\ndataset_path: json\ndataset_name: null\ndataset_kwargs:\n  data_files:\n    validation: v.jsonl\n")},
		"unitxt/task.py":         {Data: []byte("")},
		"unitxt/ag_news.yaml":    {Data: []byte("task: ag_news\nclass: !function task.Unitxt\n")},
		"mm/img.yaml":            {Data: []byte("task: img\ndataset_path: x\ntest_split: test\ndoc_to_text: q\ndoc_to_target: a\ndoc_to_image: !function utils.img\n")},
		"mm/av.yaml":             {Data: []byte("task: av\ndataset_path: x\ntest_split: test\ndoc_to_text: q\ndoc_to_target: a\ndoc_to_image: [img]\ndoc_to_audio: audio\n")},
	}
	r := NewRegistry()
	if err := r.AddFS("", fsys); err != nil {
		t.Fatal(err)
	}
	return r
}

func TestClassTask(t *testing.T) {
	r := classRegistry(t)
	tk := loadOne(t, r, "echo").Tasks()[0]
	c := tk.Config
	if c.Class != testClass || c.Version() != 7 || c.DatasetPath != "hub/echo" || c.NumFewshot != nil {
		t.Fatalf("config %+v: the class's, not the YAML's", c)
	}
	var specs []DatasetSpec
	loader := func(_ context.Context, spec DatasetSpec, split string) ([]Doc, error) {
		specs = append(specs, spec)
		return []Doc{{"q": "one", "a": "1"}, {"q": "two", "a": "2"}}, nil
	}
	if err := tk.BuildRequests(context.Background(), BuildOptions{Loader: loader, GenKwargs: map[string]any{"max_gen_toks": 9}}); err != nil {
		t.Fatal(err)
	}
	if specs[0].Path != "hub/echo" || specs[0].Name != "default" {
		t.Errorf("dataset %+v", specs[0])
	}
	if len(tk.Instances) != 4 {
		t.Fatalf("%d requests, want 2 per document", len(tk.Instances))
	}
	g, ll := tk.Instances[2], tk.Instances[3]
	if g.Type != OutputGenerateUntil || g.DocID != 1 || g.Generate.Context != "Q: two" || g.Generate.MaxGenToks != 9 ||
		g.Generate.Until[0] != "\n" || g.GenKwargs["max_gen_toks"] != 9 {
		t.Errorf("generation %+v", g)
	}
	if ll.Type != OutputLoglikelihood || ll.Loglikelihood != (model.LoglikelihoodRequest{Context: "Q: two", Continuation: " no"}) {
		t.Errorf("log-likelihood %+v", ll)
	}
	if tk.Docs[1].Target != " 2" {
		t.Errorf("target %v", tk.Docs[1].Target)
	}
	err := tk.BuildRequests(context.Background(), BuildOptions{Loader: loader, NumFewshot: intp(1)})
	if err == nil || !strings.Contains(err.Error(), "TypeError") {
		t.Errorf("few-shot: %v, want lm-eval's TypeError explained", err)
	}

	// A wrapper's dataset keys replace the class's.
	lc := loadOne(t, r, "echo_local").Tasks()[0].Config
	if lc.DatasetPath != "json" || lc.DatasetName != "" || lc.DatasetKwargs["data_files"] == nil || lc.Class != testClass {
		t.Errorf("wrapper config %+v", lc)
	}
}

func TestUnavailableClassesAndMultimodal(t *testing.T) {
	r := classRegistry(t)
	for name, want := range map[string]string{
		"nope":    "it is implemented by a Python class (task.Missing) that lmeval has no native port of",
		"ag_news": "needs the unitxt Python package, which lmeval does not reimplement",
		"img":     "multimodal (images): lmeval evaluates text-only models",
		"av":      "multimodal (images and audio): lmeval evaluates text-only models",
	} {
		_, err := r.Load([]string{name})
		var ue *UnavailableError
		if !errors.As(err, &ue) || ue.Reason != want {
			t.Errorf("%s: %v, want %q", name, err, want)
		}
	}
}
