// Command lmeval evaluates GGUF language models on lm-eval tasks.
//
// It reads the task YAML of EleutherAI's lm-evaluation-harness and runs it
// against llama.cpp linked in-process. See docs/cli.md for every command and
// flag.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/urfave/cli/v2"

	"github.com/lmeval/lmeval/harness/config"
	_ "github.com/lmeval/lmeval/ports/all" // native ports of lm-eval's Python task helpers
)

// Version is lmeval's version; release builds set it with
// -ldflags "-X main.Version=...".
var Version = "0.2.0-dev"

// engineInfo reports the linked engine's llama.cpp commit and system info.
// backends.go sets it when the native engine is compiled in.
var engineInfo = func() (commit, system string) { return "", "" }

// engineDevices describes, one line each, the devices the linked engine
// can run on (the CPU and every GPU its backends found). backends.go sets
// it when the native engine is compiled in.
var engineDevices = func() []string { return nil }

// checkEngineDevice reports, before a model loads, a --device the linked
// engine cannot run on (a backend it was built without, a device it does
// not see). backends.go sets it when the native engine is compiled in.
var checkEngineDevice = func(config.Device) error { return nil }

// engineBackends describes, one line each, the ggml backends compiled into
// (or loaded by) the linked engine and how many devices each found.
// backends.go sets it when the native engine is compiled in.
var engineBackends = func() []string { return nil }

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	// After the first Ctrl-C the run winds down (flushing the cache and
	// samples); a second one kills the process the usual way.
	go func() { <-ctx.Done(); stop() }()

	if lvl, _, err := config.EnvLogLevel(); err == nil {
		setupLogging(lvl)
	}
	err := newApp().RunContext(ctx, prepareArgs(os.Args))
	stop()
	if err == nil {
		return
	}
	var exit cli.ExitCoder
	if errors.As(err, &exit) {
		if msg := exit.Error(); msg != "" {
			fmt.Fprintln(os.Stderr, msg)
		}
		os.Exit(exit.ExitCode())
	}
	fmt.Fprintln(os.Stderr, "lmeval:", err)
	os.Exit(1)
}

func newApp() *cli.App {
	return &cli.App{
		Name:  "lmeval",
		Usage: "evaluate GGUF language models on lm-eval tasks",
		Description: "lmeval runs the task YAML of EleutherAI's lm-evaluation-harness against llama.cpp linked in-process.\n" +
			"The command-less form 'lmeval --model ... --tasks ...' means 'lmeval run', as in lm-eval.",
		// lm-eval's comma-separated values are split by harness/config,
		// which knows about quoting; urfave/cli must not split them first.
		DisableSliceFlagSeparator: true,
		// Errors are printed once, by main.
		ExitErrHandler: func(*cli.Context, error) {},
		Commands: []*cli.Command{
			runCommand(),
			mergeCommand(),
			lsCommand(),
			validateCommand(),
			writeOutCommand(),
			inspectCommand(),
			cacheCommand(),
			sweepCommand(),
			compareCommand(),
			serveCommand(),
			packCommand(),
			unpackCommand(),
			versionCommand(),
		},
	}
}

func versionCommand() *cli.Command {
	return &cli.Command{
		Name:  "version",
		Usage: "print lmeval's version and the llama.cpp commit it links",
		Action: func(c *cli.Context) error {
			commit, system := engineInfo()
			if commit == "" {
				commit = "not linked (built without the native engine)"
			}
			w := c.App.Writer
			fmt.Fprintf(w, "lmeval %s\n", Version)
			fmt.Fprintf(w, "llama.cpp %s\n", commit)
			if system != "" {
				fmt.Fprintf(w, "system %s\n", system)
			}
			for _, b := range engineBackends() {
				fmt.Fprintf(w, "backend %s\n", b)
			}
			for _, d := range engineDevices() {
				fmt.Fprintf(w, "device %s\n", d)
			}
			return nil
		},
	}
}
