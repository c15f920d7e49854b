// Package meddialog ports lm_eval/tasks/meddialog: the dialogue and
// question-summary prompts and targets (utils.py) and the perplexity
// variants' process_results (utils_perplexity.py). The generation
// variants' process_results needs BLEURT and BERTScore: unavailable.
package meddialog

import (
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/medical"
)

var (
	// DocToTextRaw is utils.doc_to_text_raw.
	DocToTextRaw = medical.Field("description")
	// DocToTargetRaw is utils.doc_to_target_raw: the second utterance.
	DocToTargetRaw = medical.Field("utterances", "utterance", 1)
	// DocToTextQsumm is utils.doc_to_text_qsumm.
	DocToTextQsumm = medical.Field("src")
	// DocToTargetQsumm is utils.doc_to_target_qsumm.
	DocToTargetQsumm = medical.Field("tgt")
)

func init() {
	task.RegisterDocFunc(task.Helper{File: "meddialog/utils.py", Function: "doc_to_text_raw", SHA256: "cd92586ef62744641c486af433355de3a021bfcf3027511395f04353dde78ac4"}, DocToTextRaw)
	task.RegisterDocFunc(task.Helper{File: "meddialog/utils.py", Function: "doc_to_target_raw", SHA256: "bd8ce031082637a51c7ec52986a922ceff12802b686af0d6aa08fea6f662f652"}, DocToTargetRaw)
	task.RegisterDocFunc(task.Helper{File: "meddialog/utils.py", Function: "doc_to_text_qsumm", SHA256: "b3cf12dc897b044e972a4286021d51b4ac5e2d1bb04ac1b328c62b43aaa16fad"}, DocToTextQsumm)
	task.RegisterDocFunc(task.Helper{File: "meddialog/utils.py", Function: "doc_to_target_qsumm", SHA256: "6367f31288ec43dc1fa64838ef86431a9df8b10b61dbc80921aab9c8f1e76fed"}, DocToTargetQsumm)
	task.RegisterUnavailable(task.Helper{File: "meddialog/utils.py", Function: "process_results_gen_raw", SHA256: "6fc1d9719e44f4da9d4f03e0afe3895b7a3b965edf2cfd5dac509dc5fda1672b"}, medical.Unavailable(medical.BLEURTBERTScore, "meddialog_raw_perplexity"))
	task.RegisterUnavailable(task.Helper{File: "meddialog/utils.py", Function: "process_results_gen_qsumm", SHA256: "fec589d3f34cddd96db7b892a957cb0cd018568d7173b1fead95ab02be6678e9"}, medical.Unavailable(medical.BLEURTBERTScore, "meddialog_qsumm_perplexity"))
	task.RegisterProcessResults(task.Helper{File: "meddialog/utils_perplexity.py", Function: "process_results_qsumm", SHA256: "bfca57cb73ca89c81a0bf8ee7c5442d55db092574c8296235228b7b5b2d6209c"}, medical.PerplexityOf(DocToTargetQsumm))
	task.RegisterProcessResults(task.Helper{File: "meddialog/utils_perplexity.py", Function: "process_results_raw", SHA256: "8ac6a716c09bed04eeef2fa4d454903051f524e6d6409add2c785c6ea221dc3e"}, medical.PerplexityOf(DocToTargetRaw))
}
