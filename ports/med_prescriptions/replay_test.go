package med_prescriptions

import (
	"encoding/json"
	"os"
	"reflect"
	"testing"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/python/pyrand"
)

// TestReplay replays lm-eval's draws (testdata/gen_vectors.py ran
// process_docs after random.seed, then the helpers in lm-eval's call
// order): the kept documents, each one's prompt and request choices.
func TestReplay(t *testing.T) {
	b, err := os.ReadFile("testdata/replay.json")
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Runs []struct {
			Seed    int64      `json:"seed"`
			Variant string     `json:"variant"`
			Docs    []task.Doc `json:"docs"`
			Kept    []any      `json:"kept"`
			Texts   []string   `json:"texts"`
			Choices []any      `json:"choices"`
		} `json:"runs"`
		ErrorDocs []task.Doc `json:"error_docs"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	for _, run := range v.Runs {
		kept, err := ProcessDocs(run.Docs, pyrand.NewModule(run.Seed))
		if err != nil {
			t.Fatalf("seed %d: %v", run.Seed, err)
		}
		if g := normal(kept); !reflect.DeepEqual(g, normal(run.Kept)) {
			t.Errorf("seed %d %s: kept\n got %v\nwant %v", run.Seed, run.Variant, g, run.Kept)
			continue
		}
		text, choice := docText(run.Variant), docChoice(run.Variant)
		var texts []string
		var choices []any
		for _, d := range kept {
			x, err := text(d)
			if err != nil {
				t.Fatal(err)
			}
			c, err := choice(d)
			if err != nil {
				t.Fatal(err)
			}
			texts = append(texts, x.(string))
			choices = append(choices, c)
		}
		if !reflect.DeepEqual(texts, run.Texts) {
			t.Errorf("seed %d %s: texts\n got %q\nwant %q", run.Seed, run.Variant, texts, run.Texts)
		}
		if g := normal(choices); !reflect.DeepEqual(g, normal(run.Choices)) {
			t.Errorf("seed %d %s: choices\n got %v\nwant %v", run.Seed, run.Variant, g, run.Choices)
		}
	}
	for _, d := range v.ErrorDocs {
		if _, err := ProcessDocs([]task.Doc{d}, pyrand.NewModule(0)); err == nil {
			t.Errorf("%v: want an error, as process_docs raises", d["results"])
		}
	}
}

func normal(v any) any {
	b, _ := json.Marshal(v)
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}
