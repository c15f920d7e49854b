package shard

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/lmeval/lmeval/harness"
	"github.com/lmeval/lmeval/harness/config"
	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/harness/results"
	"github.com/lmeval/lmeval/python/pyval"
)

// Run is one shard of a run (lmeval run --shard I/N): plan is built whole
// with lm (recorded, Record) and only part index of count of its requests
// go to lm (harness.WithShard). It returns the answers and the shard
// file's header, the run's identity made of version (lmeval's), cfg's
// model and the workload's fingerprint; the caller adds the settings it
// resolved, its working directory and command line (Header.Settings, Dir,
// Args) and writes the file (Writer.Write).
func Run(ctx context.Context, cfg *config.Config, version string, plan *harness.Plan, lm model.LM, index, count int, opts ...harness.Option) (*Writer, *Header, error) {
	started := time.Now()
	rec, calls := Record(lm)
	w, err := plan.Build(ctx, rec, append(opts, harness.WithShard(index, count))...)
	if err != nil {
		return nil, nil, err
	}
	split, err := w.Split(count)
	if err != nil {
		return nil, nil, err
	}
	total := 0
	for i := range count {
		total += split.Requests(i)
	}
	slog.Info("shard", "shard", fmt.Sprintf("%d/%d", index, count), "requests", split.Requests(index), "of", total, "cost", split.Cost(index))
	answers := NewWriter(w.Requests())
	runStart := time.Now()
	if err := w.Run(ctx, rec, answers); err != nil {
		return nil, nil, err
	}
	runSeconds := time.Since(runStart).Seconds()
	var info *Info
	var desc *model.Description
	if d, ok := harness.DescribeModel(lm); ok {
		info, desc = NewInfo(d), &d
	}
	fp := w.Fingerprint()
	id := NewModelIdentity(cfg.Model, cfg.ModelArgs, desc)
	host, _ := os.Hostname()
	return answers, &Header{
		Index: index, Count: count,
		Run: RunID(version, id, fp), LMEval: version, Model: id, Fingerprint: fp,
		Host: host, Started: started, Finished: time.Now(), RunSeconds: runSeconds,
		Requests: split.Requests(index), Cost: split.Cost(index),
		Info: info, Calls: calls,
	}, nil
}

// Evaluate is the merge (lmeval merge): plan, which must be the shards'
// run built again (from the settings they recorded, Header.Settings),
// evaluated with the model that answers from the shard files (Model),
// after checking that the workload is the shards' (its fingerprint, its
// split). The results are an unsharded run's, but for what the merged run
// records of time and work: the date is the first shard's start;
// total_evaluation_time_seconds runs from there to the last shard's end
// (the wall time of the sharded run, the merge excluded);
// tokens_per_second is the tokens decoded over the shards' summed time
// answering (one shard's rate); lmeval.sharded lists the shards, and the
// merge's own time since the set was opened.
func (s *Set) Evaluate(ctx context.Context, plan *harness.Plan, opts ...harness.Option) (*results.Results, error) {
	h := s.Header()
	lm, replay, err := s.Model()
	if err != nil {
		return nil, err
	}
	w, err := plan.Build(ctx, lm, opts...)
	if err != nil {
		return nil, err
	}
	if fp := w.Fingerprint(); RunID(h.LMEval, h.Model, fp) != h.Run {
		return nil, fmt.Errorf("the merge built another run than the shards (did the task files or datasets change since?): %s", h.Fingerprint.Diff(fp))
	}
	split, err := w.Split(h.Count)
	if err != nil {
		return nil, err
	}
	for _, f := range s.Files {
		if n := split.Requests(f.Header.Index); n != f.Header.Requests {
			return nil, fmt.Errorf("shard %s answered %d requests; the run gives it %d", f.Path, f.Header.Requests, n)
		}
	}
	sc, err := w.Score()
	if err != nil {
		return nil, err
	}
	defer sc.Close()
	if err := w.Run(ctx, lm, sc); err != nil {
		return nil, err
	}
	res, err := sc.Report(ctx)
	if err != nil {
		return nil, err
	}
	if err := replay.Check(); err != nil {
		return nil, err
	}
	s.record(res)
	return res, nil
}

// record sets what a merged run's results say of time and work
// (Evaluate).
func (s *Set) record(res *results.Results) {
	started, finished := s.Span()
	res.Date = results.Float(float64(started.UnixNano()) / 1e9)
	res.TotalEvalTime = pyval.FloatRepr(finished.Sub(started).Seconds())
	if res.LMEval == nil {
		res.LMEval = &results.LMEval{}
	}
	res.LMEval.TokensPerSec = 0
	if t := s.RunSeconds(); t > 0 {
		res.LMEval.TokensPerSec = results.Float(float64(res.LMEval.TokensDecoded) / t)
	}
	sh := &results.Sharded{Run: s.Header().Run, MergeSeconds: results.Float(time.Since(s.opened).Seconds())}
	for _, f := range s.Files {
		h := f.Header
		r := results.Shard{
			Index: h.Index, Host: h.Host,
			Started:    results.Float(float64(h.Started.UnixNano()) / 1e9),
			Seconds:    results.Float(h.Finished.Sub(h.Started).Seconds()),
			RunSeconds: results.Float(h.RunSeconds),
			Requests:   h.Requests, Cost: h.Cost,
		}
		if h.Info != nil && h.Info.Work != nil {
			r.TokensDecoded = h.Info.Work.TokensDecoded
		}
		sh.Shards = append(sh.Shards, r)
	}
	res.LMEval.Sharded = sh
}
