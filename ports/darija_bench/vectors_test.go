package darija_bench_test

import (
	"testing"

	_ "github.com/lmeval/lmeval/ports/darija_bench"
	"github.com/lmeval/lmeval/ports/internal/vectest"
)

// TestVectors replays lm-eval's own helpers (testdata/gen_vectors.py).
func TestVectors(t *testing.T) {
	const (
		sent = "darija_bench/darija_sentiment/utils.py:"
		summ = "darija_bench/darija_summarization/utils.py:"
		tr   = "darija_bench/darija_translation/utils.py:"
		lit  = "darija_bench/darija_transliteration/utils.py:"
	)
	vectest.Run(t, "testdata/vectors.json",
		sent+"doc_to_text", sent+"doc_to_target", sent+"doc_to_choice_2", sent+"doc_to_choice_3",
		summ+"doc_to_text", summ+"doc_to_target", summ+"strip", summ+"bert", summ+"rouge1", summ+"rougeL", summ+"rougeLsum",
		summ+"agg_rouge1", summ+"agg_rouge2", summ+"agg_rougel", summ+"agg_rougelsum", summ+"darijabert",
		tr+"doc_to_text", tr+"doc_to_target", tr+"strip", tr+"bert", tr+"dr_fr", tr+"dr_en", tr+"dr_msa", tr+"fr_dr",
		tr+"en_dr", tr+"msa_dr", tr+"camembert", tr+"darijabert", tr+"arabert", tr+"bertbase", tr+"mbert",
		lit+"doc_to_text", lit+"doc_to_target", lit+"dr_ar", lit+"ar_dr", lit+"arabizibert", lit+"mbert", lit+"darijabert")
}
