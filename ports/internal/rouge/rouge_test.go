package rouge

import (
	"encoding/json"
	"os"
	"slices"
	"testing"

	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/python/nprand"
)

// TestVectors replays testdata/gen.py: rouge_score's tokenizer and
// evaluate's bootstrap rouge1 with numpy's legacy generator.
func TestVectors(t *testing.T) {
	b, err := os.ReadFile("testdata/vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Tokenize []struct {
			Text   string   `json:"text"`
			Tokens []string `json:"tokens"`
		} `json:"tokenize"`
		Rouge1 []struct {
			Refs   []string `json:"refs"`
			Preds  []string `json:"preds"`
			Seed   uint32   `json:"seed"`
			Rouge1 float64  `json:"rouge1"`
		} `json:"rouge1"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	for _, c := range v.Tokenize {
		if got := metrics.RougeTokenize(c.Text); !slices.Equal(got, c.Tokens) && !(len(got) == 0 && len(c.Tokens) == 0) {
			t.Errorf("Tokenize(%q) = %q, want %q", c.Text, got, c.Tokens)
		}
	}
	for i, c := range v.Rouge1 {
		if got := EvaluateRouge1(c.Refs, c.Preds, nprand.New(c.Seed)); got != c.Rouge1 {
			t.Errorf("case %d (%d docs, seed %d): rouge1 %v, want %v", i, len(c.Refs), c.Seed, got, c.Rouge1)
		}
	}
}
