package task

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/python/pyrand"
	"github.com/lmeval/lmeval/python/pyre"
	"github.com/lmeval/lmeval/python/pyval"
)

// sampler draws few-shot examples as lm-eval's ContextSampler (default),
// FirstNSampler (first_n), or class-balanced (balanced, lmeval's own).
type sampler struct {
	t    *Task
	docs []Doc
	rnd  *pyrand.Rand
	kind string
}

// sample is ContextSampler.sample: one rnd.sample(docs, n) per call.
func (s *sampler) sample(n int) ([]Doc, error) {
	switch s.kind {
	case "first_n":
		if n > len(s.docs) {
			return nil, fmt.Errorf("number of fewshot samples requested (%d) exceeds the %d that are available", n, len(s.docs))
		}
		return s.docs[:n], nil
	case "balanced":
		return s.balanced(n)
	}
	idx, err := s.rnd.Sample(len(s.docs), n)
	if err != nil {
		return nil, fmt.Errorf("drawing %d few-shot examples from %d documents: %w", n, len(s.docs), err)
	}
	out := make([]Doc, len(idx))
	for i, j := range idx {
		out[i] = s.docs[j]
	}
	return out, nil
}

// balanced draws a random permutation with the task's generator and takes
// documents round-robin across their gold labels, so every label is as
// equally represented as n allows. Labels are visited in the order they
// first appear in the permutation.
func (s *sampler) balanced(n int) ([]Doc, error) {
	if n > len(s.docs) {
		return nil, fmt.Errorf("number of fewshot samples requested (%d) exceeds the %d that are available", n, len(s.docs))
	}
	perm, err := s.rnd.Sample(len(s.docs), len(s.docs))
	if err != nil {
		return nil, err
	}
	var labels []string
	buckets := map[string][]Doc{}
	for _, j := range perm {
		d := s.docs[j]
		l, err := s.t.label(d)
		if err != nil {
			return nil, fmt.Errorf("balanced sampler: %w", err)
		}
		if _, ok := buckets[l]; !ok {
			labels = append(labels, l)
		}
		buckets[l] = append(buckets[l], d)
	}
	out := make([]Doc, 0, n)
	for round := 0; len(out) < n; round++ {
		for _, l := range labels {
			if round < len(buckets[l]) && len(out) < n {
				out = append(out, buckets[l][round])
			}
		}
	}
	return out, nil
}

// label is a few-shot document's gold answer as text, for balancing.
func (t *Task) label(d Doc) (string, error) {
	fc := t.Config.Fewshot
	target, err := t.DocToTarget(d, fc.DocToTarget)
	if err != nil {
		return "", err
	}
	if l, ok := target.([]any); ok && len(l) > 0 {
		target = l[0]
	}
	if i, ok := target.(int); ok && t.Config.DocToChoice != nil {
		choices, err := t.DocToChoice(d, fc.DocToChoice)
		if err != nil {
			return "", err
		}
		if i >= 0 && i < len(choices) {
			return choices[i], nil
		}
	}
	return pyval.Str(target), nil
}

// drawCount is how many documents get_context draws for k shots: one more
// when the few-shot split is the test split (None == None included), so
// the evaluated document can be dropped.
func (t *Task) drawCount(k int) int {
	if t.Config.fewshotSplit() == t.Config.TestSplit {
		return k + 1
	}
	return k
}

// shot is one few-shot example: as text (ContextSampler.get_context) and as
// a user/assistant turn pair (get_chat_context with fewshot_as_multiturn).
type shot struct {
	flat, user, assistant string
}

// shots is ContextSampler.get_context split into its examples, so that a
// prompt too long for the context can drop examples from the end.
func (t *Task) shots(s *sampler, doc Doc, k int) ([]shot, error) {
	c := t.Config
	n := t.drawCount(k)
	drawn, err := s.sample(n)
	if err != nil {
		return nil, err
	}
	// lm-eval's sampler drops the evaluated document (and any equal to it)
	// only when the shots come from the test split (sample's eval_doc);
	// from another split an equal document stays a shot.
	var selected []Doc
	for _, x := range drawn {
		if n == k || !pyval.Equal(x, doc) {
			selected = append(selected, x)
		}
	}
	if len(selected) > k {
		selected = selected[:k]
	}
	fc := c.Fewshot
	out := make([]shot, 0, len(selected))
	for _, d := range selected {
		var b strings.Builder
		content, err := t.DocToText(d, fc.DocToText)
		if err != nil {
			return nil, fmt.Errorf("few-shot doc_to_text: %w", err)
		}
		target, err := t.DocToTarget(d, fc.DocToTarget)
		if err != nil {
			return nil, fmt.Errorf("few-shot doc_to_target: %w", err)
		}
		// lm-eval renders the few-shot gen_prefix (fewshot_config's, else
		// the task's) on the example itself.
		gp, err := t.fewshotGenPrefix(d)
		if err != nil {
			return nil, err
		}
		var sh shot
		switch x := content.(type) {
		case string:
			b.WriteString(x)
			sh.user = x
		case int:
			if c.DocToChoice == nil {
				sh.user = pyval.Str(x)
			}
			choices, err := t.DocToChoice(d, fc.DocToChoice)
			if err != nil {
				return nil, fmt.Errorf("few-shot doc_to_choice: %w", err)
			}
			if x < 0 || x >= len(choices) {
				return nil, fmt.Errorf("few-shot doc_to_text index %d out of range of %d choices", x, len(choices))
			}
			b.WriteString(choices[x])
			if c.DocToChoice != nil {
				sh.user = choices[x]
			}
		default:
			sh.user = pyval.Str(x)
		}
		var answer string
		switch x := target.(type) {
		case []any:
			if len(x) == 0 {
				return nil, fmt.Errorf("few-shot doc_to_target returned an empty list")
			}
			answer = pyval.Str(x[0])
		case string:
			answer = x
		default:
			if c.DocToChoice == nil {
				answer = pyval.Str(x)
				break
			}
			i, ok := x.(int)
			choices, err := t.DocToChoice(d, fc.DocToChoice)
			if err != nil {
				return nil, fmt.Errorf("few-shot doc_to_choice: %w", err)
			}
			if !ok || i < 0 || i >= len(choices) {
				return nil, fmt.Errorf("few-shot target %v out of range of %d choices", x, len(choices))
			}
			answer = choices[i]
		}
		// build_qa_turn: the target delimiter follows the question when
		// there is an answer and no gen_prefix, or when the gen_prefix
		// needs one; the answer is joined to the gen_prefix with a space
		// unless either side has whitespace there.
		ts, isStr := target.(string)
		hasAnswer := !isStr || ts != ""
		if hasAnswer && gp == "" || gp != "" && requiresDelimiter(sh.user, gp) {
			b.WriteString(c.TargetDelimiter)
		}
		switch {
		case hasAnswer:
			sh.assistant = maybeDelimit(gp, answer)
			b.WriteString(sh.assistant)
			b.WriteString(c.FewshotDelimiter)
		case gp != "":
			sh.assistant = gp
			b.WriteString(gp)
		}
		sh.flat = b.String()
		out = append(out, sh)
	}
	return out, nil
}

// buildDoc makes one document's prompt (fewshot_context) and requests
// (construct_requests).
func (t *Task) buildDoc(d *DocInfo, smp *sampler, genKwargs map[string]any, opts BuildOptions) error {
	c := t.Config
	doc := d.Doc
	genPrefix, err := t.GenPrefix(doc)
	if err != nil {
		return err
	}
	description := ""
	if c.Description != "" {
		if description, err = t.render(c.Description, doc); err != nil {
			return fmt.Errorf("description: %w", err)
		}
	}
	system := description
	if opts.SystemInstruction != "" {
		system = opts.SystemInstruction
		if description != "" {
			system += c.FewshotDelimiter + description
		}
	}
	var shots []shot
	if smp != nil {
		if opts.ChatTemplate != nil && !opts.FewshotAsMultiturn {
			// get_chat_context draws once, then calls get_context, which
			// draws again: the first draw only advances the generator.
			if _, err := smp.sample(t.drawCount(t.NumFewshot)); err != nil {
				return err
			}
		}
		if shots, err = t.shots(smp, doc, t.NumFewshot); err != nil {
			return err
		}
	}

	example, err := t.DocToText(doc, nil)
	if err != nil {
		return fmt.Errorf("doc_to_text: %w", err)
	}
	if d.Target, err = t.DocToTarget(doc, nil); err != nil {
		return fmt.Errorf("doc_to_target: %w", err)
	}
	if c.DocToChoice != nil {
		if d.Choices, err = t.DocToChoice(doc, nil); err != nil {
			return err
		}
	}
	suffix := ""
	if genPrefix != nil {
		suffix = *genPrefix
	}
	var question string
	switch x := example.(type) {
	case string:
		question = x
	case int:
		if c.DocToChoice != nil {
			if x < 0 || x >= len(d.Choices) {
				return fmt.Errorf("doc_to_text index %d out of range of %d choices", x, len(d.Choices))
			}
			question = d.Choices[x]
		} else {
			question = pyval.Str(x)
		}
	default:
		return fmt.Errorf("doc_to_text returned %T; lists of contexts are not supported", example)
	}

	// Shots are dropped from the end until the longest request fits.
	used := len(shots)
	for {
		if opts.ChatTemplate != nil {
			if err := t.chatContext(d, system, shots[:used], question, genPrefix, opts); err != nil {
				return err
			}
		} else if labeled := system + flatShots(shots[:used]); t.MultipleInput {
			d.Context = labeled
			d.Contexts = make([]string, len(d.Choices))
			for i, ch := range d.Choices {
				d.Contexts[i] = labeled + ch
			}
		} else {
			d.Context = labeled + question
			if suffix != "" && requiresDelimiter(question, suffix) {
				d.Context += c.TargetDelimiter
			}
			d.Context += suffix
		}
		fits, err := t.fits(d, genKwargs, opts)
		if err != nil {
			return err
		}
		if fits || used == 0 {
			break
		}
		used--
	}
	d.Shots, d.Cut = used, len(shots)-used
	return t.requests(d, genKwargs, opts)
}

// requiresDelimiter is lm-eval's api.utils.requires_delimiter: neither
// side has whitespace at the join (and the prefix is not empty).
func requiresDelimiter(prefix, suffix string) bool {
	if prefix == "" || suffix == "" {
		return false
	}
	last, _ := utf8.DecodeLastRuneInString(prefix)
	first, _ := utf8.DecodeRuneInString(suffix)
	return !pyre.IsSpace(last) && !pyre.IsSpace(first)
}

// maybeDelimit is lm-eval's api.utils.maybe_delimit with a space: prefix
// and suffix joined, with a space between unless either is empty or has
// whitespace at the join.
func maybeDelimit(prefix, suffix string) string {
	if prefix == "" || suffix == "" {
		return prefix + suffix
	}
	if requiresDelimiter(prefix, suffix) {
		return prefix + " " + suffix
	}
	return prefix + suffix
}

// fewshotGenPrefix is the gen_prefix of a few-shot example (lm-eval's
// resolve_field of fewshot_config.gen_prefix, which defaults to the
// task's): a document field, else a template rendered on the example; ""
// when unset.
func (t *Task) fewshotGenPrefix(d Doc) (string, error) {
	gp := t.Config.Fewshot.GenPrefix
	if gp == nil {
		gp = t.Config.GenPrefix
	}
	if gp == nil || *gp == "" {
		return "", nil
	}
	if v, ok := d[*gp]; ok {
		return pyval.Str(v), nil
	}
	s, err := t.render(*gp, d)
	if err != nil {
		return "", fmt.Errorf("few-shot gen_prefix: %w", err)
	}
	return s, nil
}

func flatShots(shots []shot) string {
	var b strings.Builder
	for _, s := range shots {
		b.WriteString(s.flat)
	}
	return b.String()
}

// ChatMessage is one turn of a chat transcript (model.ChatMessage, which
// a model's ChatTemplater takes).
type ChatMessage = model.ChatMessage

// ChatTemplate renders a transcript into the model's prompt format (the
// model's apply_chat_template). With addGenerationPrompt false the last
// (assistant) message is continued rather than closed.
type ChatTemplate func(msgs []ChatMessage, addGenerationPrompt bool) (string, error)

// chatContext is fewshot_context with apply_chat_template.
func (t *Task) chatContext(d *DocInfo, system string, shots []shot, question string, genPrefix *string, opts BuildOptions) error {
	var msgs []ChatMessage
	if system != "" {
		msgs = append(msgs, ChatMessage{Role: "system", Content: system})
	}
	if len(shots) > 0 {
		if opts.FewshotAsMultiturn {
			for _, s := range shots {
				msgs = append(msgs, ChatMessage{Role: "user", Content: s.user}, ChatMessage{Role: "assistant", Content: s.assistant})
			}
		} else {
			msgs = append(msgs, ChatMessage{Role: "user", Content: flatShots(shots)})
		}
	}
	if t.MultipleInput {
		d.Context = ""
		d.Contexts = make([]string, len(d.Choices))
		for i, ch := range d.Choices {
			// construct_requests appends each choice as its own user turn.
			turn, err := opts.ChatTemplate([]ChatMessage{{Role: "user", Content: ch}}, true)
			if err != nil {
				return fmt.Errorf("chat template: %w", err)
			}
			d.Contexts[i] = turn
		}
		if len(msgs) > 0 {
			ctx, err := opts.ChatTemplate(msgs, true)
			if err != nil {
				return fmt.Errorf("chat template: %w", err)
			}
			d.Context = ctx
			for i := range d.Contexts {
				d.Contexts[i] = ctx + d.Contexts[i]
			}
		}
		return nil
	}
	// append_target_question
	if opts.FewshotAsMultiturn || len(msgs) == 0 || msgs[len(msgs)-1].Role == "system" {
		msgs = append(msgs, ChatMessage{Role: "user", Content: question})
	} else {
		msgs[len(msgs)-1].Content += question
	}
	if genPrefix != nil && *genPrefix != "" {
		msgs = append(msgs, ChatMessage{Role: "assistant", Content: *genPrefix})
	}
	ctx, err := opts.ChatTemplate(msgs, genPrefix == nil || *genPrefix == "")
	if err != nil {
		return fmt.Errorf("chat template: %w", err)
	}
	d.Context = ctx
	return nil
}

// fits reports whether the document's longest request fits MaxTokens.
func (t *Task) fits(d *DocInfo, genKwargs map[string]any, opts BuildOptions) (bool, error) {
	if opts.CountTokens == nil || opts.MaxTokens <= 0 || t.NumFewshot == 0 {
		return true, nil
	}
	c := t.Config
	budget := opts.MaxTokens
	delim := c.TargetDelimiter
	if opts.ChatTemplate != nil {
		delim = ""
	}
	var texts []string
	switch c.OutputType {
	case OutputMultipleChoice:
		if t.MultipleInput {
			for _, ctx := range d.Contexts {
				texts = append(texts, ctx+delim+pyval.Str(d.Target))
			}
		} else {
			for _, ch := range d.Choices {
				texts = append(texts, d.Context+delim+ch)
			}
		}
	case OutputLoglikelihood:
		texts = []string{d.Context + pyval.Str(d.Target)}
	case OutputGenerateUntil:
		texts = []string{d.Context}
		budget -= genRequest(genKwargs).MaxGenToks
	default:
		return true, nil
	}
	for _, s := range texts {
		n, err := opts.CountTokens(s)
		if err != nil {
			return false, fmt.Errorf("counting tokens: %w", err)
		}
		if n > budget {
			return false, nil
		}
	}
	return true, nil
}
