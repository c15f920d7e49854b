package pysource

import "github.com/lmeval/lmeval/harness/task"

// Register registers each helper as a function of file (relative to
// lm_eval/tasks/) with the sha256 that srcs record for it, so that a
// port's Sources list is the one place its provenance is written. It
// panics, as SHA256Of does, when srcs lack one of them.
func Register(srcs []Source, file string, hs []task.Helper) {
	for _, h := range hs {
		h.File = file
		h.SHA256 = SHA256Of(srcs, file, h.Function)
		task.RegisterHelper(h)
	}
}
