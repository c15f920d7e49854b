package fidelity_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/lmeval/lmeval/harness/task"
)

// pendingDirs are lm-eval directories whose helpers have a native port
// (directly, or through a port of identical source elsewhere) but that do
// not yet have fidelity cases for min(3, their tasks) of their tasks, with
// why. TestFidelityCoverage fails for a directory missing from this list,
// and for a listed directory that has since got its cases: the list only
// shrinks, and nothing is skipped silently.
var pendingDirs = map[string]string{
	// lm-eval cannot score these here, so no expected values can be made:
	"afrimmlu":            "lm-eval's f1 (hf_evaluate: true) needs Hugging Face evaluate, not installed",
	"cruxeval":            "pass@k needs Hugging Face evaluate's code_eval, not installed (harness/testdata/code_tasks checks requests and metrics)",
	"humaneval":           "pass@k needs Hugging Face evaluate's code_eval, not installed (harness/testdata/code_tasks checks requests and metrics)",
	"humaneval_infilling": "pass@k needs Hugging Face evaluate's code_eval, not installed (harness/testdata/code_tasks checks requests and metrics)",
	"mbpp":                "pass@k needs Hugging Face evaluate's code_eval, not installed (harness/testdata/code_tasks checks requests and metrics)",
	"minerva_math":        "lm-eval's minerva_math/utils.py imports math_verify, not installed (p-mathverify)",
	"truthfulqa":          "truthfulqa_gen scores with rouge_score and sacrebleu, not installed; mc1 and mc2 have cases",
	"ifeval":              "ifeval_ca and ifeval_es count words and sentences with spaCy's trained pipelines (es_core_news_sm, ca_core_news_sm, xx_sent_ud_sm: statistical models), which lmeval cannot run (registered unavailable) and this machine lacks (lm-eval cannot score them here either); ifeval and leaderboard_ifeval have cases",
	// Ported, with fewer cases than required (the other tasks cannot be
	// compared, or are to add):
	"meddialog":           "meddialog_qsumm and meddialog_raw_dialogues score generations with BLEURT and BERTScore (Hugging Face evaluate's bleurt and bertscore: neural models), registered unavailable in lmeval, and lm-eval's utils.py cannot be imported here without evaluate, so no case can be compared; both perplexity variants have cases",
	"mediqa_qa2019":       "mediqa_qa2019 scores generations with BLEURT and BERTScore (Hugging Face evaluate's bleurt and bertscore: neural models), is registered unavailable in lmeval, and lm-eval's utils.py cannot be imported here without evaluate, so no case can be compared; mediqa_qa2019_perplexity has its case",
	"medtext":             "medtext scores generations with BLEURT and BERTScore (Hugging Face evaluate's bleurt and bertscore: neural models), is registered unavailable in lmeval, and lm-eval's utils.py cannot be imported here without evaluate, so no case can be compared; medtext_perplexity has its case",
	"meqsum":              "its one task, meqsum, scores generations with BLEURT and BERTScore (Hugging Face evaluate's bleurt and bertscore: neural models), is registered unavailable in lmeval, and lm-eval's utils.py cannot be imported here without evaluate, so no case can be compared",
	"mimic_repsum":        "mimic_repsum scores generations with BLEURT, BERTScore and RadGraph F1 (neural models), is registered unavailable in lmeval, and lm-eval's utils.py cannot be imported here without evaluate and radgraph, so no case can be compared; mimic_repsum_perplexity has its case",
	"mts_dialog":          "mts_dialog scores generations with BLEURT and BERTScore (Hugging Face evaluate's bleurt and bertscore: neural models), is registered unavailable in lmeval, and lm-eval's utils.py cannot be imported here without evaluate, so no case can be compared; mts_dialog_perplexity has its case",
	"olaph":               "olaph scores generations with BLEURT and BERTScore (Hugging Face evaluate's bleurt and bertscore: neural models), is registered unavailable in lmeval, and lm-eval's utils.py cannot be imported here without evaluate, so no case can be compared; olaph_perplexity has its case",
	"realtoxicityprompts": "scored by the hosted Perspective API; no case can be made offline",
	"wmt2016":             "its one task scores with Hugging Face evaluate's wer (jiwer) and bleu, neither installed here, so lm-eval gives no expected metrics (ports/wmt2016's vectors check its BLEU against the real evaluate bleu metric and tensorflow/nmt's bleu.py it downloads: scripts/parity/realgen_all.py)",
	"portuguese_bench":    "2 of 3 cases: assin2 STS not sampled yet",
	"putnam_axiom":        "lm-eval's putnam_axiom/utils.py needs antlr4-python3-runtime 4.11 (sympy's parse_latex); Debian has 4.9, so no expected values here (its answer extraction has vectors)",
	"libra":               "every task aggregates with pymorphy3 (unavailable); its filter and process_results have vectors",
	// Registered unavailable (task.RegisterUnavailable), so there is nothing to
	// compare:
	"cnn_dailymail":    "its process_results gives BERTScore (the distilbert-base-uncased model); registered unavailable",
	"discrim_eval":     "its aggregation fits statsmodels' MixedLM; registered unavailable (process_results has vectors)",
	"jsonschema_bench": "schema_compliance needs Python's jsonschema validator; registered unavailable",
	"slr_bench":        "process_results runs SWI-Prolog through a Hub metric; registered unavailable",
	"tinyBenchmarks":   "its aggregation needs the tinyBenchmarks package (unavailable)",
}

// topDir is the lm-eval task directory (first path element under
// lm_eval/tasks) of a path relative to lm_eval/tasks.
func topDir(rel string) string {
	rel = filepath.ToSlash(rel)
	if i := strings.IndexByte(rel, '/'); i >= 0 {
		return rel[:i]
	}
	return ""
}

// portedDirs are the lm-eval directories with a file that a native port
// serves (task.HelperCoverage: each port serves every file:function of
// lm-eval's tree with the same source), mapped to the ported files.
func portedDirs() map[string][]string {
	out := map[string][]string{}
	for k := range task.HelperCoverage() {
		file := k[:strings.LastIndexByte(k, ':')]
		if d := topDir(file); d != "" {
			out[d] = append(out[d], k)
		}
	}
	return out
}

// tasksByDir indexes lm-eval's task tree: the YAML tasks of each top
// directory.
func tasksByDir(t *testing.T, tasksDir string) map[string][]string {
	t.Helper()
	r := task.NewRegistry()
	if err := r.AddDir(tasksDir); err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, e := range r.Entries(task.KindTask) {
		rel, err := filepath.Rel(tasksDir, e.File)
		if err != nil || strings.HasPrefix(rel, "..") {
			continue
		}
		d := topDir(rel)
		out[d] = append(out[d], e.Name)
	}
	return out
}

// casesByDir: the distinct lm-eval task files (include:) of every case,
// by top directory.
func casesByDir(t *testing.T) map[string]map[string]bool {
	out := map[string]map[string]bool{}
	for _, fam := range families(t) {
		for _, c := range fam.cases {
			d := topDir(c.Include)
			if out[d] == nil {
				out[d] = map[string]bool{}
			}
			out[d][c.Include] = true
		}
	}
	return out
}

// TestFidelityCoverage: every lm-eval directory with a native port has
// fidelity cases for at least 3 of its tasks (all of them when it has
// fewer), or is listed in pendingDirs with the reason.
func TestFidelityCoverage(t *testing.T) {
	tasksDir, err := filepath.Abs(lmevalTasks)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(tasksDir); err != nil {
		t.Skip("../shared/lm-eval not present")
	}
	tasks := tasksByDir(t, tasksDir)
	cases := casesByDir(t)
	ported := portedDirs()
	dirs := make([]string, 0, len(ported))
	for d := range ported {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	var missing []string
	for _, d := range dirs {
		need := min(3, len(tasks[d]))
		have := len(cases[d])
		reason, pending := pendingDirs[d]
		switch {
		case have < need && !pending:
			missing = append(missing, d)
			t.Errorf("%s: native port (%s), %d of its %d tasks have fidelity cases, need %d", d, ported[d][0], have, len(tasks[d]), need)
		case have >= need && pending:
			t.Errorf("%s: has its fidelity cases now (%d task files); remove it from pendingDirs", d, have)
		case pending:
			t.Logf("pending: %s (%d of %d tasks): %s", d, have, len(tasks[d]), reason)
		}
	}
	for d := range pendingDirs {
		if _, ok := ported[d]; !ok {
			t.Errorf("pendingDirs lists %s, which has no native port", d)
		}
	}
	if len(missing) > 0 {
		t.Logf("directories without their fidelity cases: %s", strings.Join(missing, " "))
	}
}

// TestFidelityCounts reports the size of the fidelity suite (go test -v
// -run TestFidelityCounts ./fidelity): families, cases, documents and
// requests compared, and the ported directories it samples.
func TestFidelityCounts(t *testing.T) {
	fams := families(t)
	nCases, nDocs, nReqs, nSamples, nKnown := 0, 0, 0, 0, 0
	for _, fam := range fams {
		for _, c := range fam.cases {
			nCases++
			if c.KnownDiff != "" {
				nKnown++
			}
			b, err := os.ReadFile(filepath.Join("testdata", fam.name, "expected", c.Task+".json"))
			if err != nil {
				t.Errorf("%s/%s: %v (run fidelity/gen.py)", fam.name, c.Task, err)
				continue
			}
			var e expected
			if err := json.Unmarshal(quoteNonFinite(b), &e); err != nil {
				t.Fatal(err)
			}
			docs := map[int]bool{}
			for _, r := range e.Requests {
				docs[r.DocID] = true
			}
			nDocs += len(docs)
			nReqs += len(e.Requests)
			nSamples += len(e.Samples)
		}
	}
	cases := casesByDir(t)
	ported := portedDirs()
	sampled := 0
	for d := range ported {
		if len(cases[d]) > 0 {
			sampled++
		}
	}
	files := 0
	for _, fs := range cases {
		files += len(fs)
	}
	t.Logf("fidelity: %d families, %d cases (%d known differences), %d lm-eval task files in %d directories, %d documents, %d requests and %d samples compared; %d of %d ported directories sampled",
		len(fams), nCases, nKnown, files, len(cases), nDocs, nReqs, nSamples, sampled, len(ported))
}
