// Package afrixnli ports the helpers of lm_eval/tasks/afrixnli (AfriXNLI,
// IrokoBench): the label names each prompt family's doc_to_target maps
// the dataset's label (0, 1, 2) to, and the "lai prompt" doc_to_text.
// The weighted_f1_score aggregation the tasks re-export from
// lm_eval.utils is ports/f1score's.
package afrixnli

import (
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/pydoc"
)

// Labels are doc_to_target's replacements, by label, per prompt family.
var (
	// direct/prompt_1, 3, 4; translate/prompt_1, 3, 4; lai prompt.
	NLILabels = []string{"entailment", "neutral", "contradiction"}
	// anli prompt/en-direct and translate; direct/ and translate/prompt_2.
	TrueFalseLabels = []string{"True", "Neither", "False"}
	// direct/ and translate/prompt_5.
	InconclusiveLabels = []string{"true", "false", "inconclusive"}
)

// DocToTarget is doc_to_target: labels[doc["label"]].
func DocToTarget(doc task.Doc, labels []string) (string, error) {
	v, err := pydoc.Field(doc, "label")
	if err != nil {
		return "", err
	}
	return pydoc.Lookup(labels, v)
}

// laiTemplate is "lai prompt"'s doc_to_text template (direct and
// translate share it).
const laiTemplate = "Please identify whether the premise entails or contradicts the hypothesis in the following premise\n    and hypothesis. The answer should be exact entailment, contradiction, or neutral.\n\n    Premise: {premise}\n    Hypothesis: {hypothesis}\n\n    Is it entailment, contradiction, or neutral?"

// DocToText is "lai prompt"'s doc_to_text: the template with the premise
// and the hypothesis.
func DocToText(doc task.Doc) (string, error) {
	p, err := pydoc.Str(doc, "premise")
	if err != nil {
		return "", err
	}
	h, err := pydoc.Str(doc, "hypothesis")
	if err != nil {
		return "", err
	}
	return pydoc.Format(laiTemplate, map[string]string{"premise": p, "hypothesis": h})
}
