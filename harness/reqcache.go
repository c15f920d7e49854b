package harness

import (
	"bytes"
	"context"
	"encoding/gob"
	"encoding/json"
	"fmt"
	"log/slog"

	"github.com/lmeval/lmeval/harness/cache"
	"github.com/lmeval/lmeval/harness/config"
	"github.com/lmeval/lmeval/harness/task"
)

// --cache_requests keeps each task's built documents and requests in the
// cache database's blobs, keyed by everything that shapes them, so a rerun
// skips dataset processing and prompt building (lm-eval's request cache).

// requestCacheVersion changes when the stored form changes.
const requestCacheVersion = 1

// requestBlobPrefix starts every request-cache blob key.
const requestBlobPrefix = "requests-"

func init() {
	for _, v := range []any{map[string]any{}, []any{}, int64(0), int(0), float64(0), "", false, []string{}, []int{}} {
		gob.Register(v)
	}
}

// builtTask is a built task's state as stored.
type builtTask struct {
	NumFewshot     int
	MultipleInput  bool
	MultipleTarget bool
	EvalSplit      string
	NumEvalDocs    int
	Docs           []task.DocInfo
	Instances      []cachedInstance
	Fewshot        task.FewshotReport
}

type cachedInstance struct {
	Instance task.Instance // Doc is nil; DocPos says which
	DocPos   int
}

// buildCached builds one task's documents and requests, from the request
// cache when --cache_requests allows.
func (w *Workload) buildCached(ctx context.Context, tr *taskRun, bo task.BuildOptions) error {
	db := w.plan.opts.reqCache
	mode := w.plan.cfg.CacheRequests
	if db == nil || mode == config.CacheRequestsOff {
		return tr.t.BuildRequests(ctx, bo)
	}
	if mode == config.CacheRequestsDelete {
		// deleteCachedRequests ran before the builds.
		return tr.t.BuildRequests(ctx, bo)
	}
	key, err := w.requestKey(tr, bo)
	if err != nil {
		return fmt.Errorf("task %s: request cache key: %w", tr.t.Name, err)
	}
	if mode == config.CacheRequestsTrue {
		data, ok, err := db.GetBlob(key)
		if err != nil {
			return fmt.Errorf("task %s: request cache: %w", tr.t.Name, err)
		}
		if ok {
			if err := restoreTask(tr.t, data); err == nil {
				slog.Debug("requests from cache", "task", tr.t.Name)
				return nil
			} else {
				slog.Warn("unreadable cached requests; rebuilding", "task", tr.t.Name, "err", err)
			}
		}
	}
	if err := tr.t.BuildRequests(ctx, bo); err != nil {
		return err
	}
	data, err := saveTask(tr.t)
	if err != nil {
		return fmt.Errorf("task %s: request cache: %w", tr.t.Name, err)
	}
	if err := db.PutBlob(key, data); err != nil {
		return fmt.Errorf("task %s: request cache: %w", tr.t.Name, err)
	}
	return nil
}

// deleteCachedRequests is --cache_requests delete: every stored request set
// goes, before any task builds.
func (w *Workload) deleteCachedRequests() error {
	db := w.plan.opts.reqCache
	if db == nil || w.plan.cfg.CacheRequests != config.CacheRequestsDelete {
		return nil
	}
	n, err := db.DeleteBlobs(requestBlobPrefix)
	if err != nil {
		return fmt.Errorf("--cache_requests delete: %w", err)
	}
	slog.Info("deleted cached requests", "entries", n)
	return nil
}

// requestKey names a task's built requests by everything that shapes them.
func (w *Workload) requestKey(tr *taskRun, bo task.BuildOptions) (string, error) {
	raw, err := json.Marshal(configValue(tr.t.Config.Raw))
	if err != nil {
		return "", err
	}
	cfg := w.plan.cfg
	parts := []any{requestCacheVersion, tr.t.Name, string(raw), bo.Limit, bo.Samples, bo.NumFewshot, bo.FewshotSeed,
		bo.SystemInstruction, bo.GenKwargs, bo.FewshotAsMultiturn, cfg.ChatTemplate, tr.spec.TruncateFewshots}
	if cfg.ChatTemplate.Enabled || tr.spec.TruncateFewshots {
		// The prompts then depend on the model's template or tokenizer.
		parts = append(parts, cfg.Model, cfg.ModelArgs)
	}
	return cache.BlobKey(requestBlobPrefix+tr.t.Name, parts...)
}

func saveTask(t *task.Task) ([]byte, error) {
	b := builtTask{
		NumFewshot: t.NumFewshot, MultipleInput: t.MultipleInput, MultipleTarget: t.MultipleTarget,
		EvalSplit: t.EvalSplit, NumEvalDocs: t.NumEvalDocs, Fewshot: t.Fewshot,
	}
	pos := map[*task.DocInfo]int{}
	for i, d := range t.Docs {
		pos[d] = i
		b.Docs = append(b.Docs, *d)
	}
	for _, in := range t.Instances {
		p, ok := pos[in.Doc]
		if !ok {
			return nil, fmt.Errorf("request for a document outside the task")
		}
		in.Doc = nil
		b.Instances = append(b.Instances, cachedInstance{Instance: in, DocPos: p})
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(&b); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func restoreTask(t *task.Task, data []byte) error {
	var b builtTask
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&b); err != nil {
		return err
	}
	docs := make([]*task.DocInfo, len(b.Docs))
	for i := range b.Docs {
		d := b.Docs[i]
		if d.Doc == nil {
			d.Doc = map[string]any{}
		}
		docs[i] = &d
	}
	insts := make([]task.Instance, len(b.Instances))
	for i, ci := range b.Instances {
		if ci.DocPos < 0 || ci.DocPos >= len(docs) {
			return fmt.Errorf("request %d: document %d out of range", i, ci.DocPos)
		}
		insts[i] = ci.Instance
		insts[i].Doc = docs[ci.DocPos]
	}
	t.NumFewshot, t.MultipleInput, t.MultipleTarget = b.NumFewshot, b.MultipleInput, b.MultipleTarget
	t.EvalSplit, t.NumEvalDocs, t.Fewshot = b.EvalSplit, b.NumEvalDocs, b.Fewshot
	t.Docs, t.Instances = docs, insts
	return nil
}
