package main

import (
	"fmt"
	"log/slog"
	"strings"
	"text/tabwriter"

	"github.com/urfave/cli/v2"

	"lmeval/harness/task"
	"lmeval/tasks"
)

// newRegistry indexes the built-in tasks, then each include path (later
// trees take precedence, as in lm-eval).
func newRegistry(include []string) (*task.Registry, error) {
	r := task.NewRegistry()
	if err := r.AddFS("", tasks.FS()); err != nil {
		return nil, fmt.Errorf("built-in tasks: %w", err)
	}
	for _, dir := range include {
		if err := r.AddDir(dir); err != nil {
			return nil, fmt.Errorf("--include_path %s: %w", dir, err)
		}
	}
	for _, w := range r.Warnings() {
		slog.Debug("task index", "warning", w)
	}
	return r, nil
}

// lsTasks lists the registry's names: "tasks" lists everything with its
// kind, the others one kind each.
func lsTasks(c *cli.Context, what string, include []string) error {
	r, err := newRegistry(include)
	if err != nil {
		return err
	}
	var names []string
	switch what {
	case "tasks":
		names = r.All()
	case "groups":
		names = r.Groups()
	case "subtasks":
		names = r.Tasks()
	case "tags":
		names = r.Tags()
	}
	tw := tabwriter.NewWriter(c.App.Writer, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tKIND\tDEFINED IN")
	for _, n := range names {
		e, ok := r.Lookup(n)
		if !ok {
			continue
		}
		where := e.File
		if e.Kind == task.KindTag {
			where = fmt.Sprintf("%d tasks: %s", len(e.Tags), abbreviateList(e.Tags, 6))
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", n, e.Kind, where)
	}
	return tw.Flush()
}

func abbreviateList(s []string, n int) string {
	if len(s) <= n {
		return strings.Join(s, ", ")
	}
	return strings.Join(s[:n], ", ") + ", ..."
}
