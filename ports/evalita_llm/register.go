package evalita_llm

import (
	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/harness/task"
)

func init() {
	for _, a := range []*metrics.Aggregation{AggSA, AggNER, AggRel, AggLS} {
		metrics.RegisterAggregation(a)
	}
	task.RegisterAggregation(task.Helper{File: "evalita_llm/metrics.py", Function: "_aggreg_sa", SHA256: "6f6187f03fa4ecfab43283e7049a509cdfd492ac45f09e120d6624d5e8b09167"}, AggSA)
	task.RegisterAggregation(task.Helper{File: "evalita_llm/metrics.py", Function: "_aggreg_ner", SHA256: "4d3a06d313b82d065e38ee63686a1a9827e16f430de8734a2dd046c0f41813bd"}, AggNER)
	task.RegisterAggregation(task.Helper{File: "evalita_llm/metrics.py", Function: "_aggreg_rel", SHA256: "07c0d85acf95466ace66ce0692c7e804bcfebc92b4b7181050af9cf02067c59b"}, AggRel)
	task.RegisterAggregation(task.Helper{File: "evalita_llm/metrics.py", Function: "_aggreg_ls", SHA256: "986e15cbe18db247cd94ac09be45fd904e33422077b33dc4bb132f8934cb4650"}, AggLS)
	task.RegisterProcessResults(task.Helper{File: "evalita_llm/sum_utils.py", Function: "process_results_sum", SHA256: "fd2d1fca8bcf19f649d0a89aae27feb29b16f018036e95d64fd275a49f553f25"}, ProcessResultsSum)
	task.RegisterDocFunc(task.Helper{File: "evalita_llm/utils.py", Function: "sa_doc_to_target", SHA256: "ee7b5ab3f971c8c5fca59f7985d8f46d5e9e943cf21baec64230dd97c76b5650"}, SADocToTarget)
	task.RegisterDocFunc(task.Helper{File: "evalita_llm/utils.py", Function: "sa_doc_to_target_v2", SHA256: "06f3d973c37fc51748a54df7216b38bc8c12ee463f1aaf78de8de02a9e38a2ac"}, SADocToTarget)
	task.RegisterDocFunc(task.Helper{File: "evalita_llm/utils.py", Function: "sa_doc_to_choice", SHA256: "15c6c43143b1f6274195202f05786eb16268308961136edfaa2a56a0b608cefd"}, SADocToChoice)
	task.RegisterDocFunc(task.Helper{File: "evalita_llm/utils.py", Function: "faq_doc_to_target", SHA256: "944abe7f87a579ff93b806cfdc1d54289c99cd1be77eea24e4ce31eb8d6eb6bb"}, FAQDocToTarget)
	task.RegisterDocFunc(task.Helper{File: "evalita_llm/utils.py", Function: "ls_doc_to_target", SHA256: "ad8025af49995fd72f5f8f0605e59cab1d4bc3bbb322d53104742ac3cd13c924"}, LSDocToTarget)
	task.RegisterProcessResults(task.Helper{File: "evalita_llm/utils.py", Function: "ls_process_results", SHA256: "63f2509e10981d1e8d3d75f9fd1b1db3d67645adc95329e3bbd13cbf5b27543d"}, LSProcessResults)
	task.RegisterDocFunc(task.Helper{File: "evalita_llm/utils.py", Function: "ner_doc_to_target", SHA256: "5027fca65cb224d2bb6b02f05b1bf4f82c2a7f1367486a0da34cc8eacb6905d8"}, NERDocToTarget)
	task.RegisterProcessResults(task.Helper{File: "evalita_llm/utils.py", Function: "ner_process_results", SHA256: "091d1a7f9182ca93a3a6396064de6eef6ae2bc138bd9020bd566e695f748be37"}, NERProcessResults)
	task.RegisterDocFunc(task.Helper{File: "evalita_llm/utils.py", Function: "re_doc_to_target", SHA256: "fd8b0c2068bfa2f28dc5ebc102a67e64af79b25f4fc4ac1adfce48ed778ec13f"}, REDocToTarget)
	task.RegisterProcessResults(task.Helper{File: "evalita_llm/utils.py", Function: "rel_process_results_v3", SHA256: "c4e3da8eafec9b2d1fcf0dd3d9b8219ef38f74d4bc4dca7ca9ea81f719bb7c9f"}, RelProcessResultsV3)
}
