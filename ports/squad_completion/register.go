// Package squad_completion ports lm-eval's squad_completion/task.py: the
// SQUADCompletion class (SQuAD as text completion, HazyResearch's Based),
// as a native class task.
package squad_completion

import (
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/based"
)

func init() {
	task.RegisterClass(based.Class("squad_completion/task.py", "SQUADCompletion",
		"f367a2eb946dbb802c1a84168ccd82ba4d34a5a41510931bd42374d27ea8b139",
		"hazyresearch/based-squad", based.ConfigGenKwargs, nil))
}
