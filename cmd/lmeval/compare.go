package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/lmeval/lmeval/compare"
	"github.com/lmeval/lmeval/stats"
)

func compareCommand() *cli.Command {
	return &cli.Command{
		Name:      "compare",
		Usage:     "is run B really better than run A? paired statistics over the same documents",
		ArgsUsage: "A B [C ...]",
		Description: "lmeval compare out/model-a out/model-b --output_path cmp/\n" +
			"Each argument is a run written with --log_samples (a results_*.json, its directory, or the\n" +
			"--output_path directory above it) or a sweep's --output_path (its models' runs, base first).\n" +
			"Every later run is compared with the first on the documents both scored, which must be the\n" +
			"same documents with the same prompts. See docs/compare.md.",
		Flags: []cli.Flag{
			&cli.Float64Flag{Name: "alpha", Value: 0.05, Usage: "significance level; intervals are at 1-alpha"},
			&cli.IntFlag{Name: "bootstrap_iters", Value: stats.DefaultIters, Usage: "paired bootstrap replicates (0: none, t intervals)"},
			&cli.Uint64Flag{Name: "seed", Value: 1234, Usage: "bootstrap seed"},
			&cli.StringFlag{Name: "cluster", Usage: "document field to cluster standard errors by (default: per task family, e.g. boolq's passage; groups by task)"},
			&cli.Float64Flag{Name: "power", Value: 0.8, Usage: "power for the minimum detectable effect"},
			&cli.StringFlag{Name: "tasks", Usage: "comma-separated tasks or groups to compare (default: all in common)"},
			&cli.StringFlag{Name: "metrics", Usage: "comma-separated metrics to compare, e.g. acc,exact_match (default: all)"},
			&cli.StringFlag{Name: "output_path", Aliases: []string{"o"}, Usage: "directory for compare.json and compare.html"},
		},
		Action: runCompare,
	}
}

func runCompare(c *cli.Context) error {
	if c.NArg() == 0 {
		return fmt.Errorf("compare: give at least two runs (results directories written with --log_samples) or a sweep's output directory")
	}
	iters := c.Int("bootstrap_iters")
	if iters < 0 {
		return fmt.Errorf("--bootstrap_iters %d: must be 0 or more", iters)
	}
	if iters == 0 {
		iters = -1
	}
	if a := c.Float64("alpha"); !(a > 0 && a < 1) {
		return fmt.Errorf("--alpha %v: must be between 0 and 1", a)
	}
	if p := c.Float64("power"); !(p > 0 && p < 1) {
		return fmt.Errorf("--power %v: must be between 0 and 1", p)
	}
	paths, err := compare.Expand(c.Args().Slice())
	if err != nil {
		return err
	}
	if len(paths) < 2 {
		return fmt.Errorf("compare: %s: one run; give at least two (results directories written with --log_samples) or a sweep's output directory", strings.Join(c.Args().Slice(), " "))
	}
	var runs []*compare.Run
	for _, p := range paths {
		r, err := compare.Load(p)
		if err != nil {
			return err
		}
		runs = append(runs, r)
	}
	rep, err := compare.Compare(runs, compare.Options{
		Alpha: c.Float64("alpha"), Power: c.Float64("power"), Iters: iters, Seed: c.Uint64("seed"),
		Cluster: c.String("cluster"), Tasks: splitList(c.String("tasks")), Metrics: splitList(c.String("metrics")),
	})
	if err != nil {
		return err
	}
	if err := compare.WriteTable(c.App.Writer, rep); err != nil {
		return err
	}
	if out := c.String("output_path"); out != "" {
		files, err := compare.WriteFiles(out, rep)
		if err != nil {
			return err
		}
		fmt.Fprintf(c.App.ErrWriter, "compare: wrote %s\n", strings.Join(files, ", "))
	}
	return nil
}
