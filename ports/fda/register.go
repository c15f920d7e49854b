// Package fda ports lm-eval's fda/task.py: the FDA class (information
// extraction from FDA documents, HazyResearch's Based), as a native class
// task.
package fda

import (
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/internal/based"
)

func init() {
	task.RegisterClass(based.Class("fda/task.py", "FDA",
		"3ba35dba551e0c5b70e359994c8d2a75a85721a70b0c45c70b8b5403191addce",
		"hazyresearch/based-fda", based.FixedGenKwargs, based.FixedGenKwargsOrder))
}
