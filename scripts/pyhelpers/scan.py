#!/usr/bin/env python3
"""Scan lm-eval's task tree for the Python helpers its YAML names.

usage: scan.py TASKS_DIR GO_OUT DOCS_OUT [PORTS_JSON]

A helper whose source (or that of a name it uses) reads __file__ is its
file's own group. A name the module defines only at run time (`globals().update(...)`) has
the whole module's source as its identity.

For every `!function module.fn` in a task YAML file the helper is located
at <dir of the YAML>/<module>.py, function fn (paths relative to TASKS_DIR,
i.e. lm_eval/tasks/). Each helper's identity is the sha256 of its source,
ast.get_source_segment(src, node) for the top-level FunctionDef, ClassDef
or assignment (`fn = partial(...)`) that defines it, UTF-8. A name imported
from lm_eval (`from lm_eval.utils import weighted_f1_score`) is the source
of that definition in lm_eval's package.

Two helpers are the same port (one group) when their source and the
sources of every module-level name they use, transitively, are identical:
the group key is the sha256 of those segments joined in a fixed order.

GO_OUT gets the Go table (file:function -> sha256, group, dependencies);
DOCS_OUT the markdown table of groups, with the native port (from
PORTS_JSON, `lmeval helpers --json` output: [{"file","function"}]) and
the tasks each covers.
"""
import ast
import hashlib
import json
import os
import re
import sys

TAG = re.compile(r"!function\s+['\"]?([A-Za-z0-9_.]+)")  # include/ quotes it: !function 'utils.fn'
TASK = re.compile(r"^task:\s*['\"]?([^'\"\s#]+)", re.M)
# The YAML key a `!function` tag is the value of ("process_docs", "metric",
# "function" in a filter step, ...): what lm-eval uses the helper for.
KEY = re.compile(r"""['"]?([A-Za-z_][A-Za-z0-9_]*)['"]?\s*:\s*$""")


def sha(s):
    return hashlib.sha256(s.encode("utf-8")).hexdigest()


class Module:
    def __init__(self, path, pkgroot):
        self.path = path
        self.src = open(path, encoding="utf-8").read()
        self.tree = ast.parse(self.src)
        self.defs = {}  # name -> (segment, node)
        self.imports = {}  # name -> (module, name)
        for node in self.tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                self.defs[node.name] = (ast.get_source_segment(self.src, node), node)
            elif isinstance(node, ast.Assign):
                for t in node.targets:
                    if isinstance(t, ast.Name):
                        self.defs[t.id] = (ast.get_source_segment(self.src, node), node)
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                self.defs[node.target.id] = (ast.get_source_segment(self.src, node), node)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for a in node.names:
                    self.imports[a.asname or a.name] = (node.module, a.name)


_modules = {}


def module(path, pkgroot):
    if path not in _modules:
        try:
            _modules[path] = Module(path, pkgroot)
        except (OSError, SyntaxError, UnicodeDecodeError):
            _modules[path] = None
    return _modules[path]


def lm_eval_module(pkgroot, modname):
    """The file of an lm_eval module (lm_eval.utils -> PKG/utils.py)."""
    parts = modname.split(".")
    if parts[0] != "lm_eval":
        return None
    base = os.path.join(os.path.dirname(os.path.dirname(pkgroot)), *parts)
    for p in (base + ".py", os.path.join(base, "__init__.py")):
        if os.path.exists(p):
            return p
    return None


def resolve(mod, name, pkgroot, seen=None):
    """(segment, module, node) of name in mod, following lm_eval imports."""
    seen = seen or set()
    if (mod.path, name) in seen:
        return None
    seen.add((mod.path, name))
    if name in mod.defs:
        seg, node = mod.defs[name]
        return seg, mod, node
    if name in mod.imports:
        m, n = mod.imports[name]
        p = lm_eval_module(pkgroot, m)
        if p:
            other = module(p, pkgroot)
            if other:
                return resolve(other, n, pkgroot, seen)
    return None


def closure(mod, name, pkgroot):
    """The segments of name and of every module-level name it uses."""
    out, todo, done = [], [(mod, name)], set()
    while todo:
        m, n = todo.pop(0)
        r = resolve(m, n, pkgroot)
        if r is None:
            continue
        seg, dm, node = r
        key = (dm.path, seg)
        if key in done:
            continue
        done.add(key)
        out.append((n, seg, dm.path))
        for sub in ast.walk(node):
            if isinstance(sub, ast.Name) and sub.id != n:
                if sub.id in dm.defs or sub.id in dm.imports:
                    todo.append((dm, sub.id))
    return out


def main():
    tasks, go_out, docs_out = sys.argv[1:4]
    ports = []
    if len(sys.argv) > 4:
        ports = json.load(open(sys.argv[4]))
    tasks = os.path.abspath(tasks)
    refs = {}  # (file, fn) -> set of task names
    uses = {}  # (file, fn) -> set of the YAML keys naming it
    for dirpath, dirnames, filenames in os.walk(tasks):
        dirnames.sort()
        for f in sorted(filenames):
            # Task YAML, whatever its name (lm-eval includes any file:
            # "_template_yaml", "sib", ...).
            if f.endswith((".py", ".md", ".json", ".jsonl", ".txt", ".csv", ".pyc")):
                continue
            p = os.path.join(dirpath, f)
            try:
                text = open(p, encoding="utf-8").read()
            except (OSError, UnicodeDecodeError):
                continue
            tags = list(TAG.finditer(text))
            if not tags:
                continue
            tm = TASK.search(text)
            tname = tm.group(1) if tm else os.path.relpath(p, tasks)
            for t in tags:
                n = t.group(1)
                modname, _, fn = n.rpartition(".")
                rel = os.path.relpath(os.path.join(dirpath, *modname.split(".")) + ".py", tasks)
                refs.setdefault((rel, fn), set()).add(tname)
                line = text[text.rfind("\n", 0, t.start()) + 1:t.start()]
                k = KEY.search(line)
                uses.setdefault((rel, fn), set()).add(k.group(1) if k else "")
    entries = {}
    files = {}
    for (rel, fn), tnames in sorted(refs.items()):
        path = os.path.join(tasks, rel)
        if not os.path.exists(path):
            continue
        m = module(path, tasks)
        if m is None:
            continue
        cl = closure(m, fn, tasks)
        if (not cl or cl[0][0] != fn) and "globals()" in m.src:
            # A name the module makes at run time (globals().update(...),
            # globals()[f"process_{s}"] = partial(...)): its source is the
            # whole module, so only identical files share a port.
            files[rel] = sha(m.src)
            entries[f"{rel}:{fn}"] = (sha(m.src), sha(m.src + "\x00" + fn), [], sorted(tnames), sorted(uses[(rel, fn)]))
            continue
        if not cl or cl[0][0] != fn:
            continue
        files[rel] = sha(m.src)
        own = sha(cl[0][1])
        # Staleness is checked in the helper's own file: its deps there.
        deps = sorted({(n, sha(s)) for n, s, p in cl[1:] if p == path})
        group = sha(cl[0][1] + "".join("\x00" + n + "\x00" + s for n, s in sorted((n, s) for n, s, _ in cl[1:])))
        if any("__file__" in s for _, s, _ in cl):
            # The helper reads its own location (mmlu_prox's language is
            # its directory's name): the same source is another helper in
            # each file.
            group = sha(group + "\x00" + rel)
        entries[f"{rel}:{fn}"] = (own, group, deps, sorted(tnames), sorted(uses[(rel, fn)]))
    groups = {}
    for k, (own, group, deps, tn, _) in entries.items():
        groups.setdefault(group, []).append(k)

    with open(go_out, "w") as w:
        w.write("// Code generated by scripts/pyhelpers/scan.py; DO NOT EDIT.\n\n")
        w.write("package task\n\n")
        w.write("// lmevalTasksCommit is the lm-eval commit the table was made from.\n")
        commit = ""
        cp = os.path.join(os.path.dirname(os.path.dirname(tasks)), "COMMIT")
        if os.path.exists(cp):
            commit = open(cp).read().strip()
        w.write(f"const lmevalTasksCommit = {commit!r}\n\n".replace("'", '"'))
        w.write("// pyFiles is each helper file's sha256, relative to lm_eval/tasks/.\n")
        w.write("var pyFiles = map[string]string{\n")
        for f in sorted(files):
            w.write(f"\t{json.dumps(f)}: {json.dumps(files[f])},\n")
        w.write("}\n\n")
        gid = {g: i for i, g in enumerate(sorted(groups))}
        w.write("// pyGroups are the group keys: helpers with one key are one port.\n")
        w.write("var pyGroups = []string{\n")
        for g in sorted(groups):
            w.write(f"\t{json.dumps(g)},\n")
        w.write("}\n\n")
        w.write("// pySources is every helper lm-eval's YAML names, by file:function.\n")
        w.write("var pySources = map[string]pySource{\n")
        for k in sorted(entries):
            own, group, deps, _, us = entries[k]
            d = ", ".join("{%s, %s}" % (json.dumps(n), json.dumps(s)) for n, s in deps)
            u = ", ".join(json.dumps(x) for x in us)
            w.write(f"\t{json.dumps(k)}: {{{json.dumps(own)}, {gid[group]}, []pyDep{{{d}}}, []string{{{u}}}}},\n")
        w.write("}\n")

    ported = {}
    for p in ports:
        k = f"{p['file']}:{p['function']}"
        if k in entries:
            ported[entries[k][1]] = p
    with open(docs_out, "w") as w:
        w.write("# lm-eval's Python helpers and their native ports\n\n")
        w.write("Generated by `scripts/pyhelpers/gen.sh` from lm-eval's task tree at commit "
                f"`{commit}`; do not edit. ")
        w.write("Each row is one group: helpers whose Python source (and that of every "
                "module-level name they use) is identical, so one native port serves them all. "
                "sha256 is of the first file's function source (`ast.get_source_segment`).\n\n")
        n_ported = sum(len(v) for g, v in groups.items() if g in ported)
        w.write(f"{len(entries)} helpers in {len(groups)} groups; {len(ported)} groups "
                f"({n_ported} helpers) have a native port.\n\n")
        w.write("| helper | native port | files | YAML naming it (task, or template file) | sha256 |\n|---|---|---|---|---|\n")
        order = sorted(groups, key=lambda g: (g not in ported, -sum(len(entries[k][3]) for k in groups[g]), groups[g][0]))
        for g in order:
            keys = sorted(groups[g])
            tn = sorted({t for k in keys for t in entries[k][3]})
            port = ported.get(g)
            ps = f"`{port['go']}`" if port and port.get("go") else ("yes" if port else "-")
            files_s = keys[0] + (f" (+{len(keys) - 1})" if len(keys) > 1 else "")
            tasks_s = ", ".join(tn[:4]) + (f", ... ({len(tn)})" if len(tn) > 4 else "")
            w.write(f"| `{keys[0].split(':')[1]}` | {ps} | {files_s} | {tasks_s} | `{entries[keys[0]][0][:16]}` |\n")


if __name__ == "__main__":
    main()
