package squadv2

import "lmeval/harness/task"

func init() { task.RegisterClass(Class) }
