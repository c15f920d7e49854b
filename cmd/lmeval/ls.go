package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/lmeval/lmeval/harness/config"
	"github.com/lmeval/lmeval/internal/table"
)

// lsPresets lists the built-in presets and those in the include paths.
func lsPresets(c *cli.Context, includePaths []string) error {
	ps, err := config.Presets(includePaths)
	if err != nil {
		return err
	}
	tb := table.Table{Columns: []table.Column{
		{Header: "PRESET", Cut: table.Wrap}, {Header: "TASKS", Cut: table.End}, {Header: "SETTINGS", Cut: table.End}, {Header: "DESCRIPTION", Cut: table.End},
	}}
	for _, p := range ps {
		cfg, err := config.Resolve(p.Layer())
		if err != nil {
			return err
		}
		var tasks []string
		for _, t := range cfg.Tasks {
			tasks = append(tasks, t.String())
		}
		var settings []string
		for _, k := range config.Keys {
			if v, ok := p.Values[k]; ok && k != "tasks" {
				settings = append(settings, fmt.Sprintf("%s=%v", k, v))
			}
		}
		desc := p.Description
		if p.Source != "built-in" {
			desc += " [" + p.Source + "]"
		}
		tb.Add(p.Name, strings.Join(tasks, " "), strings.Join(settings, " "), desc)
	}
	return tb.Write(c.App.Writer, tableWidth(c))
}

func lsCommand() *cli.Command {
	return &cli.Command{
		Name:      "ls",
		Usage:     "list tasks, groups, subtasks, tags, presets or languages",
		ArgsUsage: "[tasks|groups|subtasks|tags|presets|languages]",
		Flags: []cli.Flag{
			&cli.StringSliceFlag{Name: "include_path", Usage: "extra directory of task YAML (and presets); repeatable"},
			tasksSourceFlag(),
			&cli.BoolFlag{Name: "no_progress", Usage: "no download progress bars"},
			&cli.BoolFlag{Name: "available", Usage: "list only the tasks and groups lmeval can run (RUNS yes)"},
			&cli.StringSliceFlag{Name: "tasks", Aliases: []string{"t"}, Usage: "with languages: the suites (groups, tags, tasks) to split by --language"},
			&cli.StringFlag{Name: "preset", Usage: "with languages: a preset's suites and languages (as run --preset P [--language L] runs them)"},
			&cli.StringSliceFlag{Name: "language", Usage: "list only the names in these languages (ISO 639 codes or English names: hin, hi, hindi, hin_Latn; none: those with no language), with a LANGUAGES column"},
			&cli.BoolFlag{Name: "wide", Usage: "print every cell whole (on a terminal the table is fitted to its width; piped, it is whole)"},
		},
		Action: func(c *cli.Context) error {
			what := "tasks"
			if c.NArg() > 1 {
				return fmt.Errorf("ls takes one of tasks, groups, subtasks, tags, presets, languages")
			}
			if c.NArg() == 1 {
				what = c.Args().First()
			}
			include := c.StringSlice("include_path")
			switch what {
			case "presets":
				return lsPresets(c, include)
			case "languages":
				return lsLanguages(c)
			case "tasks", "groups", "subtasks", "tags":
				return lsTasks(c, what, c.Bool("available"))
			}
			return fmt.Errorf("ls %q: want tasks, groups, subtasks, tags, presets or languages", what)
		},
	}
}
