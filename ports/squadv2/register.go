package squadv2

import "github.com/lmeval/lmeval/harness/task"

func init() { task.RegisterClass(Class) }
