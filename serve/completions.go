package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/lmeval/lmeval/chat"
	"github.com/lmeval/lmeval/engine"
)

// sampling are the generation settings completions and chat share.
type sampling struct {
	MaxTokens   *int            `json:"max_tokens"`
	Temperature *float64        `json:"temperature"`
	TopP        *float64        `json:"top_p"`
	TopK        *int            `json:"top_k"`
	Seed        *int64          `json:"seed"`
	Stop        json.RawMessage `json:"stop"`
	N           *int            `json:"n"`
	Stream      bool            `json:"stream"`
}

type completionRequest struct {
	Model    string          `json:"model"`
	Prompt   json.RawMessage `json:"prompt"`
	Echo     bool            `json:"echo"`
	Logprobs *int            `json:"logprobs"`
	BestOf   *int            `json:"best_of"`
	sampling
}

// genParams are a request's validated generation settings.
type genParams struct {
	maxTokens int
	greedy    bool
	temp      float64
	topP      float64
	topK      int
	seed      int64
	stop      []string
}

var idCounter atomic.Int64

func newID(prefix string) string {
	return fmt.Sprintf("%s-%d-%d", prefix, time.Now().UnixNano(), idCounter.Add(1))
}

// parse checks the sampling fields; defMax is the max_tokens default.
func (sp *sampling) parse(l *loaded, defMax int, echo bool) (genParams, error) {
	var g genParams
	if sp.Stream {
		return g, badRequest("stream", "stream is not supported")
	}
	if sp.N != nil && *sp.N != 1 {
		return g, badRequest("n", "n = %d: only n = 1 is supported", *sp.N)
	}
	g.maxTokens = defMax
	if sp.MaxTokens != nil {
		g.maxTokens = *sp.MaxTokens
	}
	switch {
	case g.maxTokens < 0:
		return g, badRequest("max_tokens", "max_tokens = %d is negative", g.maxTokens)
	case g.maxTokens == 0 && !echo:
		return g, badRequest("max_tokens", "max_tokens = 0 is allowed only with echo")
	case g.maxTokens >= l.info.MaxLength:
		return g, badRequest("max_tokens", "max_tokens = %d leaves no room for a prompt in the model's %d-token context", g.maxTokens, l.info.MaxLength)
	}
	g.temp = 1 // OpenAI's default
	if sp.Temperature != nil {
		g.temp = *sp.Temperature
	}
	if g.temp < 0 || math.IsNaN(g.temp) {
		return g, badRequest("temperature", "temperature = %v: want 0 (greedy) or more", g.temp)
	}
	g.greedy = g.temp == 0
	if sp.TopP != nil {
		g.topP = *sp.TopP
		if g.topP < 0 || g.topP > 1 || math.IsNaN(g.topP) {
			return g, badRequest("top_p", "top_p = %v: want 0 to 1", g.topP)
		}
	}
	if sp.TopK != nil {
		g.topK = *sp.TopK
		if g.topK == -1 {
			g.topK = 0 // vLLM's "off"
		}
		if g.topK < 0 {
			return g, badRequest("top_k", "top_k = %d: want -1, 0 (off) or a positive count", *sp.TopK)
		}
	}
	if sp.Seed != nil {
		g.seed = *sp.Seed
	}
	stop, err := parseStop(sp.Stop)
	if err != nil {
		return g, err
	}
	g.stop = stop
	return g, nil
}

func parseStop(raw json.RawMessage) ([]string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var one string
	if err := json.Unmarshal(raw, &one); err == nil {
		return []string{one}, nil
	}
	var list []string
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, badRequest("stop", "stop: want a string or a list of strings")
	}
	if len(list) > 64 {
		return nil, badRequest("stop", "stop: %d strings, at most 64", len(list))
	}
	return list, nil
}

// prompts reads a completions prompt: a string, a list of strings, a list
// of token ids or a list of lists of token ids. Exactly one of texts and
// toks is returned.
func parsePrompt(raw json.RawMessage) (texts []string, toks [][]int32, err error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil, badRequest("prompt", "prompt is required")
	}
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return []string{one}, nil, nil
	}
	var strs []string
	if json.Unmarshal(raw, &strs) == nil && len(strs) > 0 {
		return strs, nil, nil
	}
	var ids []int32
	if json.Unmarshal(raw, &ids) == nil && len(ids) > 0 {
		return nil, [][]int32{ids}, nil
	}
	var lists [][]int32
	if json.Unmarshal(raw, &lists) == nil && len(lists) > 0 {
		return nil, lists, nil
	}
	return nil, nil, badRequest("prompt", "prompt: want a string, a list of strings, a list of token ids or a list of lists of token ids (not empty)")
}

// work is one prompt's engine work, run by the batcher with others.
type work struct {
	ctx context.Context
	// Exactly one of score and gen is set.
	score *engine.PromptRequest
	k     int
	gen   *engine.GenerateRequest

	scores engine.PromptScores
	out    engine.Generation
	err    error
	done   chan struct{}
}

type choice struct {
	Index        int       `json:"index"`
	Text         string    `json:"text"`
	Logprobs     *logprobs `json:"logprobs"`
	FinishReason string    `json:"finish_reason"`
}

type logprobs struct {
	Tokens        []string             `json:"tokens"`
	TokenLogprobs []*float64           `json:"token_logprobs"`
	TopLogprobs   []map[string]float64 `json:"top_logprobs"`
	TextOffset    []int                `json:"text_offset"`
}

func (s *Server) completions(w http.ResponseWriter, r *http.Request, l *loaded) {
	var req completionRequest
	if err := decodeBody(r, &req); err != nil {
		fail(w, r, err)
		return
	}
	if req.BestOf != nil && *req.BestOf != 1 {
		fail(w, r, badRequest("best_of", "best_of = %d: only 1 is supported", *req.BestOf))
		return
	}
	g, err := req.sampling.parse(l, 16, req.Echo)
	if err != nil {
		fail(w, r, err)
		return
	}
	k := 0
	if req.Logprobs != nil {
		k = *req.Logprobs
		if k < 0 || k > s.opts.MaxLogprobs {
			fail(w, r, badRequest("logprobs", "logprobs = %d: want 0 to %d", k, s.opts.MaxLogprobs))
			return
		}
		k = max(k, 1)
	}
	texts, toks, err := parsePrompt(req.Prompt)
	if err != nil {
		fail(w, r, err)
		return
	}
	n := len(texts) + len(toks)
	if n > s.opts.MaxPrompts {
		fail(w, r, tooLong("prompt", "%d prompts in one request, at most %d", n, s.opts.MaxPrompts))
		return
	}
	prompts := make([][]int32, n)
	promptText := make([]string, n)
	for i := range prompts {
		if texts != nil {
			promptText[i] = texts[i]
			if prompts[i], err = l.encode(texts[i], true); err != nil {
				fail(w, r, badRequest("prompt", "prompt %d: %v", i, err))
				return
			}
		} else {
			prompts[i] = toks[i]
			if err := l.checkTokens(fmt.Sprintf("prompt[%d]", i), toks[i]); err != nil {
				fail(w, r, err)
				return
			}
		}
		if len(prompts[i]) > l.info.MaxLength+1 || (len(prompts[i]) > l.info.MaxLength && g.maxTokens > 0) {
			fail(w, r, tooLong("prompt", "prompt %d has %d tokens, over the model's context of %d", i, len(prompts[i]), l.info.MaxLength))
			return
		}
	}
	choices := make([]choice, n)
	var usagePrompt, usageGen atomic.Int64
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range prompts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, gen, err := s.complete(r.Context(), l, prompts[i], promptText[i], texts == nil, req.Echo, k, g)
			c.Index = i
			choices[i], errs[i] = c, err
			usagePrompt.Add(int64(len(prompts[i])))
			usageGen.Add(int64(gen))
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			fail(w, r, err)
			return
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"id": newID("cmpl"), "object": "text_completion", "created": time.Now().Unix(), "model": l.name,
		"choices": choices,
		"usage": map[string]any{"prompt_tokens": usagePrompt.Load(), "completion_tokens": usageGen.Load(),
			"total_tokens": usagePrompt.Load() + usageGen.Load()},
	})
}

// complete answers one prompt; it returns the choice and the number of
// tokens the model generated (usage's completion_tokens: at most
// max_tokens, an end-of-generation token included). The choice reports
// the generated tokens themselves, with the log-probabilities they had
// (the model's distribution, before temperature and sampling, as
// llama-server and vLLM report them), and their texts add up to its text.
func (s *Server) complete(ctx context.Context, l *loaded, prompt []int32, text string, fromTokens, echo bool, k int, g genParams) (choice, int, error) {
	var c choice
	c.FinishReason = "length"
	if fromTokens && echo {
		t, err := l.tok.Detokenize(prompt, false, true)
		if err != nil {
			return c, 0, badRequest("prompt", "%v", err)
		}
		text = t
	}
	// Greedy single-token completions (what lm-eval's loglikelihood asks
	// for) come from the prompt's own decode: the next token is the
	// argmax after its last token.
	if g.maxTokens == 1 && g.greedy && len(g.stop) == 0 && len(prompt) > 0 && len(prompt) < l.info.MaxLength {
		wk := &work{score: &engine.PromptRequest{Tokens: prompt, Next: true}, k: max(k, 1)}
		if err := s.run(ctx, wk); err != nil {
			return c, 0, err
		}
		sc := wk.scores
		last := len(sc.LogProb) - 1
		next := sc.TopIDs[last*sc.K]
		gen := []int32{next}
		genText := ""
		if isEOG(l, next) {
			gen = nil
			c.FinishReason = "stop"
		} else {
			genText = l.texts[next]
		}
		c.Text = genText
		if echo {
			c.Text = text + genText
		}
		if k > 0 {
			c.Logprobs = l.logprobs(prompt, gen, sc, echo, k, text, fromTokens)
		}
		return c, 1, nil
	}
	var gen []int32
	genText := ""
	produced := 0
	if g.maxTokens > 0 {
		wk := &work{gen: &engine.GenerateRequest{
			Context: text, ContextTokens: prompt, Until: g.stop, MaxGenToks: g.maxTokens,
			DoSample: !g.greedy, Temperature: g.temp, TopP: g.topP, TopK: g.topK, Seed: g.seed,
		}}
		if len(prompt) == 0 {
			wk.gen.ContextTokens = []int32{}
		}
		if err := s.run(ctx, wk); err != nil {
			return c, 0, err
		}
		produced = len(wk.out.Tokens)
		if wk.out.EOG {
			produced++
		}
		var stopped bool
		gen, genText, stopped = l.generated(wk.out.Tokens, g.stop)
		if wk.out.EOG || stopped {
			c.FinishReason = "stop"
		}
	}
	c.Text = genText
	if echo {
		c.Text = text + genText
	}
	if k > 0 && (echo || len(gen) > 0) {
		all := append(append([]int32{}, prompt...), gen...)
		if len(all) > l.info.MaxLength+1 {
			all = all[len(all)-(l.info.MaxLength+1):]
		}
		wk := &work{score: &engine.PromptRequest{Tokens: all}, k: k}
		if err := s.run(ctx, wk); err != nil {
			return c, 0, err
		}
		np := len(all) - len(gen)
		c.Logprobs = l.logprobs(all[:np], gen, wk.scores, echo, k, text, fromTokens)
	}
	return c, produced, nil
}

// generated is what a completion reports of the tokens a generation
// produced: the text their texts (engine.Model.TokenText) add up to, cut
// before the first stop string, and the tokens that text spans; stopped
// says whether a stop string cut it. The text is the tokens'
// concatenation unless the stop string begins inside a token, which is
// then reported whole.
func (l *loaded) generated(toks []int32, stops []string) (spanned []int32, text string, stopped bool) {
	var b strings.Builder
	ends := make([]int, len(toks)) // where each token's text ends
	for i, t := range toks {
		b.WriteString(l.texts[t])
		ends[i] = b.Len()
	}
	text = b.String()
	cut := len(text)
	for _, u := range stops {
		if i := strings.Index(text, u); u != "" && i >= 0 && i < cut {
			cut = i
		}
	}
	if cut == len(text) {
		return toks, text, false
	}
	n := 0 // the tokens before the cut, and the one it falls in
	for n < len(toks) && (n == 0 || ends[n-1] < cut) && cut > 0 {
		n++
	}
	return toks[:n], text[:cut], true
}

func isEOG(l *loaded, t int32) bool {
	for _, e := range l.info.EOG {
		if e == t {
			return true
		}
	}
	return false
}

// logprobs builds the OpenAI logprobs object for the prompt tokens (when
// echo) and the generated tokens: sc scores prompt+gen (position p
// predicts token p+1; a Next position after the last prompt token when
// gen came from it). Prompt tokens show as their pieces (special tokens
// included), generated ones as the text they add to the completion.
func (l *loaded) logprobs(prompt, gen []int32, sc engine.PromptScores, echo bool, k int, text string, fromTokens bool) *logprobs {
	lp := &logprobs{}
	offset := 0
	add := func(tok int32, pos int, pieces []string) {
		piece := pieces[tok]
		lp.Tokens = append(lp.Tokens, piece)
		lp.TextOffset = append(lp.TextOffset, offset)
		offset += utf8.RuneCountInString(piece)
		if pos < 0 {
			lp.TokenLogprobs = append(lp.TokenLogprobs, nil)
			lp.TopLogprobs = append(lp.TopLogprobs, nil)
			return
		}
		v := finite(sc.LogProb[pos])
		if math.IsNaN(sc.LogProb[pos]) {
			v = finite(sc.TopLogP[pos*sc.K]) // the Next position: the argmax itself
		}
		lp.TokenLogprobs = append(lp.TokenLogprobs, &v)
		top := make(map[string]float64, k)
		for j := 0; j < k && j < sc.K; j++ {
			id := sc.TopIDs[pos*sc.K+j]
			if id < 0 {
				break
			}
			if _, dup := top[pieces[id]]; !dup {
				top[pieces[id]] = finite(sc.TopLogP[pos*sc.K+j])
			}
		}
		lp.TopLogprobs = append(lp.TopLogprobs, top)
	}
	if echo {
		for i, t := range prompt {
			add(t, i-1, l.pieces)
		}
	} else {
		offset = utf8.RuneCountInString(text)
	}
	for i, t := range gen {
		add(t, len(prompt)-1+i, l.texts)
	}
	if lp.Tokens == nil {
		lp.Tokens, lp.TokenLogprobs, lp.TopLogprobs, lp.TextOffset = []string{}, []*float64{}, []map[string]float64{}, []int{}
	}
	return lp
}

// finite keeps a log-prob encodable as JSON: -Inf becomes the most
// negative float64.
func finite(x float64) float64 {
	switch {
	case math.IsInf(x, -1):
		return -math.MaxFloat64
	case math.IsInf(x, 1):
		return math.MaxFloat64
	}
	return x
}

type chatMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

// renderChat renders messages with the model's chat template and a
// generation prompt.
func (l *loaded) renderChat(msgs []chatMessage) (string, error) {
	if l.render == nil {
		return "", &apiError{status: http.StatusBadRequest, typ: "invalid_request_error", param: "messages",
			msg: "the model has no chat template (tokenizer.chat_template): use /v1/completions"}
	}
	if len(msgs) == 0 {
		return "", badRequest("messages", "messages is empty")
	}
	tm := make([]chat.Message, len(msgs))
	for i, m := range msgs {
		if m.Role == "" {
			return "", badRequest("messages", "messages[%d] has no role", i)
		}
		content, err := messageText(m.Content)
		if err != nil {
			return "", badRequest("messages", "messages[%d].content: %v", i, err)
		}
		tm[i] = chat.Message{Role: m.Role, Content: content}
	}
	// The server renders what the client sent: no lm-eval fallback
	// dropping a system message the template refuses.
	out, err := l.render.Render(tm, true, false)
	if err != nil {
		return "", badRequest("messages", "%v", err)
	}
	return out, nil
}

// messageText reads a message's content: a string, or a list of parts of
// which the text ones are joined.
func messageText(raw json.RawMessage) (string, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, nil
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", fmt.Errorf("want a string or a list of {type, text} parts")
	}
	var sb strings.Builder
	for _, p := range parts {
		if p.Type != "text" {
			return "", fmt.Errorf("part of type %q: only text is supported", p.Type)
		}
		sb.WriteString(p.Text)
	}
	return sb.String(), nil
}

func (s *Server) chat(w http.ResponseWriter, r *http.Request, l *loaded) {
	var req struct {
		Model               string        `json:"model"`
		Messages            []chatMessage `json:"messages"`
		MaxCompletionTokens *int          `json:"max_completion_tokens"`
		sampling
	}
	if err := decodeBody(r, &req); err != nil {
		fail(w, r, err)
		return
	}
	if req.MaxTokens == nil {
		req.MaxTokens = req.MaxCompletionTokens
	}
	g, err := req.sampling.parse(l, 256, false)
	if err != nil {
		fail(w, r, err)
		return
	}
	text, err := l.renderChat(req.Messages)
	if err != nil {
		fail(w, r, err)
		return
	}
	prompt, err := l.encode(text, true)
	if err != nil {
		fail(w, r, badRequest("messages", "%v", err))
		return
	}
	if len(prompt) > l.info.MaxLength {
		fail(w, r, tooLong("messages", "the chat has %d tokens, over the model's context of %d", len(prompt), l.info.MaxLength))
		return
	}
	c, gen, err := s.complete(r.Context(), l, prompt, text, false, false, 0, g)
	if err != nil {
		fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"id": newID("chatcmpl"), "object": "chat.completion", "created": time.Now().Unix(), "model": l.name,
		"choices": []any{map[string]any{
			"index": 0, "message": map[string]any{"role": "assistant", "content": c.Text}, "finish_reason": c.FinishReason,
		}},
		"usage": map[string]any{"prompt_tokens": len(prompt), "completion_tokens": gen, "total_tokens": len(prompt) + gen},
	})
}
