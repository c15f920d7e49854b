package serve

import (
	"context"
	"errors"
	"sync/atomic"
	"time"

	"github.com/lmeval/lmeval/engine"
)

// batcher runs queued work in batches: after the first item arrives it
// gathers more for Options.Window (and whatever queued while the engine
// was busy), up to Options.MaxBatch prompts and a token budget of a few
// KV caches' worth, then hands them to the engine in one call per kind,
// which packs them into shared decodes.
func (s *Server) batcher() {
	var carry []*work
	for {
		var batch []*work
		if len(carry) > 0 {
			batch, carry = carry, nil
		} else {
			select {
			case wk := <-s.queue:
				batch = append(batch, wk)
			case <-s.stop:
				s.drain()
				return
			}
		}
		l := s.model.Load()
		budget := 4 * l.info.NCtx
		tokens := 0
		for _, wk := range batch {
			tokens += wk.tokens()
		}
		timer := time.NewTimer(s.opts.Window)
	gather:
		for len(batch) < s.opts.MaxBatch && tokens < budget {
			select {
			case wk := <-s.queue:
				if tokens+wk.tokens() > budget {
					carry = append(carry, wk)
					break gather
				}
				batch = append(batch, wk)
				tokens += wk.tokens()
			case <-timer.C:
				break gather
			case <-s.stop:
				break gather
			}
		}
		timer.Stop()
		s.runBatch(l, batch)
	}
}

// drain fails everything still queued once the server stops.
func (s *Server) drain() {
	for {
		select {
		case wk := <-s.queue:
			wk.finish(errStopped)
		default:
			return
		}
	}
}

func (wk *work) tokens() int {
	if wk.score != nil {
		return len(wk.score.Tokens)
	}
	if wk.gen.ContextTokens != nil {
		return len(wk.gen.ContextTokens) + wk.gen.MaxGenToks
	}
	return wk.gen.MaxGenToks
}

func (wk *work) finish(err error) {
	wk.err = err
	close(wk.done)
}

// runBatch runs a batch: work whose client has gone is dropped; the rest
// runs under a context cancelled once every client of the batch has gone.
func (s *Server) runBatch(l *loaded, batch []*work) {
	var scores, gens []*work
	for _, wk := range batch {
		switch {
		case wk.ctx.Err() != nil:
			wk.finish(wk.ctx.Err())
		case wk.score != nil:
			scores = append(scores, wk)
		default:
			gens = append(gens, wk)
		}
	}
	if len(scores) > 0 {
		s.runKind(l, scores, func(ctx context.Context, ws []*work) (int, error) {
			reqs := make([]engine.PromptRequest, len(ws))
			k := 1
			for i, wk := range ws {
				reqs[i] = *wk.score
				k = max(k, wk.k)
			}
			res, err := l.Engine.ScorePrompts(ctx, reqs, k)
			if err != nil {
				return badIndex(err), err
			}
			for i, wk := range ws {
				wk.scores = res[i]
			}
			return -1, nil
		})
	}
	if len(gens) > 0 {
		s.runKind(l, gens, func(ctx context.Context, ws []*work) (int, error) {
			reqs := make([]engine.GenerateRequest, len(ws))
			for i, wk := range ws {
				reqs[i] = *wk.gen
			}
			res, err := l.Engine.Generate(ctx, reqs)
			if err != nil {
				return badIndex(err), err
			}
			for i, wk := range ws {
				wk.out = res[i]
			}
			return -1, nil
		})
	}
}

// badIndex is the index of the request an engine error names, or -1.
func badIndex(err error) int {
	var re *engine.RequestError
	if errors.As(err, &re) {
		return re.Index
	}
	return -1
}

// runKind calls fn on the work; when the engine refuses one request
// (it computed nothing then) that one fails and the rest run again.
func (s *Server) runKind(l *loaded, ws []*work, fn func(context.Context, []*work) (int, error)) {
	for len(ws) > 0 {
		ctx, cancel := context.WithCancel(context.Background())
		var live atomic.Int64
		live.Store(int64(len(ws)))
		stops := make([]func() bool, len(ws))
		for i, wk := range ws {
			stops[i] = context.AfterFunc(wk.ctx, func() {
				if live.Add(-1) == 0 {
					cancel()
				}
			})
		}
		s.batches.Add(1)
		s.prompts.Add(int64(len(ws)))
		bad, err := fn(ctx, ws)
		for _, stop := range stops {
			stop()
		}
		cancel()
		if err == nil {
			for _, wk := range ws {
				wk.finish(nil)
			}
			return
		}
		if bad < 0 || bad >= len(ws) {
			for _, wk := range ws {
				if wk.ctx.Err() != nil {
					wk.finish(wk.ctx.Err())
				} else {
					wk.finish(err)
				}
			}
			return
		}
		ws[bad].finish(badRequest("prompt", "%v", err))
		ws = append(ws[:bad:bad], ws[bad+1:]...)
	}
}
