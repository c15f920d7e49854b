// Package groundcocoa ports lm_eval/tasks/groundcocoa/utils.py's
// process_docs: each document becomes the flight-booking question with its
// five options, the five answer sentences and the gold one.
package groundcocoa

import (
	"fmt"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/python/pyval"
)

const head = "A user has specified certain criteria for booking a flight. Below are five different flight options labeled 'A', 'B', 'C', 'D', and 'E'. Review these options and select the one that best matches the user requirements. Respond with a single option and the phrase 'The answer is Option ' followed by the correct letter - 'A', 'B', 'C', 'D', or 'E'\n\n"

// ProcessDocs is process_docs.
func ProcessDocs(docs []task.Doc) ([]task.Doc, error) {
	out := make([]task.Doc, len(docs))
	for i, d := range docs {
		q, ok := d["query"].(string)
		ans, ok2 := d["Answer"].(string)
		if !ok || !ok2 {
			return nil, fmt.Errorf("groundcocoa process_docs: document %d: query and Answer must be text", i)
		}
		text := head + "User Criteria: " + q
		text += "\n\n Option A: " + pyval.Str(d["Option A"]) + "\n"
		for _, l := range []string{"B", "C", "D", "E"} {
			text += "\n Option " + l + ": " + pyval.Str(d["Option "+l]) + "\n"
		}
		choices := make([]any, 5)
		for j, l := range []string{"A", "B", "C", "D", "E"} {
			choices[j] = "The answer is Option " + l
		}
		out[i] = task.Doc{"criteria": text, "choices": choices, "gold": "The answer is Option " + ans}
	}
	return out, nil
}

func init() {
	task.RegisterMapDocs(task.Helper{File: "groundcocoa/utils.py", Function: "process_docs",
		SHA256: "cc949f84044f229d71623c0523078515df694111ba53b1b0cfab6368af975caa"}, task.MapDocs{Fn: ProcessDocs, Columns: []string{"criteria", "choices", "gold"}})
}
