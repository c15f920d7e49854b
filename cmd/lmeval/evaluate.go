package main

import (
	"context"
	"errors"

	"github.com/urfave/cli/v2"

	"lmeval/harness/config"
	"lmeval/harness/model"
)

// evaluate runs cfg's tasks on lm, prints the results table on stdout and
// writes the output files.
//
// Integration point for the evaluator (harness.Evaluate), which is not in
// the tree yet. When it lands, this function should:
//   - call harness.Evaluate(ctx, cfg, lm); ctx carries the progress
//     display (progress.FromContext) and is cancelled on Ctrl-C; lm is
//     already behind the response cache when --use_cache is set;
//   - lay out the files with output.NewLayout(cfg.OutputPath,
//     output.ModelName(cfg.ModelArgs), start) when cfg.OutputPath is set:
//     Layout.OpenSamples(task) for streamed samples (--log_samples) and
//     Layout.WriteResults for the results JSON;
//   - print the results table to c.App.Writer, and with cfg.ShowConfig the
//     full results JSON (output.Marshal).
func evaluate(ctx context.Context, c *cli.Context, cfg *config.Config, lm model.LM) error {
	return errors.New("evaluation is not available in this build: the evaluator (harness.Evaluate) is not linked in yet")
}
