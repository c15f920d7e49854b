package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/lmeval/lmeval/harness/results"
	"log/slog"
	"os"
	"strconv"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/lmeval/lmeval/benchmarks"
	"github.com/lmeval/lmeval/harness"
	"github.com/lmeval/lmeval/harness/cache"
	"github.com/lmeval/lmeval/harness/config"
	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/harness/progress"
	"github.com/lmeval/lmeval/harness/tasktree"
	"github.com/lmeval/lmeval/internal/output"
)

// runFlags are lm-eval's run flags, with its names and short forms, made
// from config.Settings. Values are taken as strings and parsed by
// harness/config, so a bad value is reported with the accepted forms.
func runFlags() []cli.Flag {
	var flags []cli.Flag
	for _, s := range config.Settings {
		if s.Flag() {
			flags = append(flags, settingFlag(s))
		}
	}
	return flags
}

// settingFlag is the command-line flag of one setting.
func settingFlag(s *config.Setting) cli.Flag {
	var aliases []string
	if s.Alias != "" {
		aliases = []string{s.Alias}
	}
	switch s.Value {
	case config.List:
		return &cli.StringSliceFlag{Name: s.Name, Aliases: aliases, Usage: s.HelpText()}
	case config.Switch:
		return &cli.BoolFlag{Name: s.Name, Aliases: aliases, Usage: s.HelpText()}
	}
	return &cli.StringFlag{Name: s.Name, Aliases: aliases, Usage: s.HelpText()}
}

func runCommand() *cli.Command {
	return &cli.Command{
		Name:      "run",
		Usage:     "evaluate a model on tasks",
		UsageText: "lmeval run --model_args pretrained=MODEL.gguf --tasks TASK[|SHOTS] [TASK...] [options]",
		Flags:     runFlags(),
		Action:    runAction,
	}
}

// cmdlineLayer collects the flags the user set, as a settings layer.
func cmdlineLayer(c *cli.Context) config.Layer {
	l := config.Layer{Source: "command line", Flags: true, Values: map[string]any{}}
	for _, f := range c.Command.Flags {
		name := f.Names()[0]
		if _, setting := config.Lookup(name); !c.IsSet(name) || !setting {
			continue // unset, or a command's own flag (pack's --archive)
		}
		switch f.(type) {
		case *cli.StringSliceFlag:
			l.Values[name] = c.StringSlice(name)
		case *cli.BoolFlag:
			l.Values[name] = strconv.FormatBool(c.Bool(name))
		default:
			l.Values[name] = c.String(name)
		}
	}
	return l
}

// setupLogging sends logs to stderr at the configured level.
func setupLogging(lvl slog.Level) {
	slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: lvl})))
}

// loadRunConfig resolves the run's settings (preset < config file < flags),
// sets up logging and checks that a run is possible.
func loadRunConfig(c *cli.Context) (*config.Config, error) {
	cfg, _, err := loadRunSettings(c)
	return cfg, err
}

// loadRunSettings is loadRunConfig with the layers the settings came from
// (a shard records them for lmeval merge).
func loadRunSettings(c *cli.Context) (*config.Config, []config.Layer, error) {
	if c.Args().Len() > 0 {
		return nil, nil, fmt.Errorf("unexpected arguments %q (tasks go after --tasks)", c.Args().Slice())
	}
	layers, err := config.LoadLayers(cmdlineLayer(c))
	if err != nil {
		return nil, nil, err
	}
	cfg, err := config.Resolve(layers...)
	if err != nil {
		return nil, nil, err
	}
	setupLogging(cfg.LogLevel)
	if err := cfg.Validate(); err != nil {
		return nil, nil, err
	}
	if js, err := json.Marshal(cfg); err == nil {
		slog.Debug("run settings", "config", string(js))
	}
	return cfg, layers, nil
}

func runAction(c *cli.Context) error {
	cfg, layers, err := loadRunSettings(c)
	if err != nil {
		return err
	}
	if cfg.Limit.IsSet() {
		slog.Warn("--limit should only be used for testing: metrics on a subset are not comparable with published ones")
	}
	ctx := progress.NewContext(c.Context, progress.ForStderr(cfg.NoProgress))

	// Tasks are resolved (the harness's plan stage) before the model
	// loads, so a misspelt name or a broken YAML fails in a second rather
	// than after loading a large model.
	plan, tree, lp, err := planRun(ctx, c, cfg)
	if err != nil {
		return err
	}
	if cfg.Model == "llama" || cfg.Model == "gguf" {
		if err := checkEngineDevice(cfg.Device); err != nil {
			return err
		}
	}
	if cfg.OutputPath != "" {
		// The output location is checked before the model loads, so that
		// an unwritable path costs a second, not an evaluation.
		if err := output.NewLayout(cfg.OutputPath, results.ModelName(cfg.ModelArgs), time.Now()).Check(); err != nil {
			return fmt.Errorf("--output_path %s: %w", cfg.OutputPath, err)
		}
	}
	// The documents too, unless built requests come from the cache (then
	// only the tasks whose requests are not cached load theirs, later).
	if cfg.CacheRequests != config.CacheRequestsTrue {
		if err := plan.LoadData(ctx); err != nil {
			return err
		}
	}

	lm, closeLM, err := openModel(ctx, cfg)
	if err != nil {
		return err
	}
	defer closeLM()

	if cfg.Shard.IsSet() {
		err = runShard(ctx, c, cfg, layers, plan, lm)
	} else {
		err = evaluate(ctx, c, cfg, plan, lm, tree, lp)
	}
	if err != nil && ctx.Err() != nil && errors.Is(err, context.Canceled) {
		msg := "interrupted"
		if cfg.UseCache != "" {
			msg += fmt.Sprintf("; answers computed so far are in %s: rerun the same command to resume", cfg.UseCache)
		} else {
			msg += "; give --use_cache PATH so that a rerun resumes where it stopped"
		}
		var partial *partialSamplesError
		if errors.As(err, &partial) {
			msg += "; " + partial.where() + " (partial: a rerun writes complete files)"
		}
		return cli.Exit("lmeval: "+msg, 130)
	}
	return err
}

// planRun is the harness's plan stage for cfg: the registry (the built-in
// tasks, the include paths, lm-eval's task tree when needed), --language,
// and the plan, which resolves every --tasks entry. A merge plans as the
// shards did.
func planRun(ctx context.Context, c *cli.Context, cfg *config.Config) (*harness.Plan, *tasktree.Tree, *langPlan, error) {
	names := make([]string, len(cfg.Tasks))
	for i, t := range cfg.Tasks {
		names[i] = t.Name
	}
	ropts := harness.RegistryOptions{Builtin: benchmarks.FS(), Include: cfg.IncludePaths, Metadata: cfg.Metadata, TasksSource: cfg.TasksSource, Want: names}
	if progress.ForStderr(cfg.NoProgress).Enabled() {
		ropts.Tree.Progress = os.Stderr
	}
	var indexed func()
	ropts.OnIndex, indexed = indexProgress(progress.ForStderr(cfg.NoProgress))
	reg, tree, err := harness.NewRegistry(ctx, ropts)
	indexed()
	if err != nil {
		return nil, nil, nil, err
	}
	var lp *langPlan
	if len(cfg.Languages) > 0 {
		if lp, err = applyLanguages(c, cfg, reg); err != nil {
			return nil, nil, nil, err
		}
	}
	plan, err := harness.NewPlan(cfg, harness.WithRegistry(reg))
	if err != nil {
		return nil, nil, nil, err
	}
	return plan, tree, lp, nil
}

// openModel makes the configured backend, behind the response cache when
// --use_cache is given. The returned function releases both.
func openModel(ctx context.Context, cfg *config.Config) (model.LM, func(), error) {
	args := backendArgs(cfg)
	lm, err := model.New(ctx, cfg.Model, args)
	if err != nil {
		return nil, nil, fmt.Errorf("--model %s: %w", cfg.Model, err)
	}
	closeInner := func() {
		if cl, ok := model.As[model.Closer](lm); ok {
			if err := cl.Close(); err != nil {
				slog.Warn("closing model", "err", err)
			}
		}
	}
	if cfg.UseCache == "" {
		return lm, closeInner, nil
	}
	db, err := cache.Open(cfg.UseCache)
	if err != nil {
		closeInner()
		return nil, nil, fmt.Errorf("--use_cache: %w", err)
	}
	id, err := db.ModelIdentity(cfg.Model, args, identityExtras(lm))
	if err != nil {
		db.Close()
		closeInner()
		return nil, nil, fmt.Errorf("--use_cache: %w", err)
	}
	wrapped, err := db.Wrap(lm, id)
	if err != nil {
		db.Close()
		closeInner()
		return nil, nil, fmt.Errorf("--use_cache: %w", err)
	}
	return wrapped, func() {
		hits, misses := wrapped.Stats()
		slog.Info("response cache", "path", cfg.UseCache, "hits", hits, "computed", misses)
		closeInner()
		db.Close()
	}, nil
}

// backendArgs are the model_args plus the batch sizes, which lm-eval also
// hands to the model's constructor; model_args that set them win. The chat
// model_args (chat_template_args, enable_thinking, think_end_token) are the
// harness's, for every backend, and stay out.
func backendArgs(cfg *config.Config) model.Args {
	args := model.Args{}
	for k, v := range cfg.ModelArgs {
		args[k] = v
	}
	for _, k := range harness.ChatArgNames {
		delete(args, k)
	}
	if _, ok := args["batch_size"]; !ok {
		args["batch_size"] = cfg.BatchSize.String()
	}
	if _, ok := args["max_batch_size"]; !ok && cfg.MaxBatchSize > 0 {
		args["max_batch_size"] = strconv.Itoa(cfg.MaxBatchSize)
	}
	return args
}

// identityExtras adds to the cache identity the engine's version and what
// the backend says changes answers without showing in model_args
// (model.Description's CacheIdentity).
func identityExtras(lm model.LM) map[string]string {
	extra := map[string]string{"lmeval": Version}
	if commit, _ := engineInfo(); commit != "" {
		extra["llama.cpp"] = commit
	}
	if d, ok := model.As[model.Describer](lm); ok {
		for k, v := range d.Describe().CacheIdentity() {
			extra[k] = v
		}
	}
	return extra
}
