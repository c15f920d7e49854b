package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

// GenerateRequest asks for a continuation of Context.
type GenerateRequest struct {
	Context string
	// Until lists stop strings: the output ends before the first of them.
	// The text of the EOS token is always added, as lm-eval does.
	Until      []string
	MaxGenToks int // 0: 256, lm-eval's default
	// Greedy decoding unless DoSample is set: as with Hugging Face's
	// generate, a temperature alone does not turn sampling on. Sampling
	// uses llama.cpp's samplers: top-k (0: off), top-p (0 or 1: off),
	// temperature (0: 1), then a draw seeded with Seed (0: Options.Seed).
	DoSample    bool
	Temperature float64
	TopP        float64
	TopK        int
	Seed        int64
	// ContextTokens, when not nil, is the context already tokenized, used
	// as it is (no BOS is added); Context then only names the request in
	// errors.
	ContextTokens []int32
	// Reasoning, when set, follows the generation's reasoning trace,
	// counts its tokens and bounds it (see Reasoning).
	Reasoning *Reasoning
}

// Reasoning describes a reasoning model's trace: the text that opens it
// and the text that closes it. The trace starts where the generation
// writes Start, or at once when the context itself ends inside a trace
// (a chat template whose generation prompt opens it, as DeepSeek-R1's
// does). With a Budget, once the trace has taken Budget tokens (counted
// after Start; the token completing End is not counted) without closing,
// Message and End are forced, token by token as the model's own, and the
// generation goes on with the answer: llama-server's --reasoning-budget
// and --reasoning-budget-message. The forced tokens wait for a token that
// completes a UTF-8 character. A trace closes once; the budget applies to
// the first trace.
type Reasoning struct {
	Start, End string
	Budget     int // tokens; negative: no limit (the trace is only counted)
	Message    string
}

const defaultMaxGenToks = 256

// Generation is one request's output from Generate.
type Generation struct {
	// Text is the decoded text, cut before the first stop string: what
	// GenerateUntil returns.
	Text string
	// Tokens are the tokens generated, in order, the end-of-generation
	// token left out; those of a stop string (and any after it in the
	// same token) are included.
	Tokens []int32
	// EOG is set when generation ended at an end-of-generation token
	// (which was generated, but is not in Tokens).
	EOG bool
	// ReasoningTokens are those of Tokens (forced ones included) that
	// belong to the reasoning trace (GenerateRequest.Reasoning), from the
	// token that opens it through the one that closes it.
	ReasoningTokens int
	// BudgetHit reports that the trace ran out of Reasoning.Budget and
	// its end was forced.
	BudgetHit bool
}

// genSeq is one generation in flight.
type genSeq struct {
	idx     int
	prompt  []int32
	fed     int // tokens of prompt then gen decoded
	gen     []int32
	maxGen  int
	until   []string
	sampler csampler
	think   *trace // nil without Reasoning
	id      int32
	row     int32 // batch row holding this sequence's next-token logits, -1 none
	cells   int
}

// pending is the number of the sequence's tokens not yet decoded.
func (s *genSeq) pending() int { return len(s.prompt) + len(s.gen) - s.fed }

// token is the sequence's k-th token, prompt then generation.
func (s *genSeq) token(k int) int32 {
	if k < len(s.prompt) {
		return s.prompt[k]
	}
	return s.gen[k-len(s.prompt)]
}

// GenerateUntil continues each context as lm-eval's generate_until does:
// the context is tokenized (BOS as for scoring) and cut from the left to
// max_length - max_gen_toks tokens; tokens are generated until an
// end-of-generation token, MaxGenToks, or one of the Until strings appears
// in the decoded text, which is then cut before the first stop string.
// Many requests decode together, one token per live sequence per step.
func (m *Model) GenerateUntil(ctx context.Context, reqs []GenerateRequest) ([]string, error) {
	gens, err := m.Generate(ctx, reqs)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(gens))
	for i, g := range gens {
		out[i] = g.Text
	}
	return out, nil
}

// Generate is GenerateUntil with the tokens generated (for servers that
// report them, and their log-probabilities, as sampled, and for token
// counts), the requests' Reasoning followed.
func (m *Model) Generate(ctx context.Context, reqs []GenerateRequest) ([]Generation, error) {
	if err := m.lock(); err != nil {
		return nil, err
	}
	defer m.mu.Unlock()
	if m.opts.VocabOnly {
		return nil, errors.New("engine: model loaded vocabulary-only")
	}
	maxLen := m.info.MaxLength
	eos := ""
	if m.info.EOS >= 0 {
		eos = cPiece(m.c, m.info.EOS, true)
	}
	seqs := make([]*genSeq, len(reqs))
	defer func() {
		for _, s := range seqs {
			if s != nil && s.sampler != nil {
				cSamplerFree(s.sampler)
			}
		}
	}()
	for i, r := range reqs {
		maxGen := r.MaxGenToks
		if maxGen <= 0 {
			maxGen = defaultMaxGenToks
		}
		if maxGen >= maxLen {
			return nil, &RequestError{Op: "generate_until", Index: i, Request: "context " + brief(r.Context),
				Err: fmt.Errorf("max_gen_toks %d leaves no room for a context in max_length %d", maxGen, maxLen)}
		}
		toks, err := m.generateContext(r)
		if err != nil {
			return nil, &RequestError{Op: "generate_until", Index: i, Request: "context " + brief(r.Context), Err: err}
		}
		if keep := maxLen - maxGen; len(toks) > keep {
			toks = toks[len(toks)-keep:]
			m.stats.Truncated++
		}
		if len(toks) == 0 {
			toks = []int32{m.prefixToken()}
		}
		s := &genSeq{idx: i, prompt: toks, maxGen: maxGen, row: -1}
		s.until = append(slices.Clone(r.Until), eos)
		if r.Reasoning != nil {
			if s.think, err = m.newTrace(r.Reasoning, toks); err != nil {
				return nil, &RequestError{Op: "generate_until", Index: i, Request: "context " + brief(r.Context), Err: err}
			}
			s.think.begin(s)
		}
		if r.DoSample {
			temp := r.Temperature
			if temp <= 0 {
				temp = 1
			}
			seed := r.Seed
			if seed == 0 {
				seed = m.opts.Seed
			}
			s.sampler = cSamplerNew(m.c, temp, r.TopP, r.TopK, uint32(seed))
		}
		s.cells = len(toks) + maxGen
		seqs[i] = s
	}
	// Longest context first, as lm-eval's Collator orders generate_until.
	order := make([]*genSeq, len(seqs))
	copy(order, seqs)
	slices.SortStableFunc(order, func(a, b *genSeq) int { return len(b.prompt) - len(a.prompt) })

	out := make([]Generation, len(reqs))
	if err := m.runGen(ctx, order, out, progressFrom(ctx)); err != nil {
		return nil, fmt.Errorf("engine: generate_until: %w", err)
	}
	m.stats.Requests += len(reqs)
	return out, nil
}

// generateContext is the request's context as tokens.
func (m *Model) generateContext(r GenerateRequest) ([]int32, error) {
	if r.ContextTokens == nil {
		return m.encode(r.Context)
	}
	for _, t := range r.ContextTokens {
		if t < 0 || int(t) >= m.info.NVocab {
			return nil, fmt.Errorf("token %d outside the vocabulary [0,%d)", t, m.info.NVocab)
		}
	}
	return slices.Clone(r.ContextTokens), nil
}

// runGen decodes the queued generations, telling report of the requests
// that finish (and their prompt tokens) once per step.
func (m *Model) runGen(ctx context.Context, queue []*genSeq, out []Generation, report func(requests, tokens int)) error {
	widest, total := 0, 0
	for _, s := range queue {
		widest = max(widest, s.cells)
		total += s.cells
	}
	// Every token attends over the occupied span of the unified cache, so
	// the sequences in flight are kept to the scheduler's budget of cells
	// (inflightCells) whatever the cache size; the cache grows (AutoBatch)
	// to that budget, or to the widest sequence.
	budget := min(m.inflight(), m.maxCells())
	if err := m.reserve(widest, min(budget, total), generating); err != nil {
		return fmt.Errorf("a context plus the tokens to generate: %w", err)
	}
	nCtx, nBatch, nSeq := m.info.NCtx, m.info.NBatch, m.info.NSeqMax
	budget = max(min(budget, nCtx), 1)
	cMemClear(m.c)
	defer cMemClear(m.c)
	free := make([]int32, 0, nSeq)
	for s := nSeq - 1; s >= 0; s-- {
		free = append(free, int32(s))
	}
	var (
		active   []*genSeq
		used     int
		b        batch
		rows     []int32
		greedyOf []*genSeq
		amax     []int32
	)
	next := 0
	for next < len(queue) || len(active) > 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
		for next < len(queue) && len(free) > 0 && used+queue[next].cells <= nCtx &&
			(len(active) == 0 || used+queue[next].cells <= budget) {
			s := queue[next]
			s.id = free[len(free)-1]
			free = free[:len(free)-1]
			used += s.cells
			active = append(active, s)
			m.stats.TokensRequested += int64(len(s.prompt))
			next++
		}
		if len(active) == 0 {
			return fmt.Errorf("a context of %d tokens plus %d to generate does not fit n_ctx %d", len(queue[next].prompt), queue[next].maxGen, nCtx)
		}

		b.reset()
		// One token for every sequence that is generating, then the
		// others' tokens (prompts, forced tokens) with what room is left.
		// A sequence's logits are read at its last token.
		for _, s := range active {
			s.row = -1
			if s.pending() == 1 && s.fed > len(s.prompt)-1 && b.len() < nBatch {
				s.row = b.add(s.token(s.fed), int32(s.fed), []int32{s.id}, true)
				s.fed++
			}
		}
		for _, s := range active {
			for s.pending() > 0 && b.len() < nBatch {
				last := s.pending() == 1
				row := b.add(s.token(s.fed), int32(s.fed), []int32{s.id}, last)
				s.fed++
				if last {
					s.row = row
				}
			}
		}
		if err := m.decode(&b); err != nil {
			return err
		}

		rows, greedyOf = rows[:0], greedyOf[:0]
		for _, s := range active {
			if s.row >= 0 && s.sampler == nil {
				rows = append(rows, s.row)
				greedyOf = append(greedyOf, s)
			}
		}
		t0 := time.Now()
		amax = slices.Grow(amax[:0], len(rows))[:len(rows)]
		if err := cArgmax(m.c, rows, amax); err != nil {
			return err
		}
		for k, s := range greedyOf {
			s.gen = append(s.gen, amax[k])
		}
		for _, s := range active {
			if s.row >= 0 && s.sampler != nil {
				s.gen = append(s.gen, cSample(s.sampler, m.c, s.row))
			}
		}
		m.stats.ScoreTime += time.Since(t0)

		keep := active[:0]
		finished, finishedToks := 0, 0
		for _, s := range active {
			if s.row < 0 {
				keep = append(keep, s)
				continue
			}
			done, err := m.genStep(s, out)
			if err != nil {
				return err
			}
			if !done {
				keep = append(keep, s)
				continue
			}
			cSeqRm(m.c, s.id)
			free = append(free, s.id)
			used -= s.cells
			finished++
			finishedToks += len(s.prompt)
		}
		active = keep
		if finished > 0 {
			report(finished, finishedToks)
		}
	}
	return nil
}

// genStep checks the sequence's newest token against the stop conditions
// and, when it stops, writes its output. A reasoning trace is followed,
// and its budget's forced tokens queued, before the stop strings are
// looked for.
func (m *Model) genStep(s *genSeq, out []Generation) (bool, error) {
	last := s.gen[len(s.gen)-1]
	eog := cIsEOG(m.c, last)
	if eog {
		s.gen = s.gen[:len(s.gen)-1]
	} else if s.think != nil {
		s.think.step(m, s)
	}
	text, err := cDetokenize(m.c, s.gen, false, false)
	if err != nil {
		return false, err
	}
	stop := eog || len(s.gen) >= s.maxGen
	for _, u := range s.until {
		if u != "" && strings.Contains(text, u) {
			stop = true
		}
	}
	if !stop {
		return false, nil
	}
	for _, u := range s.until {
		if u != "" {
			text, _, _ = strings.Cut(text, u)
		}
	}
	g := Generation{Text: text, Tokens: s.gen, EOG: eog}
	if s.think != nil {
		g.ReasoningTokens, g.BudgetHit = s.think.tokens(len(s.gen)), s.think.hit
	}
	out[s.idx] = g
	return true, nil
}
