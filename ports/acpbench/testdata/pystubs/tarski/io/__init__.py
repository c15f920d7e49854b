

def _unavailable(*args, **kwargs):
    raise RuntimeError("planner stand-in: not available here")


PDDLReader = _unavailable
fstrips = _unavailable
