"""What scripts/parity/realgen.py sets up in each Python process it starts
(loaded by sitecustomize.py beside this file, before the program runs).

1. The real packages are imported first, so a generator's later sys.path
   inserts of stand-ins (ports/internal/vectest/pystubs, fidelity/pystubs,
   fidelity/stubs, ../shared/lm-eval-runner/stubs, per-port pystubs/) find
   them already in sys.modules; they are looked for in this Python's
   packages and the directories realgen.py was given on PYTHONPATH
   (REALGEN_SITES), never in what a parent process put on PYTHONPATH since.
   A package not found is named on stderr and left to its stand-in.
2. evaluate.load(name) reads $EVALUATE_METRICS/<name>/<name>.py (a checkout
   of github.com/huggingface/evaluate's metrics/, the script the Hub
   serves) when that exists; and a metric script's download of a file from
   GitHub (bleu.py's `# From: https://github.com/tensorflow/nmt/...`) is
   answered from the local bare clone REALGEN_GITHUB names
   (OWNER/NAME=GITDIR[:...]): `git show REF:PATH`, the file GitHub serves
   for https://github.com/OWNER/NAME/raw/REF/PATH. A GitHub download of a
   repository not named there raises, naming the URL.
3. Child Python processes get the same: a subprocess started with its own
   env has this directory put first on its PYTHONPATH again (fidelity/gen.py
   and the runner put their stand-ins' setup first there).
4. lmevalref_compat (the typing shims the generators import, beside the
   runner's stand-ins) and ports/internal/vectest are put last on sys.path.
"""
import importlib
import os
import re
import subprocess
import sys
import tempfile

SITE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(SITE)))
REAL = [
    "sacrebleu",
    "rouge_score",
    "rouge_score.rouge_scorer",
    "rouge_score.scoring",
    "evaluate",
    "datasets",
    "math_verify",
    "nltk",
    "langdetect",
    "pytablewriter",
    "transformers",
    "transformers.data.metrics.squad_metrics",
    "huggingface_hub",
    "torch",
    "bert_score",
    "word2number",
]
GITHUB_FILE = re.compile(
    r"^https://(?:github\.com/([^/]+)/([^/]+)/raw|raw\.githubusercontent\.com/([^/]+)/([^/]+))/([^/]+)/(.+)$")


def github_clones():
    """REALGEN_GITHUB as {"owner/name": gitdir}."""
    clones = {}
    for item in filter(None, os.environ.get("REALGEN_GITHUB", "").split(":")):
        repo, sep, gitdir = item.partition("=")
        if not sep or repo.count("/") != 1 or not os.path.isdir(gitdir):
            raise SystemExit(f"realgen: REALGEN_GITHUB: {item!r} is not OWNER/NAME=GITDIR (an existing git directory)")
        clones[repo] = gitdir
    return clones


def serve_github(evaluate_loading, clones):
    """Answers evaluate's downloads of single files from GitHub out of the
    local clones (GitHub itself is unreachable here)."""
    cached_path = evaluate_loading.cached_path
    tmp = tempfile.mkdtemp(prefix="realgen-github-")

    def local_cached_path(url_or_filename, *args, **kwargs):
        m = GITHUB_FILE.match(url_or_filename) if isinstance(url_or_filename, str) else None
        if m is None:
            return cached_path(url_or_filename, *args, **kwargs)
        owner, name = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        ref, path = m.group(5), m.group(6)
        gitdir = clones.get(f"{owner}/{name}")
        if gitdir is None:
            raise ConnectionError(
                f"realgen: {url_or_filename}: GitHub is unreachable and REALGEN_GITHUB names no clone of {owner}/{name}")
        git = ["git", "--git-dir", gitdir]
        data = subprocess.run(git + ["show", f"{ref}:{path}"], check=True, capture_output=True).stdout
        commit = subprocess.run(git + ["rev-parse", ref], check=True, capture_output=True, text=True).stdout.strip()
        out = os.path.join(tmp, owner, name, ref, path)
        if not os.path.exists(out):
            print(f"realgen: {url_or_filename} served from {gitdir} at {commit}", file=sys.stderr)
            os.makedirs(os.path.dirname(out), exist_ok=True)
            with open(out, "wb") as f:
                f.write(data)
        return out

    evaluate_loading.cached_path = local_cached_path


def local_metrics(evaluate, metrics):
    hub_load = evaluate.load

    def load(path, *args, **kwargs):
        if isinstance(path, str) and os.path.isfile(os.path.join(metrics, path, path + ".py")):
            path = os.path.join(metrics, path)
        return hub_load(path, *args, **kwargs)

    evaluate.load = load


class Popen(subprocess.Popen):
    """subprocess.Popen whose Python children load this setup too."""

    def __init__(self, args, *rest, **kwargs):
        env = kwargs.get("env")
        if env is not None:
            parts = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p and os.path.abspath(p) != SITE]
            kwargs["env"] = dict(env, PYTHONPATH=os.pathsep.join([SITE] + parts))
        super().__init__(args, *rest, **kwargs)


def import_real():
    """Imports REAL from this Python's packages and the sites realgen.py was
    given (REALGEN_SITES), not from the stand-ins a parent process put on
    this one's PYTHONPATH (fidelity/gen.py puts fidelity/stubs' evaluate
    there)."""
    allowed = {SITE} | {os.path.abspath(p) for p in os.environ.get("REALGEN_SITES", "").split(os.pathsep) if p}
    given = {os.path.abspath(p) for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p}
    path = sys.path[:]
    sys.path[:] = [p for p in path if os.path.abspath(p or ".") not in given - allowed]
    quiet = os.environ.get("REALGEN_QUIET") == "1"
    try:
        for name in REAL:
            try:
                importlib.import_module(name)
            except Exception as e:  # noqa: BLE001  (missing or broken: say which)
                if not quiet:
                    print(f"realgen: {name}: not in this Python ({type(e).__name__}: {e}); its stand-in stays",
                          file=sys.stderr)
    finally:
        sys.path[:] = path
    os.environ["REALGEN_QUIET"] = "1"  # children: said once


def setup():
    import_real()
    if "evaluate" in sys.modules:
        metrics = os.environ.get("EVALUATE_METRICS")
        if metrics:
            local_metrics(sys.modules["evaluate"], metrics)
        clones = github_clones()
        if clones:
            serve_github(importlib.import_module("evaluate.loading"), clones)
    subprocess.Popen = Popen
    # fidelity/pystubs/datasets_ext adds to the datasets stand-in methods the
    # real datasets has; loaded over the real one it would replace them.
    if "datasets" in sys.modules:
        sys.modules["datasets_ext"] = type(sys)("datasets_ext")
    runner = os.path.join(ROOT, "..", "shared", "lm-eval-runner", "stubs")
    if os.path.isdir(runner):
        sys.path.append(runner)
    sys.path.append(os.path.join(ROOT, "ports", "internal", "vectest"))
