package bbq

import (
	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/harness/task"
)

// The aggregations, registered with the metrics package under their file
// and function; the YAML's `aggregation: !function utils.…` resolves to
// them. lm-eval gives a custom aggregation no standard error.
var (
	AccuracyAmb      = &metrics.Aggregation{Name: "bbq/utils.py:agg_accuracy_amb", Fn: AggAccuracyAmb}
	AccuracyDisamb   = &metrics.Aggregation{Name: "bbq/utils.py:agg_accuracy_disamb", Fn: AggAccuracyDisamb}
	AmbBiasScores    = &metrics.Aggregation{Name: "bbq/utils.py:agg_amb_bias_scores", Fn: AggAmbBiasScores}
	DisambBiasScores = &metrics.Aggregation{Name: "bbq/utils.py:agg_disamb_bias_scores", Fn: AggDisambBiasScores}
)

// addedColumns are the columns process_docs adds, in its order.
var addedColumns = []string{"biased_answers", "ans0_groups", "ans1_groups", "ans2_groups"}

func init() {
	for _, a := range []*metrics.Aggregation{AccuracyAmb, AccuracyDisamb, AmbBiasScores, DisambBiasScores} {
		metrics.RegisterAggregation(a)
	}
	task.RegisterAggregation(task.Helper{File: "bbq/utils.py", Function: "agg_accuracy_amb", SHA256: "08164fec9f64268ee30a081e13a50121d60a0e4e20c1b4f17f2ef8e2bed42d7e"}, AccuracyAmb)
	task.RegisterAggregation(task.Helper{File: "bbq/utils.py", Function: "agg_accuracy_disamb", SHA256: "95183eecdd9c2e5e15c2f6e65a9084841a285fedc07e35c97f869bb5c5194880"}, AccuracyDisamb)
	task.RegisterAggregation(task.Helper{File: "bbq/utils.py", Function: "agg_amb_bias_scores", SHA256: "345f385ccb3938307d0a9a50e34cd7c2a2d29d0e2fa30614bf83803121e4c340"}, AmbBiasScores)
	task.RegisterAggregation(task.Helper{File: "bbq/utils.py", Function: "agg_disamb_bias_scores", SHA256: "b67ac04d0147c6d2850a8f666681bbf26b2bf759921441a8de0d820b1b53c89f"}, DisambBiasScores)
	task.RegisterDocFunc(task.Helper{File: "bbq/utils.py", Function: "doc_to_choice", SHA256: "8c4eee808aa3c8fa18e454549dcee75766a5180fd63e2712000e7a5be9df7bc5"}, DocToChoice)
	task.RegisterDocFunc(task.Helper{File: "bbq/utils.py", Function: "doc_to_target", SHA256: "d11a6ae079c5c40371e28f5e142340a8c14ca307920dca2335b6d04571db2295"}, DocToTarget)
	task.RegisterMapDocs(task.Helper{File: "bbq/utils.py", Function: "process_docs", SHA256: "3d9539fd19e66364cd54d76012cf2003ca1231bab447823b3b4baaf0e3a0f9bf"}, task.MapDocs{Fn: ProcessDocs, Columns: addedColumns})
	task.RegisterMapDocs(task.Helper{File: "bbq/utils.py", Function: "process_docs_ambig", SHA256: "aeda68782ca537b8dc87ed01c36158b9ead755af4f8476fc5f514666807391a0"}, task.MapDocs{Fn: ProcessDocsAmbig, Columns: addedColumns})
	task.RegisterMapDocs(task.Helper{File: "bbq/utils.py", Function: "process_docs_disambig", SHA256: "c8b204a7ef8668b0a9c15ddb60f032b753de451516bc5139534009968e0de666"}, task.MapDocs{Fn: ProcessDocsDisambig, Columns: addedColumns})
	task.RegisterProcessResults(task.Helper{File: "bbq/utils.py", Function: "process_results_multiple_choice", SHA256: "d09bdfd5fec18a095b05948a4e3264981e40f49f671b5f41714dde2ef06fd8a9"}, ProcessResultsMultipleChoice)
	task.RegisterProcessResults(task.Helper{File: "bbq/utils.py", Function: "process_results_generate_until", SHA256: "31a3a28d305a2d368d8bfee6093d44a16ba589baf78e06c63a7787d790e1b6fd"}, ProcessResultsGenerateUntil)
}
