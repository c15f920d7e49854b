package harness

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/lmeval/lmeval/harness/model"
)

// Chat and reasoning models: the model_args lm-eval's HF, vLLM and API
// models take for them, which the harness handles for every backend.
//
//   - chat_template_args: a JSON object of extra variables for the chat
//     template (HF's tokenizer.apply_chat_template(..., **chat_template_args)).
//   - enable_thinking: added to those variables (HF: chat_template_args |
//     {enable_thinking}); it needs think_end_token, and refuses
//     log-likelihood requests, as HFLM does.
//   - think_end_token: the text (or, all digits, the token id) that ends a
//     reasoning trace: a generation keeps only what follows its last
//     occurrence, left-stripped, and the task's stop sequences are applied
//     to that (lm_eval.models.utils.postprocess_generated_text), before any
//     filter sees it. The samples file keeps the whole generation
//     ("generations"), and the results count each task's thinking and
//     answer tokens (lmeval.generation).
//
// lmeval's additions, which bound the trace as llama-server's
// --reasoning-budget does (backends that count tokens: llama):
//
//   - reasoning_budget: the most tokens a trace may take; then
//     reasoning_budget_message and think_end_token are forced and the
//     model answers. 0 ends the trace at once; -1 (the default) sets no
//     limit.
//   - reasoning_budget_message: text forced before think_end_token when
//     the budget runs out ("" by default).
//   - think_start_token: the text that opens a trace; by default
//     think_end_token without its first "/" (</think> gives <think>). A
//     prompt that ends inside a trace (the chat template opened it) is
//     counted from its first generated token.

// ChatArgNames are the model_args the harness consumes; backends never see
// them.
var ChatArgNames = []string{"chat_template_args", "enable_thinking", "think_end_token",
	"think_start_token", "reasoning_budget", "reasoning_budget_message"}

// chatOptions are the parsed chat model_args.
type chatOptions struct {
	templateArgs   map[string]any
	enableThinking *bool
	thinkEnd       string // the text that ends a reasoning trace
	thinkTokenID   int32  // think_end_token given as a token id (-1: text)
	thinkGiven     bool
	thinkStart     string // think_start_token ("": derived from thinkEnd)
	budget         int    // reasoning_budget (-1: none)
	budgetMessage  string
}

// parseChatOptions reads the chat model_args (ChatArgNames) of a run.
func parseChatOptions(args map[string]string) (chatOptions, error) {
	o := chatOptions{thinkTokenID: -1, budget: -1}
	if s, ok := args["chat_template_args"]; ok && strings.TrimSpace(s) != "" {
		dec := json.NewDecoder(strings.NewReader(s))
		dec.UseNumber()
		if err := dec.Decode(&o.templateArgs); err != nil || o.templateArgs == nil {
			return o, fmt.Errorf("model_args chat_template_args=%s: want a JSON object of template variables (as --model_args '{\"chat_template_args\": {\"reasoning_effort\": \"low\"}}')", s)
		}
		o.templateArgs = jsonNumbers(o.templateArgs).(map[string]any)
	}
	if s, ok := args["enable_thinking"]; ok {
		b, err := parseArgBool(s)
		if err != nil {
			return o, fmt.Errorf("model_args enable_thinking=%s: want true or false", s)
		}
		o.enableThinking = &b
		if o.templateArgs == nil {
			o.templateArgs = map[string]any{}
		}
		o.templateArgs["enable_thinking"] = b
	}
	if s, ok := args["think_end_token"]; ok && s != "" {
		o.thinkGiven = true
		if isDigits(s) {
			id, err := strconv.ParseInt(s, 10, 32)
			if err != nil {
				return o, fmt.Errorf("model_args think_end_token=%s: %w", s, err)
			}
			o.thinkTokenID = int32(id)
		} else {
			o.thinkEnd = s
		}
	}
	if o.enableThinking != nil && *o.enableThinking && !o.thinkGiven {
		return o, fmt.Errorf("got enable_thinking=True, but think_end_token=None. think_end_token is required when using `enable_thinking=True`: give it in --model_args (think_end_token=</think> for most reasoning models)")
	}
	o.thinkStart = args["think_start_token"]
	o.budgetMessage = args["reasoning_budget_message"]
	if s, ok := args["reasoning_budget"]; ok && strings.TrimSpace(s) != "" {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < -1 {
			return o, fmt.Errorf("model_args reasoning_budget=%s: want a number of tokens, or -1 for no limit", s)
		}
		o.budget = n
	}
	if !o.thinkGiven {
		for _, k := range []string{"reasoning_budget", "reasoning_budget_message", "think_start_token"} {
			if _, ok := args[k]; ok {
				return o, fmt.Errorf("model_args %s needs think_end_token, the text that ends the model's reasoning (think_end_token=</think> for most reasoning models)", k)
			}
		}
	}
	if o.budget >= 0 && o.thinkTokenID >= 0 && o.thinkStart == "" {
		return o, fmt.Errorf("model_args reasoning_budget with think_end_token=%d, a token id: give think_start_token, the text that opens a trace", o.thinkTokenID)
	}
	if _, err := o.reasoning(); err != nil {
		return o, err
	}
	return o, nil
}

// reasoning is what generate requests carry for a reasoning model
// (think_end_token given): the trace's markers and budget. The start
// marker is think_start_token, else think_end_token without its first
// "/". A budget needs a start marker to know where a trace begins.
func (o *chatOptions) reasoning() (*model.Reasoning, error) {
	if o.thinkEnd == "" {
		return nil, nil
	}
	start := o.thinkStart
	if start == "" {
		start = strings.Replace(o.thinkEnd, "/", "", 1)
		if start == o.thinkEnd {
			start = ""
		}
	}
	if start == "" && o.budget >= 0 {
		return nil, fmt.Errorf("model_args reasoning_budget: think_end_token %q says nothing of the text that opens a trace: give think_start_token", o.thinkEnd)
	}
	return &model.Reasoning{Start: start, End: o.thinkEnd, Budget: o.budget, Message: o.budgetMessage}, nil
}

// resolveThinkToken turns a think_end_token token id into its text.
func (o *chatOptions) resolveThinkToken(lm model.LM) error {
	if o.thinkTokenID < 0 {
		return nil
	}
	tp, ok := model.As[model.TokenPiecer](lm)
	if !ok {
		return fmt.Errorf("model_args think_end_token=%d is a token id, and this model cannot give a token's text: give the token's text instead", o.thinkTokenID)
	}
	s := tp.TokenPiece(o.thinkTokenID)
	if s == "" {
		return fmt.Errorf("model_args think_end_token=%d: the model has no such token", o.thinkTokenID)
	}
	o.thinkEnd = s
	return nil
}

// postprocess is lm-eval's postprocess_generated_text: the text after
// the last think_end_token, left-stripped, cut at the first stop
// sequence.
func (o *chatOptions) postprocess(s string, until []string) string {
	if o.thinkEnd == "" {
		return s
	}
	if i := strings.LastIndex(s, o.thinkEnd); i >= 0 {
		s = s[i+len(o.thinkEnd):]
	}
	s = strings.TrimLeftFunc(s, isPySpace)
	for _, u := range until {
		if u != "" {
			if i := strings.Index(s, u); i >= 0 {
				s = s[:i]
			}
		}
	}
	return s
}

// thinkingLoglikelihoodError is HFLM's refusal of log-likelihood requests
// with enable_thinking=True.
func thinkingLoglikelihoodError(tasks map[string]bool) error {
	names := make([]string, 0, len(tasks))
	for n := range tasks {
		names = append(names, n)
	}
	sort.Strings(names)
	return fmt.Errorf("enable_thinking=True is not compatible with loglikelihood tasks. Please use generative tasks only when using `enable_thinking=True`. Triggered by task(s): %s", strings.Join(names, ", "))
}

func parseArgBool(s string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "1", "true", "yes", "on":
		return true, nil
	case "0", "false", "no", "off":
		return false, nil
	}
	return false, fmt.Errorf("not a boolean")
}

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// isPySpace is str.lstrip()'s whitespace.
func isPySpace(r rune) bool {
	return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f)
}

// jsonNumbers gives JSON numbers json.loads's types: int when written
// without a fraction or exponent, else float.
func jsonNumbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		if n, err := x.Int64(); err == nil && !strings.ContainsAny(string(x), ".eE") {
			return int(n)
		}
		f, _ := x.Float64()
		return f
	case []any:
		for i := range x {
			x[i] = jsonNumbers(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = jsonNumbers(x[k])
		}
	}
	return v
}
