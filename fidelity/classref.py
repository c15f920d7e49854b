#!/usr/bin/env python3
"""run_ref.py for lm-eval's Python class tasks (`class: !function task.X`).

usage: classref.py RUN_REF.PY [run_ref.py's arguments]

lm-eval builds a class task from the class alone: its __init__ ignores the
task's YAML, so a fidelity wrapper's dataset_path/dataset_kwargs would
not be read and the class would ask the Hub for its dataset. Here every
datasets.load_dataset call made while a class task is built (the class's
own download, ConfigurableTask.download or _SCROLLSTask's zip) returns the
wrapper's local data_files instead, as lmeval's class ports read them.

The classes import packages this machine lacks (evaluate, transformers,
huggingface_hub): pystubs/ holds stand-ins, with the metrics the classes
load (evaluate's squad_v2, the SCROLLS metric script) implemented from
their upstream scripts' logic (see pystubs/evaluate/__init__.py). The
datasets stand-in gets the two Dataset methods _SCROLLSTask uses
(flatten_indices, add_column).
"""
import os
import runpy
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "pystubs"))

import lmevalref_compat  # noqa: E402,F401  (lm-eval-runner's typing shims)
import datasets  # noqa: E402  (lm-eval-runner's stand-in)
import datasets_ext  # noqa: E402,F401  (flatten_indices, add_column)
from lm_eval.tasks import _factory  # noqa: E402

_building = {}  # the config of the class task being built


_orig_full_config = _factory.TaskFactory._load_full_config


def _load_full_config(self, *args, **kwargs):
    cfg = _orig_full_config(self, *args, **kwargs)
    if isinstance(cfg, dict):
        _building["cfg"] = cfg if "class" in cfg else None
    return cfg


_factory.TaskFactory._load_full_config = _load_full_config

_orig_load = datasets.load_dataset


def _load_dataset(path=None, name=None, *args, **kwargs):
    cfg = _building.get("cfg")
    if cfg is not None:
        dk = cfg.get("dataset_kwargs") or {}
        return _orig_load(cfg.get("dataset_path") or "json", data_files=dk["data_files"])
    return _orig_load(path, name, *args, **kwargs)


datasets.load_dataset = _load_dataset

runner = sys.argv[1]
sys.argv = [runner] + sys.argv[2:]
runpy.run_path(runner, run_name="__main__")
