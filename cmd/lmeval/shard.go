package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/lmeval/lmeval/harness"
	"github.com/lmeval/lmeval/harness/config"
	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/harness/progress"
	"github.com/lmeval/lmeval/harness/results"
	"github.com/lmeval/lmeval/harness/shard"
	"github.com/lmeval/lmeval/internal/output"
	"github.com/lmeval/lmeval/python/pyval"
)

// runShard is lmeval run --shard I/N: the whole plan is built, only the
// shard's part of the requests is sent to lm (harness.WithShard), and the
// answers go to the shard file under --output_path with what lmeval merge
// needs to score them: the run's identity, its settings (layers) and what
// the build asked of the model.
func runShard(ctx context.Context, c *cli.Context, cfg *config.Config, layers []config.Layer, plan *harness.Plan, lm model.LM) error {
	started := time.Now()
	index, count := cfg.Shard.Index, cfg.Shard.Count
	if cfg.Shard.Auto {
		slog.Info("shard from the scheduler's environment", "shard", cfg.Shard.String(), "from", cfg.Shard.Source)
	}
	opts, closeCache, err := runOptions(c, cfg, lm)
	if err != nil {
		return err
	}
	defer closeCache()
	rec, calls := shard.Record(lm)
	b, err := plan.Build(ctx, rec, append(opts, harness.WithShard(index, count))...)
	if err != nil {
		return err
	}
	split, err := b.Split(count)
	if err != nil {
		return err
	}
	total := 0
	for i := range count {
		total += split.Requests(i)
	}
	slog.Info("shard", "shard", cfg.Shard.String(), "requests", split.Requests(index), "of", total, "cost", split.Cost(index))
	w := shard.NewWriter(b.Requests())
	runStart := time.Now()
	if err := b.Run(ctx, rec, w); err != nil {
		return err
	}
	runSeconds := time.Since(runStart).Seconds()

	var info *model.Info
	if in, ok := harness.DescribeModel(lm); ok {
		info = &in
	}
	fp := b.Fingerprint()
	id := shard.NewModelIdentity(cfg.Model, cfg.ModelArgs, info)
	settings, err := config.EncodeLayers(layers)
	if err != nil {
		return err
	}
	dir, _ := os.Getwd()
	host, _ := os.Hostname()
	h := &shard.Header{
		Index: index, Count: count,
		Run: shard.RunID(Version, id, fp), LMEval: Version, Model: id, Fingerprint: fp,
		Settings: settings, Dir: dir, Args: commandLine(layers),
		Host: host, Started: started, Finished: time.Now(), RunSeconds: runSeconds,
		Requests: split.Requests(index), Cost: split.Cost(index),
		Info: info, Calls: calls,
	}
	layout := output.NewLayout(cfg.OutputPath, results.ModelName(cfg.ModelArgs), started)
	if strings.EqualFold(filepath.Ext(cfg.OutputPath), ".json") {
		h.ResultsFile = filepath.Base(layout.ResultsFile)
	}
	path := filepath.Join(shard.Dir(layout.Dir, h.Run), shard.Name(index, count))
	if err := w.Write(path, h); err != nil {
		return err
	}
	slog.Info("shard written", "path", path, "answers", h.Answers)
	fmt.Fprintf(c.App.Writer, "shard %s: %d requests answered in %.1f s, written to %s\n", cfg.Shard, h.Answers, runSeconds, path)
	fmt.Fprintf(c.App.Writer, "once all %d shards are done: lmeval merge %s\n", count, filepath.Dir(path))
	return nil
}

// commandLine is the run command the settings of the command-line layer
// make (the last layer with Flags), as a merge's error for a missing
// shard shows it.
func commandLine(layers []config.Layer) []string {
	args := []string{"run"}
	for _, l := range layers {
		if !l.Flags {
			continue
		}
		keys := make([]string, 0, len(l.Values))
		for k := range l.Values {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			switch v := l.Values[k].(type) {
			case []string:
				for _, s := range v {
					args = append(args, "--"+k+"="+s)
				}
			default:
				args = append(args, fmt.Sprintf("--%s=%v", k, v))
			}
		}
	}
	return args
}

func mergeCommand() *cli.Command {
	return &cli.Command{
		Name:      "merge",
		Usage:     "combine the shards of a sharded run (lmeval run --shard) into its results and samples",
		ArgsUsage: "DIR|FILE...",
		Description: "Reads every shard file (shard-I-of-N.jsonl) under the given directories, checks that they are all the shards\n" +
			"of one run, builds the run again from the settings they recorded and scores all their answers at once:\n" +
			"the results and samples are those of one unsharded run that got the same answers (docs/scale.md).",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "output_path", Aliases: []string{"o"}, Usage: "where the results (and samples) go (default: the shards' --output_path)"},
			&cli.StringFlag{Name: "verbosity", Aliases: []string{"v"}, Usage: "log level: DEBUG, INFO, WARNING, ERROR, CRITICAL"},
		},
		Action: mergeAction,
	}
}

func mergeAction(c *cli.Context) error {
	start := time.Now()
	if c.NArg() == 0 {
		return errors.New("lmeval merge takes the shards' directories (or files): lmeval merge OUTPUT_PATH")
	}
	if v := c.String("verbosity"); v != "" {
		lvl, err := config.ParseLogLevel(v)
		if err != nil {
			return fmt.Errorf("--verbosity: %w", err)
		}
		setupLogging(lvl)
	}
	// The merge's own paths are taken from here, before it moves to the
	// shards' working directory.
	args := c.Args().Slice()
	for i, a := range args {
		args[i], _ = filepath.Abs(a)
	}
	outputPath := c.String("output_path")
	if outputPath != "" {
		outputPath, _ = filepath.Abs(outputPath)
	}
	paths, err := shard.Find(args...)
	if err != nil {
		return err
	}
	if len(paths) == 0 {
		return fmt.Errorf("no shard files (shard-I-of-N.jsonl) under %s", strings.Join(c.Args().Slice(), ", "))
	}
	set, err := shard.Open(paths)
	if err != nil {
		return err
	}
	h := set.Header()
	if h.LMEval != Version {
		return fmt.Errorf("the shards were made by lmeval %s, this is %s: merge them with the lmeval that made them", h.LMEval, Version)
	}
	cfg, err := mergeConfig(h, outputPath)
	if err != nil {
		return err
	}
	if wd, err := os.Getwd(); err == nil && h.Dir != "" && h.Dir != wd {
		// Relative paths in the settings (include paths, task files,
		// the data files they name) are the shards' working directory's.
		if err := os.Chdir(h.Dir); err != nil {
			slog.Warn("the shards' working directory is not here: relative paths in their settings are taken from the current directory", "dir", h.Dir)
		} else {
			defer os.Chdir(wd)
		}
	}
	// No bars: the merge counts no tokens (the replayed model would be
	// asked counts no shard recorded), and it takes seconds.
	ctx := progress.NewContext(c.Context, progress.ForStderr(true))
	cfg.NoProgress = true
	plan, tree, lp, err := planRun(ctx, c, cfg)
	if err != nil {
		return err
	}
	lm, replay, err := set.Model()
	if err != nil {
		return err
	}
	out, err := openOutputs(ctx, c, cfg, lm, set.Started())
	if err != nil {
		return err
	}
	defer out.close()
	res, err := mergeEvaluate(ctx, set, plan, lm, replay, out.opts)
	if err != nil {
		return out.samples.partial(err)
	}
	recordShards(res, set, time.Since(start))
	return out.finish(ctx, c, cfg, res, tree, lp)
}

// mergeConfig resolves the settings the shards ran with (shard 0's
// layers), less what is each shard's own: the part it ran, its request
// cache, and — when the merge is given one — where the results go.
func mergeConfig(h *shard.Header, outputPath string) (*config.Config, error) {
	layers, err := config.DecodeLayers(h.Settings)
	if err != nil {
		return nil, err
	}
	for _, l := range layers {
		delete(l.Values, "shard")
		delete(l.Values, "cache_requests")
	}
	if outputPath != "" {
		layers = append(layers, config.Layer{Source: "lmeval merge", Flags: true, Values: map[string]any{"output_path": outputPath}})
	}
	cfg, err := config.Resolve(layers...)
	if err != nil {
		return nil, fmt.Errorf("the shards' settings: %w", err)
	}
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("the shards' settings: %w", err)
	}
	return cfg, nil
}

// mergeEvaluate is Plan.Evaluate on the replaying model, with the checks
// that the merge rebuilt the shards' run: the same fingerprint, the same
// split, every answer used.
func mergeEvaluate(ctx context.Context, set *shard.Set, plan *harness.Plan, lm model.LM, replay *shard.Replay, opts []harness.Option) (*results.Results, error) {
	h := set.Header()
	b, err := plan.Build(ctx, lm, opts...)
	if err != nil {
		return nil, err
	}
	if fp := b.Fingerprint(); shard.RunID(h.LMEval, h.Model, fp) != h.Run {
		return nil, fmt.Errorf("the merge built another run than the shards (did the task files or datasets change since?): %s", h.Fingerprint.Diff(fp))
	}
	split, err := b.Split(h.Count)
	if err != nil {
		return nil, err
	}
	for _, f := range set.Files {
		if n := split.Requests(f.Header.Index); n != f.Header.Requests {
			return nil, fmt.Errorf("shard %s answered %d requests; the run gives it %d", f.Path, f.Header.Requests, n)
		}
	}
	s, err := b.Score(ctx)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	if err := b.Run(ctx, lm, s); err != nil {
		return nil, err
	}
	res, err := s.Report(ctx)
	if err != nil {
		return nil, err
	}
	if err := replay.Check(); err != nil {
		return nil, err
	}
	return res, nil
}

// recordShards sets what a merged run's results say of time and work:
// the date is the first shard's start; total_evaluation_time_seconds runs
// from there to the last shard's end (the wall time of the sharded run,
// the merge excluded); tokens_per_second is the tokens decoded over the
// shards' summed time answering (one shard's rate); lmeval.sharded lists
// the shards and the merge's own time.
func recordShards(res *results.Results, set *shard.Set, merge time.Duration) {
	started := set.Started()
	res.Date = results.Float(float64(started.UnixNano()) / 1e9)
	res.TotalEvalTime = pyval.FloatRepr(set.Finished().Sub(started).Seconds())
	if res.LMEval == nil {
		res.LMEval = &results.LMEval{}
	}
	res.LMEval.TokensPerSec = 0
	if s := set.RunSeconds(); s > 0 {
		res.LMEval.TokensPerSec = results.Float(float64(res.LMEval.TokensDecoded) / s)
	}
	sh := &results.Sharded{Run: set.Header().Run, MergeSeconds: results.Float(merge.Seconds())}
	for _, f := range set.Files {
		h := f.Header
		s := results.Shard{
			Index: h.Index, Host: h.Host,
			Started:    results.Float(float64(h.Started.UnixNano()) / 1e9),
			Seconds:    results.Float(h.Finished.Sub(h.Started).Seconds()),
			RunSeconds: results.Float(h.RunSeconds),
			Requests:   h.Requests, Cost: h.Cost,
		}
		if h.Info != nil && h.Info.Work != nil {
			s.TokensDecoded = h.Info.Work.TokensDecoded
		}
		sh.Shards = append(sh.Shards, s)
	}
	res.LMEval.Sharded = sh
}
