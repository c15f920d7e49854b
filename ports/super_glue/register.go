package super_glue

import (
	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/harness/task"
)

func init() {
	for _, a := range []*metrics.Aggregation{CBMultiF1, AggMean3ClassF1, MultircAggF1, MultircAggEM, SquadEMAgg, SquadF1Agg} {
		metrics.RegisterAggregation(a)
	}
	doc := func(f func(task.Doc) (any, error)) task.DocFunc { return f }
	task.RegisterAggregation(task.Helper{File: "super_glue/cb/aggregate.py", Function: "cb_multi_fi", SHA256: "e252a347550686735dcba596c4681a172999c12da92c9acbf171b874d682c1e5"}, CBMultiF1)
	task.RegisterMetric(task.Helper{File: "super_glue/cb/t5_utils.py", Function: "mean_3class_f1", SHA256: "43277ed907b62f38f94ade35eb385b7e7df94cce9bcb4dbaa9878c86d907f70c"}, Mean3ClassF1)
	task.RegisterAggregation(task.Helper{File: "super_glue/cb/t5_utils.py", Function: "agg_mean_3class_f1", SHA256: "18bd59b02abd3e0c4ce2b62de44c49c8c8c4522bb2171df24683ce3a62e804c7"}, AggMean3ClassF1)
	task.RegisterDocFunc(task.Helper{File: "super_glue/copa/utils.py", Function: "doc_to_text", SHA256: "90245499fbbd8d47967ba71be30f679230d69580d4a3ced08f9d811a098e5d74"}, doc(CopaDocToText))
	task.RegisterDocFunc(task.Helper{File: "super_glue/copa/utils.py", Function: "doc_to_target", SHA256: "20c4f7a5e13458b04eca304a098fc05883a5ce1fd213cdb9ed27778de62e99a6"}, doc(CopaDocToTarget))
	task.RegisterDocFunc(task.Helper{File: "super_glue/copa/utils.py", Function: "doc_to_choice", SHA256: "67e00256384cd36df4994f65cbae183bc3b6e6fde5b5d10ddc5f652502e8ba45"}, doc(CopaDocToChoice))
	task.RegisterMetric(task.Helper{File: "super_glue/multirc/t5_utils.py", Function: "f1", SHA256: "7d617e9aad01dd533481279e7d8f248d8bcf8b263ca12e03ff37561be63589c6"}, MultircF1)
	task.RegisterAggregation(task.Helper{File: "super_glue/multirc/t5_utils.py", Function: "agg_f1", SHA256: "8fc03c1e0b0efe6ecda298974bf3cd8735a4f7cc2224f2f08390f7e6fb1f3ca3"}, MultircAggF1)
	task.RegisterMetric(task.Helper{File: "super_glue/multirc/t5_utils.py", Function: "em", SHA256: "47ffa9482d641db850bc8e62524658c8b68f6a5814437abdac541cfcd48c49c8"}, MultircEM)
	task.RegisterAggregation(task.Helper{File: "super_glue/multirc/t5_utils.py", Function: "agg_em", SHA256: "3518059875678455486e00d14b6a146f317958aea9c6d4f0b4c99d1863288a39"}, MultircAggEM)
	task.RegisterDocFunc(task.Helper{File: "super_glue/record/t5_utils.py", Function: "doc_to_text", SHA256: "694f0753deb11140e66a04a34e41ac37458de02bf6fa12a048617fb70f5d5f3c"}, doc(RecordT5DocToText))
	task.RegisterProcessDocs(task.Helper{File: "super_glue/record/t5_utils.py", Function: "process_docs", SHA256: "81d4d5a1271df1f03b4e19267c43b60db7bb897abcd100c2eb4d8b9d0eda579a"}, RecordT5ProcessDocs)
	task.RegisterMetric(task.Helper{File: "super_glue/record/t5_utils.py", Function: "em", SHA256: "1c05c413c07c9d33c5f1edd7c64c4ffc2fe092b67d726d4969ff6785113e0a73"}, RecordPassthrough)
	task.RegisterMetric(task.Helper{File: "super_glue/record/t5_utils.py", Function: "f1", SHA256: "65f946e10ee22b437487b50e824cb01255af112e7ed221cb001f34fb2019bad2"}, RecordPassthrough)
	task.RegisterAggregation(task.Helper{File: "super_glue/record/t5_utils.py", Function: "squad_em_agg", SHA256: "e30c1df6d9e51f98430b937397dc8aee62eb56398b6027b03721570c0794f2fe"}, SquadEMAgg)
	task.RegisterAggregation(task.Helper{File: "super_glue/record/t5_utils.py", Function: "squad_f1_agg", SHA256: "ee64e8a1e6bf8f89d761748370815846db34ff88ec8a61a7c0581f733a1aac3e"}, SquadF1Agg)
	task.RegisterDocFunc(task.Helper{File: "super_glue/record/util.py", Function: "doc_to_text", SHA256: "d170cfa03a194a26fb1a927d3e3c4848b6ce83e7382173ade44dd64d0b1c0bb3"}, doc(RecordDocToText))
	task.RegisterDocFunc(task.Helper{File: "super_glue/record/util.py", Function: "doc_to_target", SHA256: "a8f64460c5bc66f635bc223e502b4671299bbf6481a973cca8773f60d2705b8a"}, doc(RecordDocToTarget))
	task.RegisterDocFunc(task.Helper{File: "super_glue/record/util.py", Function: "doc_to_choice", SHA256: "5d00ddc3cfcd0078760f75ba861f6072809117f0553bfa9983749763b9c9cc7b"}, doc(RecordDocToChoice))
	task.RegisterProcessDocs(task.Helper{File: "super_glue/record/util.py", Function: "process_docs", SHA256: "4b8858a4363487d722e4e9600664477cf99caeded5dba9809c81aed74172c9d2"}, RecordProcessDocs)
	task.RegisterProcessResults(task.Helper{File: "super_glue/record/util.py", Function: "process_results", SHA256: "5a682c1af047a62aab2b30c374c818152598d02e0c6864947e25f0b34353277b"}, RecordProcessResults)
	task.RegisterDocFunc(task.Helper{File: "super_glue/wsc/preprocess_wsc.py", Function: "default_doc_to_text", SHA256: "420b927f1fa37b88a2b43d5e7f5c9163bf13d98fd3b1070c499e38e65055b1fb"}, doc(WSCDocToText))
	task.RegisterDocFunc(task.Helper{File: "super_glue/wsc/t5_utils.py", Function: "doc_to_text", SHA256: "0266ff3446f6b146652ac03a545f43cae412c22fcfa51ecb4e8ee288c7c6df4e"}, doc(WSCT5DocToText))
	task.RegisterProcessResults(task.Helper{File: "super_glue/wsc/t5_utils.py", Function: "process_results", SHA256: "978ad430f6f45946a8af7d0655e2aded2ef779c8baa033d16fe36d3774f4c954"}, WSCT5ProcessResults)
}
