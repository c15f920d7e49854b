"""Stand-in for a planning package acpbench's acp_utils.py imports (see ../README.md)."""


def _unavailable(*args, **kwargs):
    raise RuntimeError("planner stand-in: not available here")


planners = _unavailable
