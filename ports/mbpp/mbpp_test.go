package mbpp

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"reflect"
	"testing"

	"github.com/lmeval/lmeval/internal/codeexec"
	"github.com/lmeval/lmeval/ports/internal/pysource"
	"github.com/lmeval/lmeval/python/pyval"
)

// vectors are lm-eval's own outputs (testdata/gen.py).
type vectors struct {
	File              string            `json:"file"`
	Sources           map[string]string `json:"sources"`
	ExtractCodeBlocks []struct {
		Text string `json:"text"`
		Out  string `json:"out"`
	} `json:"extract_code_blocks"`
	BuildPredictions struct {
		Resps [][]string       `json:"resps"`
		Docs  []map[string]any `json:"docs"`
		Out   [][]string       `json:"out"`
	} `json:"build_predictions"`
	ListFewshotSamples json.RawMessage `json:"list_fewshot_samples"`
}

func load(t *testing.T) *vectors {
	t.Helper()
	b, err := os.ReadFile("testdata/vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var v vectors
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return &v
}

func TestSources(t *testing.T) {
	v := load(t)
	pysource.VerifyRecordedAll(t, Sources, v.File, v.Sources)
}

func TestExtractCodeBlocks(t *testing.T) {
	v := load(t)
	if len(v.ExtractCodeBlocks) < 300 {
		t.Fatalf("%d vectors", len(v.ExtractCodeBlocks))
	}
	for i, c := range v.ExtractCodeBlocks {
		if got := ExtractCodeBlocks(c.Text); got != c.Out {
			t.Errorf("vector %d: extract_code_blocks(%q) = %q, want %q", i, c.Text, got, c.Out)
		}
	}
}

func TestBuildPredictions(t *testing.T) {
	b := load(t).BuildPredictions
	got, err := BuildPredictions(b.Resps, b.Docs)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, b.Out) {
		t.Errorf("build_predictions = %q\nwant %q", got, b.Out)
	}
}

func TestListFewshotSamples(t *testing.T) {
	var want any
	if err := json.Unmarshal(load(t).ListFewshotSamples, &want); err != nil {
		t.Fatal(err)
	}
	docs, err := ListFewshotSamples()
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(docs)
	if err != nil {
		t.Fatal(err)
	}
	var got any
	json.Unmarshal(b, &got)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("list_fewshot_samples = %s\nwant %s", b, load(t).ListFewshotSamples)
	}
	// Python's reprs of the documents agree too (ints stay ints).
	if s := pyval.Repr(docs[0]["task_id"]); s != "2" {
		t.Errorf("task_id repr %s", s)
	}
}

func TestPassAt1(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	ctx := codeexec.WithConsent(context.Background(), codeexec.Consent{})
	fs, _ := ListFewshotSamples()
	ref := "assert is_not_prime(2) == False\nassert is_not_prime(10) == True\nassert is_not_prime(35) == True"
	for _, c := range []struct {
		code string
		want float64
	}{
		{fs[1]["code"].(string), 1},
		{"def is_not_prime(n):\n    return True", 0},
		{"", 0},
	} {
		got, err := PassAt1(ctx, []string{ref}, [][]string{{c.code}})
		if err != nil {
			t.Fatal(err)
		}
		if got != c.want {
			t.Errorf("pass_at_1(%q) = %v, want %v", c.code, got, c.want)
		}
	}
	if _, err := PassAt1(ctx, []string{ref}, [][]string{{}}); err == nil {
		t.Error("no candidate: want an error, as lm-eval's KeyError")
	}
}
