package aradice

import "github.com/lmeval/lmeval/harness/task"

func init() {
	mmlu := []string{"prompt", "choices", "target"}
	task.RegisterMapDocs(task.Helper{File: "aradice/ArabicMMLU/EGY/utils.py", Function: "process_docs", SHA256: "1aad3edba769978c639dc4f078ada14876a9276383f67f5234486fa3f0e1b78a"}, task.MapDocs{Fn: EGY.MMLUDocs, Columns: mmlu})
	task.RegisterMapDocs(task.Helper{File: "aradice/ArabicMMLU/LEV/utils.py", Function: "process_docs", SHA256: "1b7ae46e00757bf2ab7d915c4dd081b88dae632b5b244cc3db7c61b89f635f7b"}, task.MapDocs{Fn: LEV.MMLUDocs, Columns: mmlu})
	task.RegisterMapDocs(task.Helper{File: "aradice/boolq/EGY/utils.py", Function: "process_docs", SHA256: "573e9b970f333c3069cf78ba487d32c0472b88a06443535d80a2a50200895d63"}, task.MapDocs{Fn: ArabicAnswers.BoolQDocs, Columns: []string{"target"}})
	task.RegisterMapDocs(task.Helper{File: "aradice/boolq/ENG/utils.py", Function: "process_docs", SHA256: "7fda298a723b071fbdb4f0250afc85cc652084d27e9b4e9617b45d9914b947bc"}, task.MapDocs{Fn: EnglishAnswers.BoolQDocs, Columns: []string{"target"}})
	task.RegisterMapDocs(task.Helper{File: "aradice/boolq/LEV/utils.py", Function: "process_docs", SHA256: "6d610b34e98de765e247b4837b8dcf9dca3510c18ec4fab3dae944cbd931e12d"}, task.MapDocs{Fn: ArabicAnswers.BoolQDocs, Columns: []string{"target"}})
	task.RegisterMapDocs(task.Helper{File: "aradice/boolq/MSA/utils.py", Function: "process_docs", SHA256: "a0cc76eda6ead55778a467783ca5e78200e0193b44226f86db11cc5f1b5e5612"}, task.MapDocs{Fn: ArabicAnswers.BoolQDocs, Columns: []string{"target"}})
	task.RegisterMapDocs(task.Helper{File: "aradice/cultural-benchmark/utils.py", Function: "process_docs", SHA256: "f939b96cc649567934b2ea67bb721a474a644883c623dfa78d7fe46f89a0af3e"}, task.MapDocs{Fn: CultureDocs, Columns: []string{"choices"}})
	task.RegisterDocFunc(task.Helper{File: "aradice/openbookqa/utils.py", Function: "doc_to_text", SHA256: "37ab110bf9a3fd52d45a885c4132af80800adcfba85d5d3d4012da86ff446834"}, OBQAText)
	task.RegisterDocFunc(task.Helper{File: "aradice/openbookqa/utils.py", Function: "doc_to_choice", SHA256: "d7cad591bb974c74d10c18fce3c395eecf8c111bf03157496d731b0f847d96fe"}, OBQAChoice)
	task.RegisterDocFunc(task.Helper{File: "aradice/openbookqa/utils.py", Function: "doc_to_target", SHA256: "b542553b3f0f350f67662fcfa89e0595e9d2de7ace340c01aab3a962c52852c6"}, OBQATarget)
}
