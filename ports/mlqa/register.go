package mlqa

import "github.com/lmeval/lmeval/harness/task"

var resultsSHA = map[string]string{
	"en": "87fb53f60f2a72c1c6fb95f5b4497fc5450df867c2a1aaf4f208874400b31843",
	"es": "2341180f431b72b446c5c7e01ad6c9ee6c822dee0967571b176b55e30ca858fe",
	"hi": "f8c91b59a6683ef96bb573b02dde65c3b15dfc86f4e029b75320188d920ea6fc",
	"vi": "b814d9fa63b21e29d22f13b82ad0e542d2ee15241ea7a995b96d95edafb605a2",
	"de": "6f4f4988354a9fb7d49546bba53f7af4889985012ffe38b7ea8f7ce8e2c486ba",
	"ar": "074919467b83470001d5f6d327729db3c0835a98dac917d9962ba7d8a8bbfd15",
	"zh": "e1ecc3425f7156a2515b8dbb238ebf38860d1e24d9ad22660acf1b1b5862c3d7",
}

func init() {
	task.RegisterMapDocs(task.Helper{File: "mlqa/utils.py", Function: "process_docs",
		SHA256: "b5196d1fedac3b20b04a45d8ab40f47ef0f1d6d5f4ce130c78adebf48e2cd502"}, task.MapDocs{Fn: ProcessDocs, Columns: Columns})
	for _, lang := range Langs {
		task.RegisterProcessResults(task.Helper{File: "mlqa/utils.py", Function: "process_results_" + lang,
			SHA256: resultsSHA[lang]}, func(d task.Doc, r []any) (map[string]any, error) {
			return ProcessResultsLang(d, r, lang)
		})
	}
}
