package metrics

import (
	"encoding/json"
	"os"
	"testing"
)

// testdata/sacrebleu_vectors.json holds random corpora (1-4 documents, one
// or two references, edits, block moves, case changes, and one 80-word
// shuffled pair that exercises TER's beam and repeated shifts) scored by a
// line-by-line Python transcription of sacrebleu 2.x's BLEU, chrF and TER
// code (lib_ter included), which this repository does not carry.
func TestSacrebleuVectors(t *testing.T) {
	data, err := os.ReadFile("testdata/sacrebleu_vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Hyps            []string   `json:"hyps"`
		Refs            [][]string `json:"refs"`
		BLEU, CHRF, TER float64
	}
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	for i, c := range cases {
		for _, m := range []struct {
			name string
			fn   func([]string, [][]string) (float64, error)
			want float64
		}{{"bleu", CorpusBLEU, c.BLEU}, {"chrf", CorpusCHRF, c.CHRF}, {"ter", CorpusTER, c.TER}} {
			got, err := m.fn(c.Hyps, c.Refs)
			if err != nil || !near(got, m.want, 1e-9) {
				t.Errorf("case %d %s = %v, %v; want %v\nhyps %q\nrefs %q", i, m.name, got, err, m.want, c.Hyps, c.Refs)
			}
		}
	}
}
