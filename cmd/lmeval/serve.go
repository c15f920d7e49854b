package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net"
	"net/http"
	"os"
	"strconv"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/lmeval/lmeval/backend/llama"
	"github.com/lmeval/lmeval/engine"
	"github.com/lmeval/lmeval/gguf"
	"github.com/lmeval/lmeval/harness/config"
	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/serve"
)

func serveCommand() *cli.Command {
	return &cli.Command{
		Name:      "serve",
		Usage:     "serve a GGUF model over an OpenAI-compatible HTTP API (prompt log-probs included)",
		UsageText: "lmeval serve --model_args pretrained=MODEL.gguf[,...] [--host 127.0.0.1] [--port 8000] [--api_key KEY]",
		Flags: []cli.Flag{
			&cli.StringSliceFlag{Name: "model_args", Aliases: []string{"a"}, Usage: "model arguments, as for run (pretrained=MODEL.gguf,n_ctx=4096,...)"},
			&cli.StringFlag{Name: "host", Value: "127.0.0.1", Usage: "address to listen on (other than loopback only with care: give --api_key)"},
			&cli.IntFlag{Name: "port", Value: 8000, Usage: "port to listen on (0: any free port, printed at start)"},
			&cli.StringFlag{Name: "api_key", EnvVars: []string{"LMEVAL_API_KEY"}, Usage: "require 'Authorization: Bearer KEY' on every request"},
			&cli.StringFlag{Name: "device", Usage: "cpu, gpu, gpu:N, cuda, cuda:N, vulkan, vulkan:N, mps, metal (sets n_gpu_layers and main_gpu, as for run)"},
			&cli.StringFlag{Name: "model_name", Usage: "model id reported by /v1/models (default: the GGUF's file name)"},
			&cli.IntFlag{Name: "max_body_bytes", Value: 16 << 20, Usage: "largest request body accepted"},
			&cli.IntFlag{Name: "max_prompts", Value: 1024, Usage: "most prompts in one completions request"},
			&cli.DurationFlag{Name: "batch_window", Value: 2 * time.Millisecond, Usage: "how long to gather concurrent requests into one batch"},
			&cli.StringFlag{Name: "verbosity", Aliases: []string{"v"}, Usage: "log level: DEBUG, INFO, WARNING, ERROR"},
		},
		Action: serveAction,
	}
}

func serveAction(c *cli.Context) error {
	if c.Args().Len() > 0 {
		return fmt.Errorf("unexpected arguments %q", c.Args().Slice())
	}
	if v := c.String("verbosity"); v != "" {
		lvl, err := config.ParseLogLevel(v)
		if err != nil {
			return fmt.Errorf("--verbosity: %w", err)
		}
		setupLogging(lvl)
	}
	args := model.Args{}
	for _, s := range c.StringSlice("model_args") {
		m, err := config.ParseModelArgs(s)
		if err != nil {
			return fmt.Errorf("--model_args: %w", err)
		}
		maps.Copy(args, m)
	}
	if v := c.String("device"); v != "" {
		d, err := config.ParseDevice(v)
		if err != nil {
			return fmt.Errorf("--device: %w", err)
		}
		if err := checkEngineDevice(d); err != nil {
			return err
		}
		for k, v := range d.ModelArgs() {
			if _, ok := args[k]; !ok {
				args[k] = v
			}
		}
	}
	if args["pretrained"] == "" && args["model"] == "" {
		return errors.New("--model_args pretrained=MODEL.gguf is required")
	}
	// As run's --batch_size default: the KV cache sized to free memory,
	// and with it the same max_length as `run` on the same model_args.
	if _, ok := args["batch_size"]; !ok {
		args["batch_size"] = "auto"
	}
	path, eo, err := llama.Options(args)
	if err != nil {
		return err
	}
	// A local model file that is no GGUF fails now, before the port is
	// taken (a Hub reference is checked when it is resolved).
	if _, err := os.Stat(path); err == nil {
		if _, err := gguf.Open(path); err != nil {
			return fmt.Errorf("--model_args pretrained=%s: %w", path, err)
		}
	}
	host := c.String("host")
	if ip := net.ParseIP(host); (ip == nil || !ip.IsLoopback()) && host != "localhost" && c.String("api_key") == "" {
		slog.Warn("listening beyond loopback without --api_key: anyone who can reach the port can use the model", "host", host)
	}
	srv := serve.New(serve.Options{
		APIKey: c.String("api_key"), ModelName: c.String("model_name"),
		MaxBodyBytes: int64(c.Int("max_body_bytes")), MaxPrompts: c.Int("max_prompts"), Window: c.Duration("batch_window"),
	})
	defer srv.Close()
	// The port is taken first (a busy one fails before a long load) and
	// answers 503 while the model loads.
	ln, err := net.Listen("tcp", net.JoinHostPort(host, strconv.Itoa(c.Int("port"))))
	if err != nil {
		return fmt.Errorf("--host/--port: %w", err)
	}
	hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 30 * time.Second, ReadTimeout: 5 * time.Minute, IdleTimeout: 5 * time.Minute}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	slog.Info("loading the model; the port answers 503 until it is served", "model", path, "addr", ln.Addr().String())

	ctx := c.Context
	lm, err := model.New(ctx, "llama", args)
	if err != nil {
		hs.Close()
		return fmt.Errorf("--model_args: %w", err)
	}
	l := lm.(*llama.LM)
	defer l.Close()
	path = l.Model().Settings().Path
	sum, err := l.SHA256()
	if err != nil {
		hs.Close()
		return err
	}
	// The tokenizer endpoints get their own vocabulary-only copy, so they
	// never wait for a decode.
	vocab, err := engine.Load(path, engine.Options{VocabOnly: true, AddBOS: eo.AddBOS, PrefixToken: eo.PrefixToken})
	if err != nil {
		hs.Close()
		return err
	}
	defer vocab.Close()
	m := serve.Model{Engine: l.Model(), SHA256: sum, Tokenizer: vocab}
	if t, err := l.ChatTemplate(""); err == nil {
		m.ChatTemplate = t
	} else if !errors.Is(err, model.ErrNoChatTemplate) {
		slog.Warn("no chat template: chat completions are refused", "err", err)
	}
	if err := srv.SetModel(m); err != nil {
		hs.Close()
		return err
	}
	// The address goes to stdout once requests are served, so scripts
	// (and --port 0 users) can wait for the line and then send requests.
	fmt.Fprintf(c.App.Writer, "lmeval serve: listening on http://%s\n", ln.Addr())
	slog.Info("model loaded; serving", "model", path, "sha256", sum, "addr", ln.Addr().String())
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	srv.Close()
	if err := hs.Shutdown(shutdown); err != nil {
		hs.Close()
	}
	fmt.Fprintln(os.Stderr, "lmeval serve: stopped")
	return nil
}
