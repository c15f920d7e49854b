package harness

import (
	"github.com/lmeval/lmeval/backend/dummy"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// wordLM is the dummy model with a tokenizer of one token per word and a
// context of maxLen tokens.
type wordLM struct {
	*dummy.LM
	maxLen int
}

func (w wordLM) CountTokens(s string) (int, error) { return len(strings.Fields(s)), nil }
func (w wordLM) MaxLength() int                    { return w.maxLen }

// TestTruncatedRequestsWarned: requests the model will cut from the left
// to fit its max_length (a loglikelihood request over max_length+1
// tokens, a generation's context over max_length - max_gen_toks) are
// warned about once per task with their count, and counted in
// lmeval.data_problems.
func TestTruncatedRequestsWarned(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	mc := write("mc.jsonl", `{"q": "short one"}
{"q": "w1 w2 w3 w4 w5 w6 w7 w8 w9 w10 w11 w12 w13 w14 w15"}
{"q": "w1 w2 w3 w4 w5 w6 w7 w8 w9 w10 w11 w12"}
{"q": "w1 w2 w3 w4 w5 w6 w7 w8 w9 w10"}
`)
	gen := write("gen.jsonl", `{"q": "a b c"}
{"q": "1 2 3 4 5 6 7"}
`)
	write("mc.yaml", "task: trunc_mc\ndataset_path: json\ndataset_kwargs:\n  data_files:\n    test: "+mc+
		"\noutput_type: multiple_choice\ntest_split: test\ndoc_to_text: \"{{q}}\"\ndoc_to_choice: [\"a\", \"b\"]\ndoc_to_target: 0\n")
	write("gen.yaml", "task: trunc_gen\ndataset_path: json\ndataset_kwargs:\n  data_files:\n    test: "+gen+
		"\noutput_type: generate_until\ntest_split: test\ndoc_to_text: \"{{q}}\"\ndoc_to_target: \"x\"\ngeneration_kwargs:\n  until: [\"\\n\"]\n  max_gen_toks: 4\nmetric_list:\n  - metric: exact_match\n")
	d, _ := dummy.New(nil)
	res, logs := evaluateLogged(t, wordLM{LM: d, maxLen: 10}, []string{dir}, []string{"trunc_mc", "trunc_gen"})
	// trunc_mc: documents 1 and 2 (16 and 13 tokens with a choice, over
	// 11), not 3 (11); trunc_gen: the 7-word context, over 10 - 4.
	want := map[string]int{"trunc_mc": 4, "trunc_gen": 1}
	var lines []string
	for _, line := range strings.Split(logs, "\n") {
		if strings.Contains(line, "truncated") && strings.Contains(line, "level=WARN") {
			lines = append(lines, line)
		}
	}
	if len(lines) != len(want) {
		t.Errorf("%d truncation warnings, want one per task:\n%s", len(lines), logs)
	}
	for name, n := range want {
		found := false
		for _, line := range lines {
			if strings.Contains(line, "task="+name+" ") && strings.Contains(line, "requests="+strconv.Itoa(n)+" ") && strings.Contains(line, "max_length=10") {
				found = true
			}
		}
		if !found {
			t.Errorf("no warning for %s with requests=%d max_length=10:\n%s", name, n, strings.Join(lines, "\n"))
		}
		if got := res.LMEval.DataProblems[name].Truncated; got != n {
			t.Errorf("lmeval.data_problems[%s].truncated = %d, want %d", name, got, n)
		}
	}
}
