package score

import (
	"fmt"
	"strings"

	"github.com/lmeval/lmeval/harness/task"
)

const (
	agiFile     = "score/agi_eval/utils_agieval.py"
	mmluProFile = "score/mmlu_pro/utils_mmlu_pro.py"
)

var (
	agi     = bindings{labels: agiLabels, templates: agiTemplates, pre: AGIInitialProcessDocs, preCols: agiColumns}
	mmluPro = bindings{labels: mmluProLabels, templates: mmluProTemplates, macro: true}
	// option_order_robustness_process_docs's labels: LABELS[:-1] for
	// AGIEval (A-D), LABELS for MMLU-Pro.
	agiOptionLabels     = agiLabels[:4]
	mmluProOptionLabels = mmluProLabels
)

var agiPerPrompt = []string{
	"fbb64709d6b38e7f480e02c4107aef75101e25270dcb2e7daa0a09d6a35790e2",
	"201da6105dd7a13f334a96ec64430255e2f85c0f7eddad8842177fe073e6e6a1",
	"921daa517c3bb275ed846c1cc28f47280b4fdecd1415f6412dd39011a9df3acd",
	"61b96a59c7e2e3885948bdf6cf9fa471f07a67b52daaecc69688f6a7cb007c82",
	"be9a6c2392a68ef1e8ae5849fc8a237e60ba75eecbd27328620b9cd4b1ed2aee",
	"473d97897ef8dae966b0d5515026e33280e7b74013e3987c0243b325f048e045",
	"bef0b41819290780b49f785f786de4b50f109d2051bebbe960b79044ce0434a5",
	"c44a7c66d4f1739d0c508e32bc4ec9d7baf8d73d845d19565d0ff716fc126914",
	"b9e879251ef645dd5d6b888624fac08b5a3e7a96574d0d6306c7f387bf96ff2c",
	"9cced534857f92df0709e13e6d0272350c3a19a40caf8808211aebdd1a020d34",
}
var mmluProPerPrompt = []string{
	"f3361b2249272864b5e53c857271fd50ae6336d9743df8e73f9f7cc3c34da81b",
	"87de5f25053fcf600d582942e9af48c6f88a6a664c9f8ab1c9988ce27e6a629b",
	"3f3e1bd4f584a3abb3e7505d7e7fe14ccea3bbe1a1aacb4bcd812853fa49a5d2",
	"c34a95c325ece8ee0d53eab974454e1e56b30e622b10ae3148ba4783a635fc57",
	"0b892f445301da1f96842cd904a9542614513232df6efb12de5b3ebb95d7c4c2",
	"f4b1dd24beb7452403ff8f5799e0d84299713ba220a978c143f2cb1cc9e0acf0",
	"2783f18a6b1e43ffb36c4db0f15b59e7685ed06107a51ee1678834db54ebfdeb",
	"6e456bcaf2d5e03e528aef81725569d3bf2bffa1c195fb199a85cc39add02963",
	"82e79fdd8ae3e93e24db7bf955e50dccbdbeff79fd4c38c35847edcdde9b6507",
	"ecc1daad6bb4088e017d0594722cee3b996e64103c507443c619f0ea8e9ac4a9",
}
var agiPerOption = []string{
	"107494b0dbbf2b18b7314e1490f9bce83975216711e963071097f8d972f2aa25",
	"979ea9e9ae93e5a9f11ae4ab705b31ae163c611dff82a5f423d2b9dc912a5108",
	"abfa2505e09ce2a85c8b1cbd6577170e847930ba231ed92d8bcc8c49015b923d",
	"aa5a3c42ce20c1ac90b22700f3e7ae621861d25406cc3b6d9d858baf1d0e7fad",
}
var mmluProPerOption = []string{
	"ec09d511886d8c556015cc6d8e916469a794a9ca181bcd8da54d189cf7c81988",
	"99062d8b54539afdbd8539f819c7e68b969b5d863b915bb01d7a734b40684334",
	"a118be6734823b7ad04c66b21e3bb0f89ba8f68beebdf2edf5b0b5fe3ff0c3f0",
	"c71ced02ec5ac0e2a7b936fa645e1410c477e221f3d430c1a02832e09fd69ff0",
	"8f971f02fa8bf5d16f86b346ee71a70ef7011825e7043849f5f90d6020fbd27b",
	"a3af2c194b09bc1425aa7156cf2deeac5606004d9c0bcd726eb30dbdd4df8463",
	"1b18173793a43ca58b2e8004c36f72d051e9097df70137684e94bdc036456091",
	"a2e152238a3a80c11c098fbe881863d71e48b87d1c9755357ef832a22768744b",
	"3549510c796ad9cbc81b8c266f13cd1fdd594863e5ee9babe662525017e9cdcd",
	"c054983c9c6a31b284bf403082dbe9c789cafe0d064133aed95227c8572b51a0",
}

func init() {
	task.RegisterDocFunc(task.Helper{File: agiFile, Function: "agi_eval_robustness_doc_to_text", SHA256: "b1983da14243bf5e1554ed9a00fbb9b061075e5460990e7d3befee2ae9fffeb2"}, func(d task.Doc) (any, error) { return DocToText(d) })
	task.RegisterDocFunc(task.Helper{File: mmluProFile, Function: "mmlu_pro_robustness_doc_to_text", SHA256: "6e9dca54afadd4fa0373a5996c865e9b7ac9671dd0500344866655f6d1ba21db"}, func(d task.Doc) (any, error) { return DocToText(d) })
	task.RegisterMapDocs(task.Helper{File: agiFile, Function: "prompt_robustness_process_docs", SHA256: "8c2bff2d5ebd34e588ab8c08526500d4ec00604d934a3855258bcd2c50a28643"}, agi.promptDocs())
	task.RegisterMapDocs(task.Helper{File: agiFile, Function: "option_order_robustness_process_docs", SHA256: "9dd2801e5c6ad14110af0825f6b825fe46af992e66b91468de900cbac963969b"}, agi.optionDocs(agiOptionLabels))
	task.RegisterMapDocs(task.Helper{File: agiFile, Function: "non_greedy_robustness_process_docs", SHA256: "c1847bc30faf895d46f0ad745d5a8a24eaf4b70a7c225d2a8bb053e56f7124a8"}, agi.nonGreedyDocs())
	task.RegisterProcessResults(task.Helper{File: agiFile, Function: "prompt_robustness_process_results", SHA256: "900ec1e4980d6bc6c79bccfc365706b26cd79105f19f94e36fa2df0406d92556"}, agi.promptResults)
	task.RegisterProcessResults(task.Helper{File: agiFile, Function: "option_order_robustness_process_results", SHA256: "63c9b60a7dee3dd816c875c4c6315be29d77ebef32698fd838748fac0a1838ec"}, agi.optionResults)
	task.RegisterProcessResults(task.Helper{File: agiFile, Function: "non_greedy_robustness_process_results", SHA256: "3a70b723eeb44ae026c412b32b50bae6bcb21a145da1173e7dddd0817a9c32c4"}, agi.nonGreedyResults)
	task.RegisterAggregation(task.Helper{File: agiFile, Function: "options_consistency_rate", SHA256: "17ac7ab9937577a2f1c6a713d73331fa4b1914d9b271fbf92f87db7318e99231"}, agg("agi:options_consistency_rate", func(items []any) (float64, error) { return OptionsConsistencyRate(items, agi.labels) }))
	task.RegisterMapDocs(task.Helper{File: mmluProFile, Function: "prompt_robustness_process_docs", SHA256: "a96ed638570a0e67662e6e3199872cf1e5d0be6fe72dc36a7f91fa8cc20eeb0e"}, mmluPro.promptDocs())
	task.RegisterMapDocs(task.Helper{File: mmluProFile, Function: "option_order_robustness_process_docs", SHA256: "0e64a025c364ee815a70e760fbd8b2f384a98c39d7ec39bde4a4fc35aec42419"}, mmluPro.optionDocs(mmluProOptionLabels))
	task.RegisterMapDocs(task.Helper{File: mmluProFile, Function: "non_greedy_robustness_process_docs", SHA256: "03a3b56740b92b6b50fc823d6cfe975f3f982ebed58adde7cc254f3dccdefcb6"}, mmluPro.nonGreedyDocs())
	task.RegisterProcessResults(task.Helper{File: mmluProFile, Function: "prompt_robustness_process_results", SHA256: "3083989b4e682a23ddd03ab6aa089cc32cf9e46b43b0833683b3e53d41cd4938"}, mmluPro.promptResults)
	task.RegisterProcessResults(task.Helper{File: mmluProFile, Function: "option_order_robustness_process_results", SHA256: "65152bab2e274efb563cce7f598d6d212eb38ef8267c3b2e41f40dc078bc1948"}, mmluPro.optionResults)
	task.RegisterProcessResults(task.Helper{File: mmluProFile, Function: "non_greedy_robustness_process_results", SHA256: "7d44040e6aa189afae6d6f69cc97565cdc736eb664b242504f73c7b0b14024cd"}, mmluPro.nonGreedyResults)
	task.RegisterAggregation(task.Helper{File: mmluProFile, Function: "options_consistency_rate", SHA256: "17ac7ab9937577a2f1c6a713d73331fa4b1914d9b271fbf92f87db7318e99231"}, agg("mmlu_pro:options_consistency_rate", func(items []any) (float64, error) { return OptionsConsistencyRate(items, mmluPro.labels) }))
	task.RegisterAggregation(task.Helper{File: agiFile, Function: "agi_eval_prompt_consistency_rate", SHA256: "0911259cb7354e3cc6fce2c0fddb3bcb797c5c052c58db81d5f16c5a9fb19d2e"}, agg("agi_eval:prompt_consistency_rate", PromptConsistencyRate))
	task.RegisterAggregation(task.Helper{File: mmluProFile, Function: "mmlu_pro_prompt_consistency_rate", SHA256: "27f23c2fab4209c6b6c2dee975bc00e0730fa38830a19e8b555b3d3ae303cb27"}, agg("mmlu_pro:prompt_consistency_rate", PromptConsistencyRate))
	task.RegisterAggregation(task.Helper{File: agiFile, Function: "non_greedy_accuracy", SHA256: "7d2e08add59a64da58e90a2625aa9b473c84b10c52f713973ff301652d4445fa"}, agg("agi_eval:non_greedy_accuracy", func(items []any) (float64, error) { return filteredAccuracy(items, 4, -1, nil, 1, 2, -1) }))
	task.RegisterAggregation(task.Helper{File: mmluProFile, Function: "non_greedy_macro_accuracy", SHA256: "33f20ffa7cd4c04f13b4eb21b8e8484b69973386dd7c1855257fc2c9c6d8283b"}, agg("mmlu_pro:non_greedy_macro_accuracy", func(items []any) (float64, error) { return filteredAccuracy(items, 4, -1, nil, 1, 2, 3) }))
	for i := 0; i < 10; i++ {
		p := int64(i)
		task.RegisterAggregation(task.Helper{File: agiFile, Function: fmt.Sprintf("per_prompt_accuracy_%d", i), SHA256: agiPerPrompt[i]}, agg(fmt.Sprintf("agi_eval:per_prompt_accuracy_%d", i), func(items []any) (float64, error) {
			return filteredAccuracy(items, 4, 1, p, 2, 3, -1)
		}))
		task.RegisterAggregation(task.Helper{File: mmluProFile, Function: fmt.Sprintf("per_prompt_accuracy_%d", i), SHA256: mmluProPerPrompt[i]}, agg(fmt.Sprintf("mmlu_pro:per_prompt_accuracy_%d", i), func(items []any) (float64, error) {
			return filteredAccuracy(items, 5, 1, p, 2, 3, 4)
		}))
	}
	for i, l := range agiLabels[:4] {
		task.RegisterAggregation(task.Helper{File: agiFile, Function: "per_option_accuracy_" + strings.ToLower(l), SHA256: agiPerOption[i]}, agg("agi_eval:per_option_accuracy_"+l, func(items []any) (float64, error) {
			return filteredAccuracy(items, 4, 1, l, 2, 3, -1)
		}))
	}
	for i, l := range mmluProLabels {
		task.RegisterAggregation(task.Helper{File: mmluProFile, Function: "per_option_macro_accuracy_" + strings.ToLower(l), SHA256: mmluProPerOption[i]}, agg("mmlu_pro:per_option_macro_accuracy_"+l, func(items []any) (float64, error) {
			return filteredAccuracy(items, 5, 1, l, 2, 3, 4)
		}))
	}
}
