package engine

import (
	"context"
	"fmt"
	"time"
)

// RawDecode measures llama_decode alone, as the baseline the engine's
// end-to-end throughput is compared against: toks is cut into sequences
// of seqLen tokens, packed many to a batch (distinct sequence ids, full
// batches of NBatch tokens) with logits requested for every token, each
// sequence removed from the cache once decoded; nothing is done with the
// logits. batchLen caps the tokens per llama_decode call (0: NBatch); a
// generation-shaped baseline uses the number of live sequences. It returns
// the tokens decoded and the time taken.
func (m *Model) RawDecode(ctx context.Context, toks []int32, seqLen, batchLen int) (int, time.Duration, error) {
	if err := m.lock(); err != nil {
		return 0, 0, err
	}
	defer m.mu.Unlock()
	if seqLen <= 0 || seqLen > m.maxCells() || seqLen > m.info.NBatch*m.info.NSeqMax {
		return 0, 0, fmt.Errorf("engine: raw decode: sequence length %d outside [1, n_ctx %d]", seqLen, m.maxCells())
	}
	if err := m.reserve(seqLen, seqLen+m.info.NBatch, scoringOf(seqLen, m.info.NUBatch)); err != nil {
		return 0, 0, fmt.Errorf("engine: raw decode: %w", err)
	}
	if batchLen <= 0 || batchLen > m.info.NBatch {
		batchLen = m.info.NBatch
	}
	cMemClear(m.c)
	defer cMemClear(m.c)
	var b batch
	b.reset()
	start := time.Now()
	free := make([]int32, 0, m.info.NSeqMax)
	for s := m.info.NSeqMax - 1; s >= 0; s-- {
		free = append(free, int32(s))
	}
	var done []int32 // sequences whose last token is in the batch
	decoded := 0
	flush := func() error {
		if b.len() == 0 {
			return nil
		}
		if err := m.decode(&b); err != nil {
			return err
		}
		decoded += b.len()
		b.reset()
		for _, s := range done {
			cSeqRm(m.c, s)
		}
		free = append(free, done...)
		done = done[:0]
		return nil
	}
	for off := 0; off < len(toks); off += seqLen {
		if err := ctx.Err(); err != nil {
			return 0, 0, err
		}
		if len(free) == 0 {
			if err := flush(); err != nil {
				return 0, 0, err
			}
		}
		seq := free[len(free)-1]
		free = free[:len(free)-1]
		s := toks[off:min(off+seqLen, len(toks))]
		for p, tok := range s {
			b.add(tok, int32(p), []int32{seq}, true)
			if p == len(s)-1 {
				done = append(done, seq)
			}
			if b.len() == batchLen {
				if err := flush(); err != nil {
					return 0, 0, err
				}
			}
		}
	}
	if err := flush(); err != nil {
		return 0, 0, err
	}
	return decoded, time.Since(start), nil
}

// RawGenerate measures llama_decode in the shape batched generation has:
// the prompts are decoded packed into full batches, then steps rounds
// decode one token for every sequence, all with logits, tokens taken from
// the prompts' own ids and nothing done with the logits. It is the
// baseline for GenerateUntil's end-to-end throughput. len(prompts) must
// not exceed NSeqMax. When the cache cannot hold every sequence at once
// (a fixed n_ctx), the prompts run in waves that fit, in order, as
// GenerateUntil admits requests only while their cells fit.
func (m *Model) RawGenerate(ctx context.Context, prompts [][]int32, steps int) (int, time.Duration, error) {
	if err := m.lock(); err != nil {
		return 0, 0, err
	}
	defer m.mu.Unlock()
	if len(prompts) > m.info.NSeqMax {
		return 0, 0, fmt.Errorf("engine: raw generate: %d sequences exceed n_seq_max %d", len(prompts), m.info.NSeqMax)
	}
	cells, widest := 0, 0
	for _, p := range prompts {
		if len(p) == 0 {
			return 0, 0, fmt.Errorf("engine: raw generate: empty prompt")
		}
		cells += len(p) + steps
		widest = max(widest, len(p)+steps)
	}
	if err := m.reserve(widest, cells, generating); err != nil {
		return 0, 0, fmt.Errorf("engine: raw generate: %w", err)
	}
	cMemClear(m.c)
	defer cMemClear(m.c)
	decoded := 0
	var took time.Duration
	for len(prompts) > 0 {
		n, used := 0, 0
		for n < len(prompts) && used+len(prompts[n])+steps <= m.info.NCtx {
			used += len(prompts[n]) + steps
			n++
		}
		d, t, err := m.rawGenerateWave(ctx, prompts[:n], steps)
		if err != nil {
			return 0, 0, err
		}
		decoded, took = decoded+d, took+t
		prompts = prompts[n:]
		cMemClear(m.c)
	}
	return decoded, took, nil
}

// rawGenerateWave is RawGenerate for prompts that fit the cache together.
func (m *Model) rawGenerateWave(ctx context.Context, prompts [][]int32, steps int) (int, time.Duration, error) {
	var b batch
	b.reset()
	decoded := 0
	flush := func() error {
		if b.len() == 0 {
			return nil
		}
		if err := m.decode(&b); err != nil {
			return err
		}
		decoded += b.len()
		b.reset()
		return nil
	}
	start := time.Now()
	for s, p := range prompts {
		for i, tok := range p {
			b.add(tok, int32(i), []int32{int32(s)}, true)
			if b.len() == m.info.NBatch {
				if err := flush(); err != nil {
					return 0, 0, err
				}
			}
		}
	}
	if err := flush(); err != nil {
		return 0, 0, err
	}
	for step := 0; step < steps; step++ {
		if err := ctx.Err(); err != nil {
			return 0, 0, err
		}
		for s, p := range prompts {
			b.add(p[step%len(p)], int32(len(p)+step), []int32{int32(s)}, true)
			if b.len() == m.info.NBatch {
				if err := flush(); err != nil {
					return 0, 0, err
				}
			}
		}
		if err := flush(); err != nil {
			return 0, 0, err
		}
	}
	return decoded, time.Since(start), nil
}
