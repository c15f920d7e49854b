package model

// OutputType is a task's output_type and the kind of each of its requests
// (lm-eval's api/instance.py OutputType). A multiple_choice task makes
// loglikelihood requests, one per choice; the other three types are each
// one kind of LM call.
type OutputType string

// The output types of lm-eval tasks.
const (
	OutputLoglikelihood        OutputType = "loglikelihood"
	OutputLoglikelihoodRolling OutputType = "loglikelihood_rolling"
	OutputMultipleChoice       OutputType = "multiple_choice"
	OutputGenerateUntil        OutputType = "generate_until"
)

// Valid reports whether t is one of lm-eval's output types.
func (t OutputType) Valid() bool {
	switch t {
	case OutputLoglikelihood, OutputLoglikelihoodRolling, OutputMultipleChoice, OutputGenerateUntil:
		return true
	}
	return false
}

// FullText is the text a loglikelihood request's tokens cover: context
// and continuation.
func (r LoglikelihoodRequest) FullText() string { return r.Context + r.Continuation }

// FullText is the text a rolling request's tokens cover.
func (r RollingRequest) FullText() string { return r.Text }

// FullText is a generation request's prompt (the tokens it generates are
// not known before).
func (r GenerateRequest) FullText() string { return r.Context }
