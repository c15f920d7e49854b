package metabench

import (
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/pydoc"
	"github.com/lmeval/lmeval/python/pyrand"
)

// process is one process_docs: its row function, the columns it adds (in
// the order it sets them) and whether it draws from the module-level
// random generator.
type process struct {
	file, name, sha string
	fn              Mapper
	columns         []string
	random          bool
}

var processes = []process{
	{"metabench/process_docs.py", "process_arc", "722f1ab395f011f9929f129b0bb8fbbae49828695669227d2728ecf207c54f8e",
		ProcessARC, []string{"twentyfive_shot_preprompt", "original_hash"}, false},
	{"metabench/process_docs.py", "process_gsm8k", "dfdb03b66e77aa1cfc713db54d26f3e341334b5aff91dbee5969509a3e7d59ff",
		ProcessGSM8K, []string{"original_hash", "five_shot_preprompt"}, false},
	{"metabench/process_docs.py", "process_hellaswag", "73a6d214be228a04832e53fecc340ddad1a9e9f2933e9e7c310ef45ddc5dbc6a",
		ProcessHellaswag, []string{"query", "choices", "gold", "original_hash", "ten_shot_preprompt"}, false},
	{"metabench/process_docs.py", "process_mmlu", "655c955186b72740aad859e277d40cb824c2b63140fa098662ec15f9296ef3e7",
		ProcessMMLU, []string{"original_hash", "five_shot_preprompt"}, false},
	{"metabench/process_docs.py", "process_truthfulqa", "6839ba97bd8d3c69ba6715d4d29d75a827e330e1896c794a9149bcdde134c3e0",
		ProcessTruthfulQA, []string{"original_hash"}, false},
	{"metabench/process_docs.py", "process_winogrande", "4f08ab7e20bbd70703c50449bd58c88ccfd04c71dcd59679e4a7eec046e94e90",
		ProcessWinogrande, []string{"original_hash"}, false},
	{"metabench/process_docs_permute.py", "process_arc", "c96ebdd86c3b00e7fd3399f23aa2f423168a7813ace0d89bd6a21b6ee7408490",
		ProcessARCPermute, []string{"twentyfive_shot_preprompt", "original_hash"}, true},
	{"metabench/process_docs_permute.py", "process_hellaswag", "574d2a67eff24f9368f3a715faf050afa44a2094533336d636322a86456d107c",
		ProcessHellaswagPermute, []string{"query", "choices", "gold", "original_hash", "ten_shot_preprompt"}, true},
	{"metabench/process_docs_permute.py", "process_mmlu", "d29abfca9fce7e476baecbadf7520f4e70f4b6f9a6740e9b18d2f56daadb6121",
		ProcessMMLUPermute, []string{"original_hash", "five_shot_preprompt"}, true},
	{"metabench/process_docs_permute.py", "process_truthfulqa", "6f21df87cb1d77d18566e1aa8d1a4ec4e6740a8fb17435c8b7eeb47ea5791953",
		ProcessTruthfulQAPermute, []string{"original_hash", "answer"}, true},
	{"metabench/process_docs_permute.py", "process_winogrande", "bcdcb2cff565c20c1cc978428e20a3e21e30720fb2c7487a97d6781956676dc4",
		ProcessWinograndePermute, []string{"original_hash"}, false},
}

// ProcessDocs is the process_docs of file's name, drawing (the permute
// variants) from rnd.
func ProcessDocs(file, name string, docs []task.Doc, rnd *pyrand.Rand) ([]task.Doc, error) {
	for _, p := range processes {
		if p.file == file && p.name == name {
			return mapDocs(name, docs, rnd, p.fn)
		}
	}
	return nil, nil
}

func init() {
	for _, p := range processes {
		m := task.MapDocs{Columns: p.columns, Fn: func(docs []task.Doc) ([]task.Doc, error) { return mapDocs(p.name, docs, nil, p.fn) }}
		if p.random {
			// The module's random.shuffle: as for gpqa, each distinct split
			// is shuffled with the draws that follow the run's
			// random.seed(seed), once (datasets' map cache gives later
			// calls the same rows).
			m.Fn, m.FnModule = nil, pydoc.MemoModule(func(docs []task.Doc, m *pyrand.Module) ([]task.Doc, error) {
				return mapDocs(p.name, docs, pyrand.New(m.Seed()), p.fn)
			})
		}
		task.RegisterMapDocs(task.Helper{File: p.file, Function: p.name, SHA256: p.sha}, m)
	}
	const file = "metabench/process_docs.py"
	task.RegisterDocFunc(task.Helper{File: file, Function: "winogrande_doc_to_text",
		SHA256: "81f45c10b58e2b87999f8080124da1483c2a005a0c64f7dc82bbdb62999596bd"}, WinograndeDocToText)
	task.RegisterDocFunc(task.Helper{File: file, Function: "winogrande_doc_to_target",
		SHA256: "2670b66d7397730e9e80cb4e2e21d96e4afa37d969f634f5d9d9f20d243337fc"}, WinograndeDocToTarget)
	task.RegisterDocFunc(task.Helper{File: file, Function: "winogrande_doc_to_choice",
		SHA256: "3548f47b0dd6b13565821c9c53e487ced2faa0a970bfbaefc411739ff505fd7a"}, WinograndeDocToChoice)
}
