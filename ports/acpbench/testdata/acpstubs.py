"""Stand-ins for the planning packages acpbench's acp_utils.py imports
(tarski, kstar_planner, pddl): the evaluators lmeval ports (applicable
actions, landmarks, progression, validation) never call them. lark is
Debian's python3-lark (apt-get install python3-lark)."""
import sys
import types

_NAMES = ["tarski", "kstar_planner", "pddl", "pddl.core", "pddl.parser", "pddl.parser.domain", "pddl.parser.problem",
          "tarski.grounding", "tarski.grounding.common", "tarski.grounding.lp_grounding", "tarski.io", "tarski.syntax",
          "tarski.syntax.formulas", "tarski.syntax.transform", "tarski.syntax.transform.action_grounding", "tarski.util"]
_ATTRS = {"kstar_planner": ["planners"], "pddl.core": ["Problem"], "pddl.parser.domain": ["DomainParser"],
          "pddl.parser.problem": ["ProblemParser"], "tarski.grounding.common": ["StateVariableLite"],
          "tarski.grounding.lp_grounding": ["LPGroundingStrategy"], "tarski.io": ["PDDLReader", "fstrips"],
          "tarski.syntax.formulas": ["is_atom"], "tarski.syntax.transform.action_grounding": ["ground_schema_into_plain_operator_from_grounding"],
          "tarski.util": ["SymbolIndex"]}


def _unavailable(*args, **kwargs):
    raise RuntimeError("planner stand-in: not available here")


for _n in _NAMES:
    _m = sys.modules.setdefault(_n, types.ModuleType(_n))
    for _a in _ATTRS.get(_n, []):
        setattr(_m, _a, _unavailable)
