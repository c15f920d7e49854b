

def _unavailable(*args, **kwargs):
    raise RuntimeError("planner stand-in: not available here")


ground_schema_into_plain_operator_from_grounding = _unavailable
