package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/lmeval/lmeval/backend/llama"
	"github.com/lmeval/lmeval/benchmarks"
	"github.com/lmeval/lmeval/engine"
	"github.com/lmeval/lmeval/harness"
	"github.com/lmeval/lmeval/harness/cache"
	"github.com/lmeval/lmeval/harness/config"
	"github.com/lmeval/lmeval/harness/progress"
	"github.com/lmeval/lmeval/sweep"
)

func sweepCommand() *cli.Command {
	return &cli.Command{
		Name:  "sweep",
		Usage: "compare quantizations of a model: perplexity, KL divergence against the base, task accuracy",
		Description: "lmeval sweep --base model-f16.gguf --quants Q8_0,Q4_K_M --text wiki.test.raw\n" +
			"lmeval sweep --models base.gguf,q8.gguf,q4.gguf --ppl_task wikitext --limit 20 --tasks arc_easy\n" +
			"The first of --models is the base unless --base is given. Results are cached (--use_cache): a repeated\n" +
			"or interrupted sweep resumes without recomputing. See docs/sweep.md.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "base", Usage: "the reference model (GGUF) every other model is compared with"},
			&cli.StringFlag{Name: "models", Usage: "comma-separated GGUF files to compare"},
			&cli.StringFlag{Name: "quants", Usage: "comma-separated quantizations to make from --base (Q8_0,Q6_K,Q5_K_M,Q4_K_M,Q4_0,IQ4_XS,...)"},
			&cli.StringFlag{Name: "imatrix", Usage: "importance matrix for the quantizer (llama-imatrix GGUF or legacy .dat)"},
			&cli.StringFlag{Name: "quant_dir", Usage: "where quantized files are written and reused (default: the cache directory's quants/)"},
			&cli.StringFlag{Name: "ppl_task", Value: "wikitext", Usage: "rolling-perplexity task whose documents are measured"},
			&cli.StringFlag{Name: "text", Usage: "measure perplexity on this text file instead of --ppl_task (one document)"},
			&cli.StringFlag{Name: "limit", Usage: "documents of --ppl_task to use (a count, or a fraction below 1)"},
			&cli.IntFlag{Name: "chunk_size", Value: 512, Usage: "llama.cpp perplexity context: chunks of this many tokens, second half scored"},
			&cli.IntFlag{Name: "max_length", Usage: "lm-eval rolling window length (default: --chunk_size)"},
			&cli.IntFlag{Name: "top_k", Value: 32, Usage: "base tokens stored per position for the KL divergence"},
			&cli.StringFlag{Name: "tasks", Usage: "also evaluate these tasks on every model (accuracy, Δ and paired p-value against the base)"},
			&cli.StringFlag{Name: "num_fewshot", Usage: "few-shot examples for --tasks"},
			&cli.StringFlag{Name: "task_limit", Usage: "documents per task for --tasks"},
			&cli.StringFlag{Name: "include_path", Usage: "additional directory of task YAML"},
			&cli.StringFlag{Name: "output_path", Usage: "directory for sweep.json, sweep.csv and sweep.svg"},
			&cli.BoolFlag{Name: "log_samples", Usage: "with --tasks and --output_path: also write each model's run (results and samples) under --output_path/<model>, for lmeval compare"},
			&cli.StringFlag{Name: "use_cache", Usage: "SQLite cache for the sweep's results (default: " + cache.DefaultPath("sweep.sqlite") + ")"},
			&cli.StringSliceFlag{Name: "model_args", Aliases: []string{"a"}, Usage: "engine settings as for run ('k=v,k2=v2', repeated k=v, or a JSON object: threads, n_gpu_layers, type_k, n_ctx, ...); the flags below override them"},
			&cli.IntFlag{Name: "threads", Usage: "CPU threads (default: all)"},
			&cli.IntFlag{Name: "n_gpu_layers", Usage: "layers to offload to a GPU (default: all when a GPU backend is built)"},
			&cli.IntFlag{Name: "batch_size", Usage: "tokens per llama_decode (n_batch; default 512)"},
			&cli.StringFlag{Name: "type_k", Usage: "KV cache type for keys (f16 default; f32 for exact attention)"},
			&cli.StringFlag{Name: "type_v", Usage: "KV cache type for values"},
			&cli.StringFlag{Name: "flash_attn", Usage: "auto, on or off"},
			&cli.BoolFlag{Name: "no_progress", Usage: "no progress bar"},
		},
		Action: runSweep,
	}
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// sweepRejected are the model_args a sweep cannot take: it names its models
// with --base and --models and lays out its own batches.
var sweepRejected = map[string]string{
	"pretrained":     "give the models with --base and --models",
	"model":          "give the models with --base and --models",
	"batch_size":     "the sweep lays out its own batches (use n_batch, or the sweep's --batch_size, tokens per decode)",
	"max_batch_size": "the sweep lays out its own batches",
	"memory_budget":  "the sweep lays out its own batches",
}

// sweepEngineOptions reads --model_args as run does (config.ParseModelArgs,
// then the llama backend's parser, so keys and meanings are run's), and
// lays the sweep's own engine flags over them where given. n_ctx is
// returned apart: the sweep sizes the context itself unless it is given.
func sweepEngineOptions(c *cli.Context) (engine.Options, int, error) {
	args := map[string]string{}
	for _, v := range c.StringSlice("model_args") {
		m, err := config.ParseModelArgs(v)
		if err != nil {
			return engine.Options{}, 0, fmt.Errorf("--model_args %s: %w", v, err)
		}
		for k, x := range m {
			if why, bad := sweepRejected[k]; bad {
				return engine.Options{}, 0, fmt.Errorf("--model_args %s: not for a sweep: %s", k, why)
			}
			args[k] = x
		}
	}
	o, err := llama.EngineOptions(args)
	if err != nil {
		return o, 0, fmt.Errorf("--model_args: %w", err)
	}
	nCtx := o.NCtx
	o.NCtx = 0
	if c.IsSet("threads") {
		o.Threads = c.Int("threads")
	}
	if c.IsSet("n_gpu_layers") {
		o.NGPULayers = c.Int("n_gpu_layers")
		o.CPUOnly = o.NGPULayers == 0
	}
	if c.IsSet("batch_size") {
		o.NBatch = c.Int("batch_size")
	}
	for name, dst := range map[string]*string{"type_k": &o.TypeK, "type_v": &o.TypeV, "flash_attn": &o.FlashAttn} {
		if c.IsSet(name) {
			*dst = c.String(name)
		}
	}
	return o, nCtx, nil
}

func runSweep(c *cli.Context) error {
	ctx := c.Context
	cachePath := c.String("use_cache")
	if cachePath == "" {
		cachePath = cache.DefaultPath("sweep.sqlite")
	}
	db, err := cache.Open(cachePath)
	if err != nil {
		return fmt.Errorf("--use_cache: %w", err)
	}
	defer db.Close()
	quantDir := c.String("quant_dir")
	if quantDir == "" {
		quantDir = cache.DefaultPath("quants")
	}
	cfg := sweep.Config{
		Base: c.String("base"), Models: splitList(c.String("models")), Quants: splitList(c.String("quants")),
		Imatrix: c.String("imatrix"), QuantDir: quantDir,
		ChunkSize: c.Int("chunk_size"), MaxLength: c.Int("max_length"), TopK: c.Int("top_k"),
		Store:    db,
		Progress: progress.ForStderr(c.Bool("no_progress")),
		Log:      c.App.ErrWriter,
	}
	if cfg.Base == "" && len(cfg.Models) == 0 {
		return fmt.Errorf("sweep: give --base and/or --models")
	}
	if cfg.Engine, cfg.NCtx, err = sweepEngineOptions(c); err != nil {
		return err
	}
	if cfg.Engine.MaxLength > 0 {
		if c.IsSet("max_length") && c.Int("max_length") != cfg.Engine.MaxLength {
			return fmt.Errorf("sweep: --max_length %d and --model_args max_length=%d disagree", c.Int("max_length"), cfg.Engine.MaxLength)
		}
		cfg.MaxLength = cfg.Engine.MaxLength
	}
	harnessValues := func(tasks any, limit string) map[string]any {
		v := map[string]any{"model": "llama", "tasks": tasks}
		if limit != "" {
			v["limit"] = limit
		}
		if p := c.String("include_path"); p != "" {
			v["include_path"] = p
		}
		return v
	}
	if path := c.String("text"); path != "" {
		data, err := os.ReadFile(path)
		if err != nil {
			return fmt.Errorf("--text: %w", err)
		}
		cfg.Docs = []string{string(data)}
	} else {
		hc, err := config.Resolve(config.Layer{Source: "command line", Flags: true, Values: harnessValues([]string{c.String("ppl_task")}, c.String("limit"))})
		if err != nil {
			return fmt.Errorf("--ppl_task: %w", err)
		}
		task, err := sweep.LoadPPLTask(ctx, hc, harness.WithBuiltinTasks(benchmarks.FS()))
		if err != nil {
			return fmt.Errorf("--ppl_task %s: %w", c.String("ppl_task"), err)
		}
		cfg.Docs, cfg.RollingMetrics = task.Docs, task.Metrics
	}
	if c.Bool("log_samples") {
		if c.String("tasks") == "" || c.String("output_path") == "" {
			return fmt.Errorf("sweep: --log_samples needs --tasks and --output_path")
		}
		cfg.LogSamples = true
	}
	if t := c.String("tasks"); t != "" {
		v := harnessValues(splitList(t), c.String("task_limit"))
		if n := c.String("num_fewshot"); n != "" {
			v["num_fewshot"] = n
		}
		hc, err := config.Resolve(config.Layer{Source: "command line", Flags: true, Values: v})
		if err != nil {
			return fmt.Errorf("--tasks: %w", err)
		}
		cfg.Tasks = &sweep.HarnessTasks{Config: hc, Options: []harness.Option{harness.WithBuiltinTasks(benchmarks.FS())}}
	}
	rep, err := sweep.Run(ctx, cfg)
	if err != nil {
		return err
	}
	if err := sweep.WriteTable(c.App.Writer, rep); err != nil {
		return err
	}
	if out := c.String("output_path"); out != "" {
		paths, err := sweep.WriteFiles(out, rep)
		if err != nil {
			return err
		}
		fmt.Fprintf(c.App.ErrWriter, "sweep: wrote %s\n", strings.Join(paths, ", "))
	}
	return nil
}
