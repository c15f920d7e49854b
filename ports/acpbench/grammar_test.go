package acpbench

import (
	"compress/gzip"
	"encoding/json"
	"os"
	"reflect"
	"testing"
)

// TestGrammarParse replays ACPGrammarParser's parses of many inputs
// (testdata/gen_vectors.py, with Lark).
func TestGrammarParse(t *testing.T) {
	f, err := os.Open("testdata/parses.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Inputs []string         `json:"inputs"`
		Parses map[string][]any `json:"parses"`
	}
	if err := json.NewDecoder(zr).Decode(&v); err != nil {
		t.Fatal(err)
	}
	for task, want := range v.Parses {
		bad := 0
		for i, in := range v.Inputs {
			got, err := grammarParse(task, in)
			if err != nil {
				t.Fatal(err)
			}
			if g := normalJSON(got); !reflect.DeepEqual(g, want[i]) {
				if bad++; bad <= 10 {
					t.Errorf("%s %q: got %#v, want %#v", task, in, g, want[i])
				}
			}
		}
		if bad > 0 {
			t.Errorf("%s: %d of %d parses differ", task, bad, len(v.Inputs))
		}
	}
}

func normalJSON(v any) any {
	b, _ := json.Marshal(v)
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}
