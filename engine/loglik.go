package engine

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"unicode"
)

// LoglikelihoodRequest asks for log P(Continuation | Context).
type LoglikelihoodRequest struct {
	Context      string
	Continuation string
}

// LoglikelihoodResult is the answer to one request.
type LoglikelihoodResult struct {
	LogProb   float64 // sum of the continuation tokens' log-probabilities
	IsGreedy  bool    // every continuation token was the argmax of its row
	NumTokens int     // continuation tokens scored
	Truncated bool    // the context was cut from the left to fit MaxLength
}

// TokenRequest is a loglikelihood request already tokenized: the log-prob
// of Continuation given Context (which must not be empty).
type TokenRequest struct {
	Context, Continuation []int32
}

// ErrEmptyContinuation is returned for a request whose continuation has no
// tokens (lm-eval asserts against it too).
var ErrEmptyContinuation = errors.New("continuation has no tokens")

// RequestError is the error for a request the engine cannot answer (an
// empty continuation, a text that does not tokenize, a generation that
// leaves no room for its context). Requests are checked before anything
// is decoded, so a call that fails with it has computed nothing.
type RequestError struct {
	Op      string // "loglikelihood", "loglikelihood_rolling" or "generate_until"
	Index   int    // the request's position in the call's slice
	Request string // the request, quoted briefly
	Err     error
}

func (e *RequestError) Error() string {
	return fmt.Sprintf("engine: %s request %d (%s): %v", e.Op, e.Index, e.Request, e.Err)
}

func (e *RequestError) Unwrap() error { return e.Err }

// brief quotes a text for an error message, keeping its start and end.
func brief(s string) string {
	const n = 40
	if r := []rune(s); len(r) > 2*n {
		return fmt.Sprintf("%q...%q", string(r[:n]), string(r[len(r)-n:]))
	}
	return fmt.Sprintf("%q", s)
}

func pairDesc(ctx, cont string) string {
	return "context " + brief(ctx) + ", continuation " + brief(cont)
}

func tokensDesc(ctx, cont []int32) string {
	return fmt.Sprintf("%d context tokens, %d continuation tokens", len(ctx), len(cont))
}

// Loglikelihood scores each continuation given its context with lm-eval's
// semantics (TemplateLM.loglikelihood, _encode_pair and HFLM's
// _loglikelihood_tokens):
//   - trailing whitespace of the context moves to the continuation;
//   - the continuation's tokens are tokens(context+continuation) after the
//     first len(tokens(context)), so a token straddling the boundary counts
//     as continuation;
//   - an empty context becomes the prefix token (BOS, else EOS) and the
//     continuation is tokenized alone without BOS; a continuation that
//     starts with the prefix token is conditioned on that token instead;
//   - when context+continuation exceed MaxLength+1 tokens the context is cut
//     from the left (Result.Truncated, Stats.Truncated).
//
// Results are in request order whatever order the engine decodes them in.
func (m *Model) Loglikelihood(ctx context.Context, reqs []LoglikelihoodRequest) ([]LoglikelihoodResult, error) {
	if err := m.lock(); err != nil {
		return nil, err
	}
	defer m.mu.Unlock()
	treqs := make([]TokenRequest, len(reqs))
	for i, r := range reqs {
		c, k, err := m.encodePair(r.Context, r.Continuation)
		if err != nil {
			return nil, &RequestError{Op: "loglikelihood", Index: i, Request: pairDesc(r.Context, r.Continuation), Err: err}
		}
		treqs[i] = TokenRequest{Context: c, Continuation: k}
	}
	return m.loglikelihoodTokens(ctx, treqs)
}

// LoglikelihoodTokens is Loglikelihood on tokenized requests.
func (m *Model) LoglikelihoodTokens(ctx context.Context, reqs []TokenRequest) ([]LoglikelihoodResult, error) {
	if err := m.lock(); err != nil {
		return nil, err
	}
	defer m.mu.Unlock()
	return m.loglikelihoodTokens(ctx, reqs)
}

func (m *Model) loglikelihoodTokens(ctx context.Context, reqs []TokenRequest) ([]LoglikelihoodResult, error) {
	if m.opts.VocabOnly {
		return nil, errors.New("engine: model loaded vocabulary-only")
	}
	res := make([]LoglikelihoodResult, len(reqs))
	jobs := make([]job, len(reqs))
	toks := make([]int, len(reqs))
	for i, r := range reqs {
		j, trunc, err := m.tokenJob(r.Context, r.Continuation, int32(i))
		if err != nil {
			return nil, &RequestError{Op: "loglikelihood", Index: i, Request: tokensDesc(r.Context, r.Continuation), Err: err}
		}
		jobs[i] = j
		toks[i] = len(j.inp) + 1
		res[i].NumTokens = len(r.Continuation)
		res[i].Truncated = trunc
	}
	lp, greedy := make([]float64, len(reqs)), make([]uint8, len(reqs))
	for i := range greedy {
		greedy[i] = 1
	}
	fin := newFinishTracker(ctx, jobs, toks)
	if err := m.runJobs(ctx, jobs, lp, greedy, fin); err != nil {
		return nil, fmt.Errorf("engine: loglikelihood: %w", err)
	}
	fin.flush()
	for i := range res {
		res[i].LogProb = lp[i]
		res[i].IsGreedy = greedy[i] == 1
		if res[i].Truncated {
			m.stats.Truncated++
		}
	}
	m.stats.Requests += len(reqs)
	return res, nil
}

// tokenJob lays out one request as HFLM does: the input is
// (context+continuation)[-(max_length+1):][:-1] and the last
// len(continuation) positions are scored.
func (m *Model) tokenJob(ctxToks, cont []int32, slot int32) (job, bool, error) {
	maxLen := m.info.MaxLength
	if len(ctxToks) == 0 {
		return job{}, false, errors.New("context has no tokens")
	}
	if len(cont) == 0 {
		return job{}, false, ErrEmptyContinuation
	}
	if len(cont) > maxLen {
		return job{}, false, fmt.Errorf("continuation of %d tokens exceeds max_length %d", len(cont), maxLen)
	}
	full := make([]int32, 0, len(ctxToks)+len(cont))
	full = append(append(full, ctxToks...), cont...)
	trunc := false
	if len(full) > maxLen+1 {
		full = full[len(full)-(maxLen+1):]
		trunc = true
	}
	return job{inp: full[:len(full)-1], targets: cont, slot: slot}, trunc, nil
}

// prefixToken is what an empty context becomes: lm-eval's prefix_token_id,
// BOS when the vocabulary has one, else EOS (Settings.PrefixToken).
func (m *Model) prefixToken() int32 { return m.info.PrefixToken }

// pySpace is Python's str.isspace for one character, which rstrip uses.
func pySpace(r rune) bool { return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f) }

// EncodePair splits a request into context and continuation tokens as
// lm-eval's TemplateLM does (see Loglikelihood).
func (m *Model) EncodePair(context, continuation string) (ctxToks, contToks []int32, err error) {
	if err := m.lock(); err != nil {
		return nil, nil, err
	}
	defer m.mu.Unlock()
	return m.encodePair(context, continuation)
}

func (m *Model) encodePair(context, continuation string) ([]int32, []int32, error) {
	if context == "" {
		// TemplateLM.loglikelihood: the continuation is tokenized with
		// add_special_tokens=False and conditioned on the prefix token,
		// unless it already starts with it, which then serves as context.
		cont, err := m.tokenize(continuation, false, true)
		if err != nil {
			return nil, nil, err
		}
		if len(cont) == 0 {
			return nil, nil, ErrEmptyContinuation
		}
		ctxToks := []int32{m.prefixToken()}
		if cont[0] == ctxToks[0] {
			ctxToks, cont = cont[:1], cont[1:]
		}
		if len(cont) == 0 {
			return nil, nil, ErrEmptyContinuation
		}
		return ctxToks, cont, nil
	}
	trimmed := strings.TrimRightFunc(context, pySpace)
	if n := len(context) - len(trimmed); n > 0 {
		continuation = context[len(trimmed):] + continuation
		context = trimmed
	}
	whole, err := m.encode(context + continuation)
	if err != nil {
		return nil, nil, err
	}
	ctxToks, err := m.encode(context)
	if err != nil {
		return nil, nil, err
	}
	if len(ctxToks) > len(whole) {
		return nil, nil, ErrEmptyContinuation
	}
	cont := whole[len(ctxToks):]
	if len(cont) == 0 {
		return nil, nil, ErrEmptyContinuation
	}
	return ctxToks, cont, nil
}

// RollingResult is the log-likelihood of a whole text.
type RollingResult struct {
	LogProb   float64
	NumTokens int // tokens scored
	Windows   int // windows the text was split into
}

// Window is one rolling window: Continuation is scored given Context.
type Window struct {
	Context, Continuation []int32
}

// RollingWindows lays tokens out as lm-eval's get_rolling_token_windows
// followed by make_disjoint_window: every token is predicted exactly once,
// with as much context as maxSeqLen allows; the first window is conditioned
// on prefix alone. contextLen is lm-eval's context_len (1 for
// loglikelihood_rolling).
func RollingWindows(tokens []int32, prefix int32, maxSeqLen, contextLen int) ([]Window, error) {
	if contextLen < 1 || contextLen > maxSeqLen {
		return nil, fmt.Errorf("rolling windows: need 1 <= context_len (%d) <= max_seq_len (%d)", contextLen, maxSeqLen)
	}
	if len(tokens) == 0 {
		return nil, nil
	}
	predLen := maxSeqLen - contextLen + 1
	var out []Window
	disjoint := func(a, b []int32) {
		out = append(out, Window{Context: a[:len(a)-(len(b)-1)], Continuation: b})
	}
	first := min(maxSeqLen, len(tokens))
	a := append([]int32{prefix}, tokens[:first-1]...)
	disjoint(a, tokens[:first])
	predicted := first
	for predicted < len(tokens) {
		n := min(len(tokens)-predicted, predLen)
		end := predicted + n
		disjoint(tokens[end-maxSeqLen-1:end-1], tokens[end-n:end])
		predicted += n
	}
	return out, nil
}

// LoglikelihoodRolling returns each text's total log-likelihood as lm-eval's
// loglikelihood_rolling computes it: the text's tokens (with BOS when the
// model adds one) are split by RollingWindows with max_length and
// context_len 1, the first window conditioned on the prefix token. With a
// BOS-adding tokenizer that means the leading BOS is itself scored given
// the prefix BOS, as in lm-eval; Options.SkipLeadingBOS scores the text
// from its first real token instead.
func (m *Model) LoglikelihoodRolling(ctx context.Context, texts []string) ([]RollingResult, error) {
	if err := m.lock(); err != nil {
		return nil, err
	}
	defer m.mu.Unlock()
	if m.opts.VocabOnly {
		return nil, errors.New("engine: model loaded vocabulary-only")
	}
	res := make([]RollingResult, len(texts))
	var jobs []job
	ntoks := make([]int, len(texts))
	prefix := m.prefixToken()
	for i, text := range texts {
		toks, err := m.encode(text)
		if err != nil {
			return nil, &RequestError{Op: "loglikelihood_rolling", Index: i, Request: "text " + brief(text), Err: err}
		}
		if m.opts.SkipLeadingBOS && len(toks) > 0 && toks[0] == prefix {
			toks = toks[1:]
		}
		wins, err := RollingWindows(toks, prefix, m.info.MaxLength, 1)
		if err != nil {
			return nil, &RequestError{Op: "loglikelihood_rolling", Index: i, Request: "text " + brief(text), Err: err}
		}
		for _, w := range wins {
			j, _, err := m.tokenJob(w.Context, w.Continuation, int32(i))
			if err != nil {
				return nil, &RequestError{Op: "loglikelihood_rolling", Index: i, Request: "text " + brief(text), Err: err}
			}
			jobs = append(jobs, j)
		}
		res[i].NumTokens = len(toks)
		res[i].Windows = len(wins)
		ntoks[i] = len(toks)
	}
	lp, greedy := make([]float64, len(texts)), make([]uint8, len(texts))
	fin := newFinishTracker(ctx, jobs, ntoks)
	if err := m.runJobs(ctx, jobs, lp, greedy, fin); err != nil {
		return nil, fmt.Errorf("engine: loglikelihood_rolling: %w", err)
	}
	fin.flush()
	for i := range res {
		res[i].LogProb = lp[i]
	}
	m.stats.Requests += len(texts)
	return res, nil
}

// PerplexityResult is the outcome of Perplexity.
type PerplexityResult struct {
	Chunks int     // chunks of ChunkSize tokens evaluated
	Tokens int     // tokens scored
	NLL    float64 // sum of -log p over the scored tokens
	PPL    float64 // exp(NLL / Tokens)
}

// Perplexity computes perplexity the way llama.cpp's perplexity tool does,
// so results compare with its published numbers: the text is tokenized
// once (with BOS if the model adds one), cut into whole chunks of chunkSize
// tokens (a trailing partial chunk is dropped; at least two chunks are
// needed), each chunk's first token replaced by BOS when the model adds
// BOS, and the second half of each chunk scored given everything before it
// in the chunk. chunkSize 0 means MaxLength.
func (m *Model) Perplexity(ctx context.Context, text string, chunkSize int) (PerplexityResult, error) {
	if err := m.lock(); err != nil {
		return PerplexityResult{}, err
	}
	defer m.mu.Unlock()
	if chunkSize <= 0 {
		chunkSize = m.info.MaxLength
	}
	if chunkSize < 4 || chunkSize > m.maxCells() {
		return PerplexityResult{}, fmt.Errorf("engine: perplexity: chunk size %d outside [4, n_ctx %d]", chunkSize, m.maxCells())
	}
	toks, err := m.tokenize(text, m.addBOS, false)
	if err != nil {
		return PerplexityResult{}, err
	}
	if len(toks) < 2*chunkSize {
		return PerplexityResult{}, fmt.Errorf("engine: perplexity: the text has %d tokens; chunk size %d needs at least %d", len(toks), chunkSize, 2*chunkSize)
	}
	nChunks := len(toks) / chunkSize
	first := chunkSize / 2
	var jobs []job
	for c := 0; c < nChunks; c++ {
		chunk := append([]int32(nil), toks[c*chunkSize:(c+1)*chunkSize]...)
		if m.addBOS && m.info.BOS >= 0 {
			chunk[0] = m.info.BOS
		}
		// Positions first..chunkSize-2 predict tokens first+1..chunkSize-1;
		// the chunk's last token only ever serves as a target.
		jobs = append(jobs, job{inp: chunk[:chunkSize-1], targets: chunk[first+1:], slot: 0})
	}
	lp, greedy := make([]float64, 1), make([]uint8, 1)
	if err := m.runJobs(ctx, jobs, lp, greedy, nil); err != nil {
		return PerplexityResult{}, fmt.Errorf("engine: perplexity: %w", err)
	}
	n := nChunks * (chunkSize - 1 - first)
	r := PerplexityResult{Chunks: nChunks, Tokens: n, NLL: -lp[0]}
	r.PPL = math.Exp(r.NLL / float64(n))
	return r, nil
}
