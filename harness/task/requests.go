package task

// Request construction (lm-eval's construct_requests) and the methods on
// an Instance that read its kind, so that no caller switches on Type.

import (
	"fmt"

	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/python/pyval"
)

// loglikelihood is base as the idx-th request of its document: log
// P(continuation | context).
func (base Instance) loglikelihood(idx int, context, continuation string) Instance {
	in := base
	in.Type, in.Idx = OutputLoglikelihood, idx
	in.Loglikelihood = model.LoglikelihoodRequest{Context: context, Continuation: continuation}
	return in
}

// rolling is base as a loglikelihood_rolling request of text.
func (base Instance) rolling(text string) Instance {
	in := base
	in.Type = OutputLoglikelihoodRolling
	in.Rolling = model.RollingRequest{Text: text}
	return in
}

// generate is base as the idx-th request of its document: a generation
// from context with lm-eval's generation_kwargs (kept, as lm-eval logs
// them, in a copy).
func (base Instance) generate(idx int, context string, genKwargs map[string]any) Instance {
	in := base
	in.Type, in.Idx = OutputGenerateUntil, idx
	in.GenKwargs = pyval.DeepCopy(genKwargs).(map[string]any)
	in.Generate = genRequest(genKwargs)
	in.Generate.Context = context
	return in
}

// RequestSink receives an Instance's model request, by kind (SendTo).
type RequestSink interface {
	Loglikelihood(model.LoglikelihoodRequest)
	Rolling(model.RollingRequest)
	Generate(model.GenerateRequest)
}

// SendTo hands the instance's request to the sink's method for its kind.
func (in *Instance) SendTo(s RequestSink) error {
	switch in.Type {
	case OutputLoglikelihood:
		s.Loglikelihood(in.Loglikelihood)
	case OutputLoglikelihoodRolling:
		s.Rolling(in.Rolling)
	case OutputGenerateUntil:
		s.Generate(in.Generate)
	default:
		return fmt.Errorf("unknown request type %q", in.Type)
	}
	return nil
}

// TextLen is the length in bytes of the text the request's tokens cover:
// context and continuation, the rolling text, or the generation prompt.
func (in *Instance) TextLen() int {
	switch in.Type {
	case OutputLoglikelihood:
		return len(in.Loglikelihood.Context) + len(in.Loglikelihood.Continuation)
	case OutputLoglikelihoodRolling:
		return len(in.Rolling.Text)
	case OutputGenerateUntil:
		return len(in.Generate.Context)
	}
	return 0
}

// Arguments are the request's arguments as lm-eval logs them
// (Instance.arguments): (context, continuation), (text,), or (context,
// generation kwargs) with the kwargs as orderKwargs presents them.
func (in *Instance) Arguments(orderKwargs func(map[string]any) any) []any {
	switch in.Type {
	case OutputLoglikelihood:
		return []any{in.Loglikelihood.Context, in.Loglikelihood.Continuation}
	case OutputLoglikelihoodRolling:
		return []any{in.Rolling.Text}
	case OutputGenerateUntil:
		return []any{in.Generate.Context, orderKwargs(in.GenKwargs)}
	}
	return nil
}

// requests is construct_requests.
func (t *Task) requests(d *DocInfo, genKwargs map[string]any, opts BuildOptions) error {
	c := t.Config
	delim := c.TargetDelimiter
	if opts.ChatTemplate != nil {
		delim = "" // the chat template ends the context
	}
	base := Instance{Task: t.Name, DocID: d.ID, Doc: d, Repeats: c.Repeats}
	add := func(in Instance) { t.Instances = append(t.Instances, in) }
	if c.Class != nil {
		return t.classRequests(d, base, genKwargs, opts)
	}
	switch c.OutputType {
	case OutputLoglikelihood:
		add(base.loglikelihood(0, d.Context, pyval.Str(d.Target)))
	case OutputLoglikelihoodRolling:
		s, ok := d.Target.(string)
		if !ok {
			return fmt.Errorf("loglikelihood_rolling needs a string target, got %T", d.Target)
		}
		add(base.rolling(s))
	case OutputMultipleChoice:
		if d.Choices == nil {
			return fmt.Errorf("multiple_choice needs doc_to_choice")
		}
		gold := d.Target
		if t.MultipleInput {
			g, err := t.DocToText(d.Doc, nil)
			if err != nil {
				return err
			}
			gold = g
		}
		if l, ok := gold.([]any); ok {
			d.Golds = make([]int, len(l))
			for i, g := range l {
				gi, isInt := normInt(g).(int)
				if isInt && gi < len(d.Choices) {
					d.Golds[i] = gi
				} else {
					d.Golds[i] = -100
				}
			}
		} else {
			d.Gold = goldIndex(d.Choices, gold)
		}
		idx := 0
		for i, ch := range d.Choices {
			if t.MultipleInput {
				add(base.loglikelihood(idx, d.Contexts[i], delim+pyval.Str(d.Target)))
			} else {
				add(base.loglikelihood(idx, d.Context, delim+ch))
			}
			idx++
		}
		if hasMetric(c, "acc_mutual_info") {
			for _, ch := range d.Choices {
				add(base.loglikelihood(idx, "", delim+ch))
				idx++
			}
		}
	case OutputGenerateUntil:
		add(base.generate(0, d.Context, genKwargs))
	}
	return nil
}

func hasMetric(c *Config, name string) bool {
	for _, m := range c.MetricNames() {
		if m == name {
			return true
		}
	}
	return false
}

// DefaultMaxGenToks is lm-eval's default max_gen_toks.
const DefaultMaxGenToks = 256

// genRequest maps generation_kwargs onto a model.GenerateRequest.
func genRequest(g map[string]any) model.GenerateRequest {
	r := model.GenerateRequest{MaxGenToks: DefaultMaxGenToks}
	switch u := g["until"].(type) {
	case string:
		r.Until = []string{u}
	case []any:
		for _, s := range u {
			r.Until = append(r.Until, pyval.Str(s))
		}
	case []string:
		r.Until = append(r.Until, u...)
	}
	if n, ok := toInt(g["max_gen_toks"]); ok {
		r.MaxGenToks = n
	}
	r.DoSample = toBool(g["do_sample"])
	if f, ok := number(g["temperature"]); ok {
		r.Temperature = f
	}
	if f, ok := number(g["top_p"]); ok {
		r.TopP = f
	}
	if n, ok := toInt(g["top_k"]); ok {
		r.TopK = n
	}
	if n, ok := toInt(g["seed"]); ok {
		r.Seed = int64(n)
	}
	return r
}

// classRequests is a Python class task's construct_requests.
func (t *Task) classRequests(d *DocInfo, base Instance, genKwargs map[string]any, opts BuildOptions) error {
	reqs, err := t.Config.Class.Requests(d.Doc, d.Context, RequestOptions{GenKwargs: genKwargs, ChatTemplate: opts.ChatTemplate != nil})
	if err != nil {
		return fmt.Errorf("construct_requests: %w", err)
	}
	for _, r := range reqs {
		in, err := r.instance(base, d.Context)
		if err != nil {
			return err
		}
		t.Instances = append(t.Instances, in)
	}
	return nil
}

// instance is the Instance a class's request makes, on the document's
// context.
func (r ClassRequest) instance(base Instance, context string) (Instance, error) {
	switch r.Type {
	case OutputLoglikelihood:
		return base.loglikelihood(r.Idx, context, r.Continuation), nil
	case OutputGenerateUntil:
		return base.generate(r.Idx, context, r.GenKwargs), nil
	}
	return Instance{}, fmt.Errorf("construct_requests: request type %q", r.Type)
}
