package harness

import (
	"context"

	"lmeval/harness/task"
)

// buildTask builds one task's documents and requests.
func (ev *evaluation) buildTask(ctx context.Context, tr *taskRun, bo task.BuildOptions) error {
	return tr.t.Build(ctx, bo)
}
