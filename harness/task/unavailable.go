package task

// Unavailable is the Fn of a Helper that lmeval knowingly does not run:
// the Python helper needs what cannot exist offline or be ported (a hosted
// judge model, a metric that downloads model weights, a package that
// fetches its data at run time). Tasks naming it are unavailable, and
// Reason, a clause a user understands ("it scores with BLEURT, a model
// checkpoint"), follows the function's name in the task's "needs Python
// function ..." reason (and in UnavailableError.Missing).
//
// A helper that several tasks share, only some of which need what lmeval
// lacks, sets If (true for the task configurations that cannot run) and
// Port (the port serving the others).
type Unavailable struct {
	Reason string
	If     func(cfg map[string]any) bool
	Port   any
}
