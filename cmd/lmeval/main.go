// Command lmeval evaluates GGUF language models on lm-eval tasks.
//
// It reads the task YAML of EleutherAI's lm-evaluation-harness and runs it
// against llama.cpp linked in-process. See docs/cli.md for every command and
// flag.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/urfave/cli/v2"
)

// Version is lmeval's version; release builds set it with
// -ldflags "-X main.Version=...".
var Version = "0.1.0-dev"

// engineInfo reports the linked engine's llama.cpp commit and system info.
// backends.go sets it when the native engine is compiled in.
var engineInfo = func() (commit, system string) { return "not linked", "" }

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := newApp().RunContext(ctx, os.Args); err != nil {
		fmt.Fprintln(os.Stderr, "lmeval:", err)
		os.Exit(1)
	}
}

func newApp() *cli.App {
	return &cli.App{
		Name:  "lmeval",
		Usage: "evaluate GGUF language models on lm-eval tasks",
		Commands: []*cli.Command{
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
			w := c.App.Writer
			fmt.Fprintf(w, "lmeval %s\n", Version)
			fmt.Fprintf(w, "llama.cpp %s\n", commit)
			if system != "" {
				fmt.Fprintf(w, "system %s\n", system)
			}
			return nil
		},
	}
}
