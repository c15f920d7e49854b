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

	"github.com/urfave/cli/v2"

	"github.com/lmeval/lmeval/harness"
	"github.com/lmeval/lmeval/harness/config"
	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/harness/progress"
	"github.com/lmeval/lmeval/harness/results"
	"github.com/lmeval/lmeval/harness/shard"
	"github.com/lmeval/lmeval/internal/output"
)

// runShard is lmeval run --shard I/N (shard.Run): the whole plan is
// built, only the shard's part of the requests is sent to lm, and the
// answers go to the shard file under --output_path with what lmeval merge
// needs to score them: the run's identity, its settings (layers), the
// directory they are relative to, and what the build asked of the model.
func runShard(ctx context.Context, c *cli.Context, cfg *config.Config, layers []config.Layer, plan *harness.Plan, lm model.LM) error {
	if cfg.Shard.Auto {
		slog.Info("shard from the scheduler's environment", "shard", cfg.Shard.String(), "from", cfg.Shard.Source)
	}
	opts, closeCache, err := runOptions(c, cfg, lm)
	if err != nil {
		return err
	}
	defer closeCache()
	w, h, err := shard.Run(ctx, cfg, Version, plan, lm, cfg.Shard.Index, cfg.Shard.Count, opts...)
	if err != nil {
		return err
	}
	if h.Settings, err = config.EncodeLayers(layers); err != nil {
		return err
	}
	h.Dir, _ = os.Getwd()
	h.Args = commandLine(layers)
	layout := output.NewLayout(cfg.OutputPath, results.ModelName(cfg.ModelArgs), h.Started)
	if strings.EqualFold(filepath.Ext(cfg.OutputPath), ".json") {
		h.ResultsFile = filepath.Base(layout.ResultsFile)
	}
	path := filepath.Join(shard.Dir(layout.Dir, h.Run), shard.Name(h.Index, h.Count))
	if err := w.Write(path, h); err != nil {
		return err
	}
	slog.Info("shard written", "path", path, "answers", h.Answers)
	fmt.Fprintf(c.App.Writer, "shard %s: %d requests answered in %.1f s, written to %s\n", cfg.Shard, h.Answers, h.RunSeconds, path)
	fmt.Fprintf(c.App.Writer, "once all %d shards are done: lmeval merge %s\n", h.Count, filepath.Dir(path))
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
	// The files are named from the run's start: its first shard's.
	started, _ := set.Span()
	out, err := openOutputs(ctx, c, cfg, nil, started)
	if err != nil {
		return err
	}
	defer out.close()
	res, err := set.Evaluate(ctx, plan, out.opts...)
	if err != nil {
		return out.samples.partial(err)
	}
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
