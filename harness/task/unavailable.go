package task

// Unavailable is the Fn of a Helper that lmeval knowingly does not run:
// the Python helper needs what cannot exist offline or be ported (a hosted
// judge model, a metric that downloads model weights, a package that
// fetches its data at run time). Tasks naming it are unavailable, and
// Reason, a clause a user understands ("it scores with BLEURT, a model
// checkpoint"), follows the function's name in the task's "needs Python
// function ..." reason (and in UnavailableError.Missing).
type Unavailable struct{ Reason string }
