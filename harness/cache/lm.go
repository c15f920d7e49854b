package cache

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/lmeval/lmeval/harness/model"
)

// Without a fixed ChunkSize, chunks are sized by time: each should take
// about ChunkTarget, so that the engine gets large batches when requests
// are quick while a killed run loses at most that much work, however slow
// the model. The first chunk has firstChunk requests.
const (
	ChunkTarget = 15 * time.Second
	firstChunk  = 32
	minChunk    = 8
	maxChunk    = 2048
)

var (
	_ model.LM        = (*CachingLM)(nil)
	_ model.Closer    = (*CachingLM)(nil)
	_ model.Describer = (*CachingLM)(nil)
	_ model.Wrapper   = (*CachingLM)(nil)
	_ model.Generator = (*CachingLM)(nil)
)

// CachingLM answers requests from the cache and sends only the misses to
// the model it wraps, committing each chunk of new answers as it
// completes.
type CachingLM struct {
	inner model.LM
	c     *Cache
	model string
	// ChunkSize is the number of misses per call to the inner model;
	// when 0, chunks are sized to take about ChunkTarget each.
	ChunkSize int

	hits, misses atomic.Int64
}

// Wrap returns inner behind the cache, for the model with identity id.
func (c *Cache) Wrap(inner model.LM, id Identity) (*CachingLM, error) {
	h := id.Hash()
	js, err := json.Marshal(id)
	if err != nil {
		return nil, err
	}
	err = retry(context.Background(), func() error {
		_, err := c.db.Exec(`INSERT OR IGNORE INTO models(model, identity) VALUES (?, ?)`, h, string(js))
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("cache %s: %w", c.path, err)
	}
	if id.Fingerprint != "" {
		// The identity's fingerprint is the model file's sha256: the
		// backend need not hash the file again for the results.
		if s, ok := model.As[model.FileHasher](inner); ok {
			s.SetSHA256(id.Fingerprint)
		}
	}
	return &CachingLM{inner: inner, c: c, model: h}, nil
}

// Cache is the database l answers from, for the run's other uses of the
// same file (built requests, model fingerprints), so it is opened once.
func (l *CachingLM) Cache() *Cache { return l.c }

// Stats reports the requests answered from the cache and those computed.
func (l *CachingLM) Stats() (hits, misses int64) { return l.hits.Load(), l.misses.Load() }

// Loglikelihood implements model.LM.
func (l *CachingLM) Loglikelihood(ctx context.Context, reqs []model.LoglikelihoodRequest) ([]model.LoglikelihoodResult, error) {
	return cached(ctx, l, "loglikelihood", reqs, l.inner.Loglikelihood)
}

// LoglikelihoodRolling implements model.LM.
func (l *CachingLM) LoglikelihoodRolling(ctx context.Context, reqs []model.RollingRequest) ([]model.RollingResult, error) {
	return cached(ctx, l, "loglikelihood_rolling", reqs, l.inner.LoglikelihoodRolling)
}

// GenerateUntil implements model.LM.
func (l *CachingLM) GenerateUntil(ctx context.Context, reqs []model.GenerateRequest) ([]string, error) {
	return cached(ctx, l, "generate_until", reqs, l.inner.GenerateUntil)
}

// Generate implements model.Generator: generations with their token
// counts, cached apart from GenerateUntil's texts. A wrapped model that
// does not count answers through GenerateUntil (and its cache entries),
// with counts of -1.
func (l *CachingLM) Generate(ctx context.Context, reqs []model.GenerateRequest) ([]model.Generation, error) {
	if g, ok := l.inner.(model.Generator); ok {
		return cached(ctx, l, "generate", reqs, g.Generate)
	}
	texts, err := l.GenerateUntil(ctx, reqs)
	if err != nil {
		return nil, err
	}
	return model.Uncounted(texts), nil
}

// Close closes the wrapped model if it holds resources; the cache itself
// stays open (its owner closes it).
func (l *CachingLM) Close() error {
	if c, ok := model.As[model.Closer](l.inner); ok {
		return c.Close()
	}
	return nil
}

// Describe implements model.Describer: the wrapped model's description,
// with the cache's counts.
func (l *CachingLM) Describe() model.Description {
	var in model.Description
	if d, ok := model.As[model.Describer](l.inner); ok {
		in = d.Describe()
	}
	h, m := l.Stats()
	in.Cache = &model.CacheStats{Path: l.c.path, Model: l.model, Hits: h, Misses: m}
	return in
}

// Unwrap returns the wrapped model.
func (l *CachingLM) Unwrap() model.LM { return l.inner }

const lookupBatch = 500 // keys per SELECT, under SQLite's variable limit

func cached[Req, Res any](ctx context.Context, l *CachingLM, kind string, reqs []Req,
	compute func(context.Context, []Req) ([]Res, error)) ([]Res, error) {
	out := make([]Res, len(reqs))
	keys := make([][]byte, len(reqs))
	for i, r := range reqs {
		k, err := RequestKey(l.model, kind, r)
		if err != nil {
			return nil, fmt.Errorf("cache: %s request %d: %w", kind, i, err)
		}
		keys[i] = k
	}
	found, err := l.lookup(ctx, keys)
	if err != nil {
		return nil, err
	}
	// Misses, each distinct key once, in request order.
	var missIdx []int
	seen := map[string][]int{}
	for i, k := range keys {
		if v, ok := found[string(k)]; ok {
			if err := json.Unmarshal(v, &out[i]); err != nil {
				return nil, fmt.Errorf("cache %s: corrupt %s entry: %w", l.c.path, kind, err)
			}
			l.hits.Add(1)
			continue
		}
		if _, dup := seen[string(k)]; !dup {
			missIdx = append(missIdx, i)
		}
		seen[string(k)] = append(seen[string(k)], i)
	}
	chunk := l.ChunkSize
	if chunk <= 0 {
		chunk = firstChunk
	}
	for start := 0; start < len(missIdx); {
		idx := missIdx[start:min(start+chunk, len(missIdx))]
		start += len(idx)
		t0 := time.Now()
		batch := make([]Req, len(idx))
		for j, i := range idx {
			batch[j] = reqs[i]
		}
		res, err := compute(ctx, batch)
		if err != nil {
			// The chunks before this one are committed. A bad request is
			// named by its place in the caller's slice, not in this chunk.
			var re *model.RequestError
			if errors.As(err, &re) && re.Index >= 0 && re.Index < len(idx) {
				return nil, &model.RequestError{Index: idx[re.Index], Err: re.Err}
			}
			return nil, err
		}
		if len(res) != len(batch) {
			return nil, fmt.Errorf("cache: model answered %d of %d %s requests", len(res), len(batch), kind)
		}
		values := make([][]byte, len(res))
		for j, r := range res {
			if values[j], err = json.Marshal(r); err != nil {
				return nil, fmt.Errorf("cache: %s answer: %w", kind, err)
			}
			for _, i := range seen[string(keys[idx[j]])] {
				out[i] = r
			}
		}
		if err := l.store(ctx, kind, idx, keys, values); err != nil {
			return nil, err
		}
		l.misses.Add(int64(len(idx)))
		if l.ChunkSize <= 0 {
			chunk = nextChunk(len(idx), time.Since(t0))
		}
	}
	return out, nil
}

func (l *CachingLM) lookup(ctx context.Context, keys [][]byte) (map[string][]byte, error) {
	found := map[string][]byte{}
	for start := 0; start < len(keys); start += lookupBatch {
		part := keys[start:min(start+lookupBatch, len(keys))]
		args := make([]any, 0, len(part)+1)
		args = append(args, l.model)
		for _, k := range part {
			args = append(args, k)
		}
		q := `SELECT key, value FROM responses WHERE model = ? AND key IN (?` + strings.Repeat(",?", len(part)-1) + `)`
		err := retry(ctx, func() error {
			rows, err := l.c.db.QueryContext(ctx, q, args...)
			if err != nil {
				return err
			}
			defer rows.Close()
			for rows.Next() {
				var k, v []byte
				if err := rows.Scan(&k, &v); err != nil {
					return err
				}
				found[string(k)] = v
			}
			return rows.Err()
		})
		if err != nil {
			return nil, fmt.Errorf("cache %s: %w", l.c.path, err)
		}
	}
	return found, nil
}

// store commits one chunk of answers in one transaction. It runs even when
// ctx is cancelled: the answers are computed and should not be lost.
func (l *CachingLM) store(ctx context.Context, kind string, idx []int, keys [][]byte, values [][]byte) error {
	err := retry(context.WithoutCancel(ctx), func() error {
		tx, err := l.c.db.Begin()
		if err != nil {
			return err
		}
		stmt, err := tx.Prepare(`INSERT OR REPLACE INTO responses(key, model, kind, value) VALUES (?, ?, ?, ?)`)
		if err != nil {
			tx.Rollback()
			return err
		}
		for j, i := range idx {
			if _, err := stmt.Exec(keys[i], l.model, kind, values[j]); err != nil {
				stmt.Close()
				tx.Rollback()
				return err
			}
		}
		stmt.Close()
		return tx.Commit()
	})
	if err != nil {
		return fmt.Errorf("cache %s: storing %d %s answers: %w", l.c.path, len(idx), kind, err)
	}
	return nil
}

// nextChunk sizes the next chunk from the last one's pace so that it takes
// about ChunkTarget, growing at most fourfold at a time.
func nextChunk(n int, took time.Duration) int {
	if took <= 0 {
		return min(4*n, maxChunk)
	}
	next := int(float64(n) * float64(ChunkTarget) / float64(took))
	return max(minChunk, min(next, 4*n, maxChunk))
}
