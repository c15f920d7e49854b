// Package mbpp ports lm-eval's mbpp/utils.py (tasks mbpp, mbpp_instruct,
// mbpp_plus, mbpp_plus_instruct): the three fixed few-shot examples, the
// code-block extraction filter of the instruct variants, and pass@1,
// which runs the programs (see internal/codeexec).
package mbpp

import (
	"context"
	"fmt"
	"strings"

	"github.com/lmeval/lmeval/internal/codeexec"
	"github.com/lmeval/lmeval/python/pyre"
)

var codeBlock = func() *pyre.Regexp {
	re, err := pyre.CompileFlags("```(?:\\w+)?\\n?(.*?)\\n?```", pyre.DOTALL)
	if err != nil {
		panic(err)
	}
	return re
}()

// ExtractCodeBlocks is utils.extract_code_blocks: the first ```...```
// block of "```" + text (the gen_prefix opened one), the language tag
// dropped; failing that, the same on text with "```python" turned into
// "```"; else "".
func ExtractCodeBlocks(text string) string {
	m := codeBlock.FindAll("```" + text)
	if len(m) == 0 {
		m = codeBlock.FindAll(strings.ReplaceAll(text, "```python", "```"))
	}
	if len(m) == 0 {
		return ""
	}
	return m[0].Group(1)
}

// BuildPredictions is utils.build_predictions: ExtractCodeBlocks of every
// response (the documents are not used).
func BuildPredictions(resps [][]string, _ []map[string]any) ([][]string, error) {
	out := make([][]string, len(resps))
	for i, resp := range resps {
		out[i] = make([]string, len(resp))
		for j, r := range resp {
			out[i][j] = ExtractCodeBlocks(r)
		}
	}
	return out, nil
}

// Runner runs the programs of PassAt1; its zero value is code_eval's
// settings (3 s per program, 4 at a time) with lmeval's memory limit.
var Runner = &codeexec.Runner{}

// PassAt1 is utils.pass_at_1: code_eval's pass@1 over the programs
// candidate + "\n" + reference.
func PassAt1(ctx context.Context, references []string, predictions [][]string) (float64, error) {
	score, _, err := Runner.PassAtK(ctx, references, predictions, []int{1})
	if err != nil {
		return 0, fmt.Errorf("pass_at_1: %w", err)
	}
	v, ok := score["pass@1"]
	if !ok {
		// code_eval leaves pass@1 out when a document has no candidate;
		// lm-eval's ["pass@1"] then raises KeyError.
		return 0, fmt.Errorf("pass_at_1: a document has no candidate program")
	}
	return v, nil
}

// ListFewshotSamples is utils.list_fewshot_samples: tasks 2, 3 and 4 of
// MBPP with is_fewshot set, the fixed examples of every mbpp variant.
func ListFewshotSamples() ([]map[string]any, error) {
	return []map[string]any{
		{
			"task_id": int64(2),
			"text":    "Write a function to find the similar elements from the given two tuple lists.",
			"code":    "def similar_elements(test_tup1, test_tup2):\r\n  res = tuple(set(test_tup1) & set(test_tup2))\r\n  return (res) ",
			"test_list": []any{
				"assert similar_elements((3, 4, 5, 6),(5, 7, 4, 10)) == (4, 5)",
				"assert similar_elements((1, 2, 3, 4),(5, 4, 3, 7)) == (3, 4)",
				"assert similar_elements((11, 12, 14, 13),(17, 15, 14, 13)) == (13, 14)",
			},
			"is_fewshot": true,
		},
		{
			"task_id": int64(3),
			"text":    "Write a python function to identify non-prime numbers.",
			"code":    "import math\r\ndef is_not_prime(n):\r\n    result = False\r\n    for i in range(2,int(math.sqrt(n)) + 1):\r\n        if n % i == 0:\r\n            result = True\r\n    return result",
			"test_list": []any{
				"assert is_not_prime(2) == False",
				"assert is_not_prime(10) == True",
				"assert is_not_prime(35) == True",
			},
			"is_fewshot": true,
		},
		{
			"task_id": int64(4),
			"text":    "Write a function to find the largest integers from a given list of numbers using heap queue algorithm.",
			"code":    "import heapq as hq\r\ndef heap_queue_largest(nums,n):\r\n  largest_nums = hq.nlargest(n, nums)\r\n  return largest_nums",
			"test_list": []any{
				"assert heap_queue_largest( [25, 35, 22, 85, 14, 65, 75, 22, 58],3)==[85, 75, 65] ",
				"assert heap_queue_largest( [25, 35, 22, 85, 14, 65, 75, 22, 58],2)==[85, 75] ",
				"assert heap_queue_largest( [25, 35, 22, 85, 14, 65, 75, 22, 58],5)==[85, 75, 65, 58, 35]",
			},
			"is_fewshot": true,
		},
	}, nil
}
