// Package swde ports lm-eval's swde/task.py: the SWDE class (information
// extraction from web pages, HazyResearch's Based), as a native class
// task.
package swde

import (
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/based"
)

func init() {
	task.RegisterClass(based.Class("swde/task.py", "SWDE",
		"ca7ce943669171a02f3dd57b2b3f8380a50880052bb76047a704435695faa4d2",
		"hazyresearch/based-swde-v2", based.FixedGenKwargs, based.FixedGenKwargsOrder))
}
