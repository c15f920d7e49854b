package nprand

import (
	"encoding/json"
	"os"
	"slices"
	"testing"
)

// TestChoice replays numpy's np.random.seed(s) then successive
// np.random.choice(np.arange(n), size) calls (testdata/gen.py).
func TestChoice(t *testing.T) {
	b, err := os.ReadFile("testdata/vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var vs []struct {
		Seed  uint32 `json:"seed"`
		Draws []struct {
			N      int   `json:"n"`
			Choice []int `json:"choice"`
		} `json:"draws"`
	}
	if err := json.Unmarshal(b, &vs); err != nil {
		t.Fatal(err)
	}
	for _, v := range vs {
		r := New(v.Seed)
		for _, d := range v.Draws {
			if got := r.Choice(d.N, len(d.Choice)); !slices.Equal(got, d.Choice) {
				t.Errorf("seed %d, n %d: %v, numpy %v", v.Seed, d.N, got, d.Choice)
			}
		}
	}
}
