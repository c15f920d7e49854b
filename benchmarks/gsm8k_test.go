package benchmarks

import (
	"reflect"
	"testing"

	"github.com/lmeval/lmeval/harness/filters"
)

// TestGSM8KFilters runs the filter pipelines of the built-in gsm8k tasks on
// hand-written model outputs. Expected answers worked out with Python's re
// and lm-eval's RegexFilter (findall, group_select, first non-empty group
// of a tuple, "[invalid]" when nothing matches), MajorityVoteFilter
// (Counter.most_common: ties go to the answer seen first) and
// TakeKFilter.
func TestGSM8KFilters(t *testing.T) {
	tests := []struct {
		task  string
		resps [][]string // per document, its responses
		want  map[string][]any
	}{{
		task: "gsm8k",
		resps: [][]string{
			{"Janet sells 16 - 3 - 4 = 9 eggs.\nShe makes 9 * 2 = $18.\n#### 18"},
			{"It takes 2/2=1 bolt.\nSo the total is 3 bolts."},
			{"He made $70,000 in profit.\n#### 70,000"},
		},
		want: map[string][]any{
			"strict-match":     {"18", "[invalid]", "70,000"},
			"flexible-extract": {"18", "3", "70,000"},
		},
	}, {
		task: "gsm8k_cot",
		resps: [][]string{
			{"Janet sells 9 eggs. She makes 9 * 2 = 18 dollars. The answer is 18."},
			{"The robe takes 2 + 1 = 3 bolts. the answer is 3."},                  // lower-case "the"
			{"The profit is 200,000 - 130,000 = $70,000. The answer is $70,000."}, // "$" is not in the strict class
		},
		want: map[string][]any{
			"strict-match":     {"18", "[invalid]", "[invalid]"},
			"flexible-extract": {"18.", "3.", "$70,000."},
		},
	}, {
		task: "gsm8k_cot_zeroshot",
		resps: [][]string{
			{"Janet has 16 - 3 - 4 = 9 eggs left. The answer is 18."},
			{"So 3 bolts in total."},
			{"The answer is -5,000.5 dollars"},
		},
		want: map[string][]any{
			"strict-match":     {"18", "[invalid]", "-5,000.5"},
			"flexible-extract": {"18.", "3", "-5,000.5"},
		},
	}, {
		task: "gsm8k_cot_self_consistency",
		resps: [][]string{{
			"The answer is 5.", "The answer is 7.", "The answer is 7", "no answer",
			"The answer is 5.", "The answer is 7.", "The answer is 1,000.", "The answer is 5",
			"The answer is 7.", "The answer is 7.",
		}},
		want: map[string][]any{
			"score-first": {"5"},
			"maj@64":      {"7"}, // 7 five times
			"maj@8":       {"5"}, // first eight: 5 and 7 three times each, 5 first
		},
	}}
	r := builtin(t)
	for _, tt := range tests {
		sel, err := r.Load([]string{tt.task})
		if err != nil {
			t.Fatal(err)
		}
		var pipes []*filters.Pipeline
		for _, f := range sel.Tasks()[0].Config.Filters {
			p, err := filters.NewPipeline(f.Name, f.Steps)
			if err != nil {
				t.Fatalf("%s: %v", tt.task, err)
			}
			pipes = append(pipes, p)
		}
		if len(pipes) != len(tt.want) {
			t.Errorf("%s: %d pipelines, want %d", tt.task, len(pipes), len(tt.want))
		}
		for _, p := range pipes {
			got, err := p.ApplyStrings(tt.resps, nil)
			if err != nil {
				t.Fatalf("%s %s: %v", tt.task, p.Name, err)
			}
			if want, ok := tt.want[p.Name]; !ok || !reflect.DeepEqual(got, want) {
				t.Errorf("%s %s: got %q, want %q", tt.task, p.Name, got, want)
			}
		}
	}
}
