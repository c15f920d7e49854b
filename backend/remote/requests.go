package remote

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"unicode"

	"github.com/lmeval/lmeval/engine"
	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/harness/progress"
)

// completionAnswer is the part of a completions answer lmeval reads.
type completionAnswer struct {
	Choices []struct {
		Index    int    `json:"index"`
		Text     string `json:"text"`
		Logprobs *struct {
			Tokens        []string             `json:"tokens"`
			TokenLogprobs []*float64           `json:"token_logprobs"`
			TopLogprobs   []map[string]float64 `json:"top_logprobs"`
		} `json:"logprobs"`
		Message *struct {
			Content *string `json:"content"`
		} `json:"message"`
	} `json:"choices"`
}

// scoreBody is the completions request for prompts' own log-probs, as
// lm-eval's LocalCompletionsAPI makes it (echo, logprobs 1, greedy); for
// `lmeval serve` max_tokens is 0, so nothing is generated.
func (l *LM) scoreBody(prompts [][]int32) map[string]any {
	maxTokens := 1
	if l.lmevalSrv {
		maxTokens = 0
	}
	var prompt any = prompts
	if len(prompts) == 1 {
		prompt = prompts[0]
	}
	return map[string]any{
		"model": l.opts.Model, "prompt": prompt, "echo": true, "logprobs": 1,
		"max_tokens": maxTokens, "temperature": 0, "seed": l.opts.Seed,
	}
}

type scored struct {
	logProb float64
	greedy  bool
}

// parseScores reads the log-probs of prompts[i][ctxlens[i]:] from an echo
// answer, as lm-eval's LocalCompletionsAPI.parse_logprobs does (greedy:
// each token's log-prob is the top one at its position), checking that
// the server returned one log-prob per prompt token.
func (l *LM) parseScores(ans *completionAnswer, prompts [][]int32, ctxlens []int) ([]scored, error) {
	if len(ans.Choices) != len(prompts) {
		return nil, fmt.Errorf("%d choices for %d prompts", len(ans.Choices), len(prompts))
	}
	choices := append(ans.Choices[:0:0], ans.Choices...)
	sort.SliceStable(choices, func(a, b int) bool { return choices[a].Index < choices[b].Index })
	out := make([]scored, len(prompts))
	for i, c := range choices {
		n := len(prompts[i])
		if c.Logprobs == nil {
			return nil, fmt.Errorf("choice %d has no logprobs", i)
		}
		tl, top := c.Logprobs.TokenLogprobs, c.Logprobs.TopLogprobs
		if len(tl) < n || len(top) < n {
			return nil, fmt.Errorf("choice %d: %d token log-probs and %d top log-probs for a prompt of %d tokens (the prompt's own log-probs are missing)",
				i, len(tl), len(top), n)
		}
		if c.Logprobs.Tokens != nil && len(c.Logprobs.Tokens) < n {
			return nil, fmt.Errorf("choice %d: %d tokens echoed for a prompt of %d", i, len(c.Logprobs.Tokens), n)
		}
		s := scored{greedy: true}
		for p := ctxlens[i]; p < n; p++ {
			if tl[p] == nil {
				return nil, fmt.Errorf("choice %d: no log-prob for prompt token %d", i, p)
			}
			if len(top[p]) == 0 {
				return nil, fmt.Errorf("choice %d: no top log-probs at prompt token %d", i, p)
			}
			s.logProb += *tl[p]
			best := *tl[p]
			first := true
			for _, v := range top[p] {
				if first || v > best {
					best, first = v, false
				}
			}
			if *tl[p] != best {
				s.greedy = false
			}
		}
		out[i] = s
	}
	return out, nil
}

// parallel runs fn(i) for i in [0, n) on up to workers goroutines and
// returns the first error (the others stop early).
func parallel(ctx context.Context, n, workers int, fn func(ctx context.Context, i int) error) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	next := make(chan int)
	var wg sync.WaitGroup
	var once sync.Once
	var first error
	for w := 0; w < min(workers, n); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if err := fn(ctx, i); err != nil {
					once.Do(func() { first = err; cancel(err) })
				}
			}
		}()
	}
feed:
	for i := 0; i < n; i++ {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if first != nil {
		return first
	}
	return ctx.Err()
}

// pySpace is Python's str.isspace, which rstrip uses.
func pySpace(r rune) bool { return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f) }

// prefix is lm-eval's prefix_token_id: BOS, else EOS.
func (l *LM) prefix() (int32, error) {
	if l.prefixTok >= 0 {
		return l.prefixTok, nil
	}
	if l.bos >= 0 {
		return l.bos, nil
	}
	if l.eos >= 0 {
		return l.eos, nil
	}
	return -1, errors.New("the server's tokenizer reports neither a BOS nor an EOS token to condition an empty context on")
}

// encodePair splits a request into context and continuation tokens with
// the server's tokenizer, as lm-eval's TemplateLM.loglikelihood and
// _encode_pair do.
func (l *LM) encodePair(ctx context.Context, context, continuation string) ([]int32, []int32, error) {
	if context == "" {
		cont, err := l.tokenize(ctx, continuation, false)
		if err != nil {
			return nil, nil, err
		}
		if len(cont) == 0 {
			return nil, nil, engine.ErrEmptyContinuation
		}
		p, err := l.prefix()
		if err != nil {
			return nil, nil, err
		}
		if cont[0] == p {
			return cont[:1], cont[1:], nil
		}
		return []int32{p}, cont, nil
	}
	trimmed := strings.TrimRightFunc(context, pySpace)
	if n := len(context) - len(trimmed); n > 0 {
		continuation = context[len(trimmed):] + continuation
		context = trimmed
	}
	whole, err := l.tokenize(ctx, context+continuation, true)
	if err != nil {
		return nil, nil, err
	}
	ctxToks, err := l.tokenize(ctx, context, true)
	if err != nil {
		return nil, nil, err
	}
	if len(ctxToks) >= len(whole) {
		return nil, nil, engine.ErrEmptyContinuation
	}
	return ctxToks, whole[len(ctxToks):], nil
}

// scoreItem is one token sequence to score from ctxlen on.
type scoreItem struct {
	full   []int32
	ctxlen int
	slot   int // result slot
}

// layout cuts context+continuation from the left as HFLM does: at most
// max_length+1 tokens, of which the server decodes all but the last (for
// servers that must generate a token, max_length-1 in all).
func (l *LM) layout(ctxToks, cont []int32, slot int) (scoreItem, error) {
	if len(cont) == 0 {
		return scoreItem{}, engine.ErrEmptyContinuation
	}
	keep := l.maxLength + 1
	if !l.lmevalSrv {
		keep = l.maxLength - 1
	}
	if len(cont) >= keep {
		return scoreItem{}, fmt.Errorf("continuation of %d tokens exceeds max_length %d", len(cont), l.maxLength)
	}
	full := append(append(make([]int32, 0, len(ctxToks)+len(cont)), ctxToks...), cont...)
	if len(full) > keep {
		full = full[len(full)-keep:]
	}
	return scoreItem{full: full, ctxlen: len(full) - len(cont), slot: slot}, nil
}

// score sends the items, BatchSize prompts per request, and adds each
// item's log-prob into lp[slot] (clearing greedy[slot] when a token is not
// the top one). badItem maps a refused item to the caller's index.
func (l *LM) score(ctx context.Context, op string, items []scoreItem, lp []float64, greedy []bool, badItem func(scoreItem) int) error {
	bs := max(l.opts.BatchSize, 1)
	nb := (len(items) + bs - 1) / bs
	var mu sync.Mutex
	rep := progress.ReporterFromContext(ctx)
	return parallel(ctx, nb, l.opts.NumConcurrent, func(ctx context.Context, b int) error {
		batch := items[b*bs : min((b+1)*bs, len(items))]
		prompts := make([][]int32, len(batch))
		ctxlens := make([]int, len(batch))
		toks := 0
		for i, it := range batch {
			prompts[i], ctxlens[i] = it.full, it.ctxlen
			toks += len(it.full)
		}
		var res []scored
		_, _, err := l.pool.post(ctx, "/v1/completions", l.scoreBody(prompts),
			func() any { return &completionAnswer{} },
			func(v any) error {
				var perr error
				res, perr = l.parseScores(v.(*completionAnswer), prompts, ctxlens)
				return perr
			})
		if err != nil {
			var se *statusError
			if errors.As(err, &se) && se.clientError() && len(batch) == 1 {
				return &model.RequestError{Index: badItem(batch[0]), Err: fmt.Errorf("%s: %w", op, err)}
			}
			return fmt.Errorf("%s: %w", op, err)
		}
		mu.Lock()
		for i, it := range batch {
			lp[it.slot] += res[i].logProb
			greedy[it.slot] = greedy[it.slot] && res[i].greedy
		}
		mu.Unlock()
		if rep != nil && badItem != nil {
			rep.Add(len(batch), toks)
		}
		return nil
	})
}

// Loglikelihood implements model.LM.
func (l *LM) Loglikelihood(ctx context.Context, reqs []model.LoglikelihoodRequest) ([]model.LoglikelihoodResult, error) {
	if l.probeErr != nil {
		return nil, fmt.Errorf("loglikelihood: %w", l.probeErr)
	}
	items := make([]scoreItem, len(reqs))
	out := make([]model.LoglikelihoodResult, len(reqs))
	err := parallel(ctx, len(reqs), l.opts.NumConcurrent, func(ctx context.Context, i int) error {
		r := reqs[i]
		c, k, err := l.encodePair(ctx, r.Context, r.Continuation)
		if err == nil {
			items[i], err = l.layout(c, k, i)
		}
		if err != nil {
			if errors.Is(err, engine.ErrEmptyContinuation) || strings.Contains(err.Error(), "exceeds max_length") {
				return &model.RequestError{Index: i, Err: fmt.Errorf("loglikelihood request %d (context %.40q, continuation %.40q): %w", i, r.Context, r.Continuation, err)}
			}
			return err
		}
		out[i].NumTokens = len(k)
		return nil
	})
	if err != nil {
		return nil, err
	}
	lp, greedy := make([]float64, len(reqs)), make([]bool, len(reqs))
	for i := range greedy {
		greedy[i] = true
	}
	if err := l.score(ctx, "loglikelihood", items, lp, greedy, func(it scoreItem) int { return it.slot }); err != nil {
		return nil, err
	}
	for i := range out {
		out[i].LogProb, out[i].IsGreedy = lp[i], greedy[i]
	}
	return out, nil
}

// LoglikelihoodRolling implements model.LM: lm-eval's rolling windows
// (max_length, context_len 1, the first conditioned on the prefix token)
// over the text's tokens, each window scored by echo.
func (l *LM) LoglikelihoodRolling(ctx context.Context, reqs []model.RollingRequest) ([]model.RollingResult, error) {
	if l.probeErr != nil {
		return nil, fmt.Errorf("loglikelihood_rolling: %w", l.probeErr)
	}
	p, err := l.prefix()
	if err != nil {
		return nil, err
	}
	windows := make([][]scoreItem, len(reqs))
	out := make([]model.RollingResult, len(reqs))
	err = parallel(ctx, len(reqs), l.opts.NumConcurrent, func(ctx context.Context, i int) error {
		toks, err := l.tokenize(ctx, reqs[i].Text, true)
		if err != nil {
			return err
		}
		maxLen := l.maxLength
		if !l.lmevalSrv {
			maxLen = l.maxLength - 2
		}
		wins, err := engine.RollingWindows(toks, p, maxLen, 1)
		if err != nil {
			return &model.RequestError{Index: i, Err: err}
		}
		for _, w := range wins {
			it, err := l.layout(w.Context, w.Continuation, i)
			if err != nil {
				return &model.RequestError{Index: i, Err: err}
			}
			windows[i] = append(windows[i], it)
		}
		out[i].NumTokens = len(toks)
		return nil
	})
	if err != nil {
		return nil, err
	}
	var items []scoreItem
	for _, w := range windows {
		items = append(items, w...)
	}
	lp, greedy := make([]float64, len(reqs)), make([]bool, len(reqs))
	if err := l.score(ctx, "loglikelihood_rolling", items, lp, greedy, func(it scoreItem) int { return it.slot }); err != nil {
		return nil, err
	}
	for i := range out {
		out[i].LogProb = lp[i]
	}
	return out, nil
}

// genSettings are the sampling fields of a generation request body.
func (l *LM) genSettings(r model.GenerateRequest, body map[string]any) {
	maxGen := r.MaxGenToks
	if maxGen <= 0 {
		maxGen = l.opts.MaxGenToks
	}
	body["max_tokens"] = maxGen
	temp := 0.0
	if r.DoSample {
		temp = r.Temperature
		if temp <= 0 {
			temp = 1
		}
		if r.TopP > 0 {
			body["top_p"] = r.TopP
		}
		if r.TopK > 0 {
			body["top_k"] = r.TopK
		}
	}
	body["temperature"] = temp
	stop := append([]string(nil), r.Until...)
	if l.eosText != "" && !contains(stop, l.eosText) {
		stop = append(stop, l.eosText)
	}
	if len(stop) > 0 {
		body["stop"] = stop
	}
	switch {
	case r.Seed != 0:
		body["seed"] = r.Seed
	case l.opts.SeedGiven:
		body["seed"] = l.opts.Seed
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// GenerateUntil implements model.LM: with tokenized requests the context
// is tokenized by the server and cut from the left to max_length -
// max_gen_toks tokens, as the engine (and lm-eval) do.
func (l *LM) GenerateUntil(ctx context.Context, reqs []model.GenerateRequest) ([]string, error) {
	out := make([]string, len(reqs))
	rep := progress.ReporterFromContext(ctx)
	err := parallel(ctx, len(reqs), l.opts.NumConcurrent, func(ctx context.Context, i int) error {
		r := reqs[i]
		body := map[string]any{"model": l.opts.Model}
		l.genSettings(r, body)
		maxGen := body["max_tokens"].(int)
		if l.opts.TokenizedRequests {
			if maxGen >= l.maxLength {
				return &model.RequestError{Index: i, Err: fmt.Errorf("generate_until request %d: max_gen_toks %d leaves no room for a context in max_length %d", i, maxGen, l.maxLength)}
			}
			toks, err := l.tokenize(ctx, r.Context, true)
			if err != nil {
				return err
			}
			if keep := l.maxLength - maxGen; len(toks) > keep {
				toks = toks[len(toks)-keep:]
			}
			if len(toks) == 0 {
				p, err := l.prefix()
				if err != nil {
					return err
				}
				toks = []int32{p}
			}
			body["prompt"] = toks
		} else {
			body["prompt"] = r.Context
		}
		text, err := l.generate(ctx, "/v1/completions", body, i)
		if err != nil {
			return err
		}
		out[i] = text
		if rep != nil {
			rep.Add(1, 0)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// generate posts one generation and returns its text.
func (l *LM) generate(ctx context.Context, path string, body map[string]any, index int) (string, error) {
	v, _, err := l.pool.post(ctx, path, body, func() any { return &completionAnswer{} }, func(v any) error {
		a := v.(*completionAnswer)
		if len(a.Choices) != 1 {
			return fmt.Errorf("%d choices for one prompt", len(a.Choices))
		}
		if path != "/v1/completions" && (a.Choices[0].Message == nil || a.Choices[0].Message.Content == nil) {
			return errors.New("the choice has no message content")
		}
		return nil
	})
	if err != nil {
		var se *statusError
		if errors.As(err, &se) && se.clientError() {
			return "", &model.RequestError{Index: index, Err: fmt.Errorf("generate_until request %d: %w", index, err)}
		}
		return "", fmt.Errorf("generate_until: %w", err)
	}
	c := v.(*completionAnswer).Choices[0]
	if path == "/v1/completions" {
		return c.Text, nil
	}
	return *c.Message.Content, nil
}

// ChatTemplate implements the harness's ChatTemplateSource for
// local-completions: the server's chat template (/tokenizer_info), which
// the harness renders as it renders a local GGUF's, with the BOS and EOS
// tokens the server reports.
func (l *LM) ChatTemplate(name string) (model.ChatTemplateText, error) {
	if name != "" && name != "default" {
		return model.ChatTemplateText{}, fmt.Errorf("the server has only its default chat template, not %q", name)
	}
	var ti struct {
		ChatTemplate *string `json:"chat_template"`
		BOSToken     *string `json:"bos_token"`
		EOSToken     *string `json:"eos_token"`
	}
	server := l.pool.servers[0]
	if err := l.pool.get(context.Background(), server, "/tokenizer_info", &ti); err != nil {
		return model.ChatTemplateText{}, fmt.Errorf("the server's chat template: %w", err)
	}
	if ti.ChatTemplate == nil || *ti.ChatTemplate == "" {
		return model.ChatTemplateText{}, model.ErrNoChatTemplate
	}
	deref := func(s *string) string {
		if s == nil {
			return ""
		}
		return *s
	}
	return model.ChatTemplateText{Source: *ti.ChatTemplate, Origin: "/tokenizer_info",
		Tokens: model.SpecialTokens{BOS: deref(ti.BOSToken), EOS: deref(ti.EOSToken)}}, nil
}

// ChatLM is local-chat-completions: generation through chat completions,
// the server applying its chat template; no log-likelihoods (as in
// lm-eval).
type ChatLM struct{ *LM }

// ApplyChatTemplate implements the harness's ChatTemplater as lm-eval's
// chat API models do: the messages themselves, as JSON, become the
// request's context and are sent as they are.
func (c ChatLM) ApplyChatTemplate(msgs []model.ChatMessage, addGenerationPrompt bool) (string, error) {
	b, err := json.Marshal(msgs)
	return string(b), err
}

// Loglikelihood implements model.LM: chat completions have no prompt
// log-probabilities.
func (c ChatLM) Loglikelihood(context.Context, []model.LoglikelihoodRequest) ([]model.LoglikelihoodResult, error) {
	return nil, errors.New("local-chat-completions cannot score log-likelihoods (as in lm-eval): use --model local-completions")
}

// LoglikelihoodRolling implements model.LM (see Loglikelihood).
func (c ChatLM) LoglikelihoodRolling(context.Context, []model.RollingRequest) ([]model.RollingResult, error) {
	return nil, errors.New("local-chat-completions cannot score log-likelihoods (as in lm-eval): use --model local-completions")
}

// GenerateUntil implements model.LM: the context is the messages as JSON
// (from ApplyChatTemplate), else one user message.
func (c ChatLM) GenerateUntil(ctx context.Context, reqs []model.GenerateRequest) ([]string, error) {
	out := make([]string, len(reqs))
	err := parallel(ctx, len(reqs), c.opts.NumConcurrent, func(ctx context.Context, i int) error {
		r := reqs[i]
		var msgs []model.ChatMessage
		if err := json.Unmarshal([]byte(r.Context), &msgs); err != nil || len(msgs) == 0 {
			msgs = []model.ChatMessage{{Role: "user", Content: r.Context}}
		}
		body := map[string]any{"model": c.opts.Model, "messages": msgs}
		c.genSettings(r, body)
		text, err := c.generate(ctx, "/v1/chat/completions", body, i)
		out[i] = text
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
