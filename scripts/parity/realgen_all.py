"""Reruns the vector generators that were made over stand-ins with the real
packages (scripts/parity/realgen.py), and says per generator what changed.

usage (from the repository root, with make parity's venv in build/parity):
  build/parity/venv/bin/python scripts/parity/realgen_all.py [--list] [NAME ...]

NAME picks generators from GENERATORS below (all when none is named). Each
runs in make parity's venv with realgen_site/ first on PYTHONPATH (the real
packages imported before the generator's stand-ins), offline, with a fresh
Hugging Face cache (datasets' map cache and evaluate's modules: a first
run), and writes its files in place; afterwards `git status` says which
vectors changed (review them with git diff). Prints one line per generator:
identical, changed (the files), or failed (the error's last lines).

Packages make parity's venv lacks are installed with `pip install --no-deps
--target` from the committed, pinned requirements files into
build/realgen/site-<name>/ (PyPI is needed only then):
  requirements-realgen.txt               (site-extra) longbench's jieba,
                                         fuzzywuzzy and rouge, ...
  requirements-realgen-acpbench.txt      (site-acpbench) lm-eval's acpbench
                                         extra (tarski pins an antlr4 of its
                                         own)
  requirements-realgen-transformers4.txt (site-transformers4) a transformers
                                         4.x world: lm-eval's super_glue
                                         record imports
                                         transformers.data.metrics.squad_metrics,
                                         which transformers 5 removed

Sources that are not packages, read from local copies (GitHub and the Hub
are unreachable here):
  EVALUATE_GIT  a bare clone of github.com/huggingface/evaluate: its
                metrics/ (the scripts evaluate.load fetches from the Hub)
                are extracted to build/realgen/metrics
  NMT_GIT       a bare clone of github.com/tensorflow/nmt: bleu.py's
                download of nmt/scripts/bleu.py (as nmt_bleu.py) is
                answered from it (realgen_setup.py, REALGEN_GITHUB)
"""
import argparse
import glob
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BUILD = os.path.join(ROOT, "build", "realgen")
SHARED = os.path.normpath(os.path.join(ROOT, "..", "shared"))
TASKS = os.path.join(SHARED, "lm-eval", "lm_eval", "tasks")
SITES = {
    "extra": os.path.join(HERE, "requirements-realgen.txt"),
    "transformers4": os.path.join(HERE, "requirements-realgen-transformers4.txt"),
    "acpbench": os.path.join(HERE, "requirements-realgen-acpbench.txt"),
}


class Gen:
    """One generator: its script, arguments ({tasks}, {shared}), the file its
    standard output goes to (None: it writes its files itself), the extra
    sites it needs, and the earlier vector format it prints (converted to
    vectest's one format as ports/internal/vectest/vecformat.py converted
    the committed file)."""

    def __init__(self, name, script, args=("{tasks}",), stdout=None, sites=(), convert=None):
        self.name, self.script, self.args, self.stdout = name, script, list(args), stdout
        self.sites, self.convert = list(sites), convert


P = "ports/{0}/testdata/gen_vectors.py"
VECTORS = [
    "agieval", "aime", "arab_culture", "arabic_leaderboard_complete", "arabicmmlu", "aradice",
    "arithmetic", "basque_bench", "basqueglue", "bbq", "c4", "careqa", "click", "code_x_glue", "copal_id",
    "crows_pairs", "csatqa", "darija_bench", "darijahellaswag", "darijammlu", "discrim_eval", "e2lmc", "eq_bench",
    "esbbq", "eus_exams", "eus_reading", "evalita_llm", "french_bench", "glianorex", "glue", "graphwalks",
    "groundcocoa", "hendrycks_ethics", "histoires_morales", "icelandic_winogrande", "include", "indicparam",
    "japanese_leaderboard", "jfinqa", "kobest", "kormedmcqa", "lingoly", "llama3", "med_prescriptions",
    "med_text_classification", "meddialog", "mediqa_qa2019", "medmcqa", "medqa", "medtext", "meqsum", "metabench",
    "mimic_repsum", "mlqa", "mmlu_pro_plus", "mmlusr", "mts_dialog", "mutual", "nerel_bench", "noticia", "okapi",
    "olaph", "paloma", "paws_x", "portuguese_bench", "pubmedqa", "putnam_axiom", "qasper",
    "simple_cooccurrence_bias", "tmlu", "tmmluplus", "toxigen", "truthfulqa_multi", "webqs", "winogender",
    "wmt2016", "wsc273", "xwinograd",
]
# Their lm-eval helpers import transformers.data.metrics.squad_metrics
# (gone from transformers 5).
SQUAD = ["catalan_bench", "coqa", "galician_bench", "noreval", "spanish_bench", "super_glue", "xquad"]
GENERATORS = [Gen(d, P.format(d), sites=["transformers4"] if d in SQUAD else []) for d in VECTORS + SQUAD] + [
    Gen("acpbench", P.format("acpbench"), [], sites=["acpbench"]),
    Gen("afrixnli", P.format("afrixnli"), ["{tasks}", "afrixnli"], "ports/afrixnli/testdata/vectors.json",
        convert="portvectors"),
    Gen("afrimmlu", P.format("afrixnli"), ["{tasks}", "afrimmlu"], "ports/afrimmlu/testdata/vectors.json",
        convert="portvectors"),
    Gen("afrobench", P.format("afrobench"), stdout="ports/afrobench/testdata/vectors.json"),
    Gen("infinitebench", P.format("infinitebench"), stdout="ports/infinitebench/testdata/vectors.json"),
    Gen("longbench", P.format("longbench"), stdout="ports/longbench/testdata/vectors.json", sites=["extra"]),
    Gen("score", P.format("score"), [], "ports/score/testdata/vectors.json"),
    Gen("cruxeval", "ports/cruxeval/testdata/gen.py", stdout="ports/cruxeval/testdata/vectors.json"),
    Gen("humaneval", "ports/humaneval/testdata/gen.py", stdout="ports/humaneval/testdata/vectors.json"),
    Gen("humaneval_infilling", "ports/humaneval_infilling/testdata/gen.py",
        stdout="ports/humaneval_infilling/testdata/vectors.json"),
    Gen("mbpp", "ports/mbpp/testdata/gen.py", stdout="ports/mbpp/testdata/vectors.json"),
    Gen("nerel_bench_samples", "ports/nerel_bench/gen_samples.py", stdout="ports/nerel_bench/samples.json"),
    Gen("putnam_axiom_samples", "ports/putnam_axiom/testdata/gen_samples.py",
        stdout="ports/putnam_axiom/samples_gen.go"),
    Gen("rouge", "ports/internal/rouge/testdata/gen.py", [], "ports/internal/rouge/testdata/vectors.json"),
    Gen("ports_common", "ports/testdata/gen_vectors.py"),
    Gen("ports_classes", "ports/testdata/gen_class_vectors.py", sites=["transformers4"]),
    Gen("math_requests", "ports/all/testdata/gen_math_requests.py", ["{shared}"]),
    Gen("math_pairs", "ports/testdata/math/gen_pairs.py"),
    Gen("bootstrap", "harness/metrics/testdata/gen_bootstrap.py", [],
        "harness/metrics/testdata/bootstrap_vectors.json"),
    Gen("parse_logprobs", "backend/remote/testdata/gen_parse_logprobs.py", [],
        "backend/remote/testdata/parse_logprobs.json"),
    Gen("pyyaml", "harness/task/testdata/pyyaml/gen.py", []),
    Gen("lmeval_ref", "harness/testdata/lmeval_ref/gen.py", []),
    Gen("leaderboard", "fidelity/leaderboard/gen.py", ["{shared}/lm-eval"]),
    Gen("code_requests", "harness/testdata/code_tasks/gen_requests.py", ["{shared}"]),
    Gen("code_metrics", "harness/testdata/code_tasks/gen_metrics.py", ["{shared}"]),
]
# fidelity/gen.py over every family (fidelity/testdata/<family>), those
# whose lm-eval helpers import transformers' squad_metrics apart.
FIDELITY = sorted(os.path.basename(os.path.dirname(p))
                  for p in glob.glob(os.path.join(ROOT, "fidelity", "testdata", "*", "cases.json")))
FIDELITY_SQUAD = ["catalan_bench", "coqa", "galician_bench", "noreval", "scrolls", "spanish_bench", "super_glue", "xquad"]
GENERATORS += [
    Gen("fidelity", "fidelity/gen.py",
        ["{shared}/lm-eval", "--keep-going"] + [f for f in FIDELITY if f not in FIDELITY_SQUAD + ["acpbench"]],
        sites=["extra"]),
    Gen("fidelity_squad", "fidelity/gen.py", ["{shared}/lm-eval", "--keep-going"] + FIDELITY_SQUAD, sites=["transformers4"]),
    Gen("fidelity_acpbench", "fidelity/gen.py", ["{shared}/lm-eval", "acpbench"], sites=["acpbench"]),
]


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw).stdout


def site(name):
    """build/realgen/site-<name>, installed from its requirements file when
    missing or older than it."""
    req = SITES[name]
    path = os.path.join(BUILD, "site-" + name)
    stamp = os.path.join(path, ".requirements")
    want = open(req).read()
    if not os.path.exists(stamp) or open(stamp).read() != want:
        shutil.rmtree(path, ignore_errors=True)
        print(f"realgen_all: installing {os.path.relpath(req, ROOT)} into {os.path.relpath(path, ROOT)}", flush=True)
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-compile", "--target", path,
                        "-r", req], check=True)
        with open(stamp, "w") as f:
            f.write(want)
    return path


def metrics_dir():
    """build/realgen/metrics: evaluate's metric scripts, from $EVALUATE_GIT."""
    out = os.path.join(BUILD, "metrics")
    git = os.environ.get("EVALUATE_GIT")
    if git:
        commit = sh(["git", "--git-dir", git, "rev-parse", "HEAD"]).strip()
        stamp = os.path.join(out, ".commit")
        if not os.path.exists(stamp) or open(stamp).read() != commit:
            shutil.rmtree(out, ignore_errors=True)
            os.makedirs(BUILD, exist_ok=True)
            tar = subprocess.run(["git", "--git-dir", git, "archive", commit, "metrics"], check=True,
                                 capture_output=True).stdout
            subprocess.run(["tar", "-x", "-C", BUILD], input=tar, check=True)
            with open(stamp, "w") as f:
                f.write(commit)
    return out if os.path.isdir(out) else None


def lmevalref_src():
    """What run_ref.py takes for lm-eval's source ($LMEVALREF_SRC): the
    package at ../shared/lm-eval and its commit."""
    src = os.path.join(BUILD, "lmevalref")
    os.makedirs(src, exist_ok=True)
    link = os.path.join(src, "lm_eval")
    if not os.path.islink(link):
        os.symlink(os.path.join(SHARED, "lm-eval", "lm_eval"), link)
    with open(os.path.join(src, ".lmevalref_commit"), "w") as f:
        f.write(open(os.path.join(SHARED, "lm-eval", "COMMIT")).read().strip() + "\n")
    return src


def tree_state():
    """{path: sha256} of every file git sees as changed or new."""
    out = {}
    for line in sh(["git", "status", "--porcelain", "-uall"], cwd=ROOT).splitlines():
        path = line[3:]
        full = os.path.join(ROOT, path)
        out[path] = hashlib.sha256(open(full, "rb").read()).hexdigest() if os.path.isfile(full) else None
    return out


def run(g, env):
    fmt = {"tasks": TASKS, "shared": SHARED}
    args = [a.format(**fmt) for a in g.args]
    cmd = [sys.executable, os.path.join(HERE, "realgen.py"), os.path.join(ROOT, g.script)] + args
    env = dict(env)
    env["PYTHONPATH"] = os.pathsep.join(site(s) for s in g.sites)
    hf = tempfile.mkdtemp(prefix="realgen-hf-")
    env["HF_HOME"] = hf
    before = tree_state()
    t0 = time.time()
    # A generator's own report (what it wrote) goes to build/realgen/logs.
    os.makedirs(os.path.join(BUILD, "logs"), exist_ok=True)
    log = os.path.join(BUILD, "logs", g.name.replace("/", "_") + ".out")
    out = open(os.path.join(ROOT, g.stdout) if g.stdout else log, "w")
    try:
        p = subprocess.run(cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.PIPE, text=True)
    finally:
        out.close()
        shutil.rmtree(hf, ignore_errors=True)
    if p.returncode == 0 and g.convert:
        sys.path.insert(0, os.path.join(ROOT, "ports", "internal", "vectest"))
        import vecformat

        path = os.path.join(ROOT, g.stdout)
        vecformat.write(path, [c for v in vecformat.read(path) for c in vecformat.convert(g.convert, v)])
    took = time.time() - t0
    after = tree_state()
    changed = sorted(p for p in after if before.get(p) != after[p])
    if p.returncode != 0:
        if g.stdout:  # keep the committed file, not a half-written one
            subprocess.run(["git", "checkout", "--", g.stdout], cwd=ROOT)
        tail = "\n    ".join(p.stderr.strip().splitlines()[-6:])
        return f"{g.name}: FAILED ({took:.0f} s)\n    {tail}"
    return f"{g.name}: " + (("changed: " + ", ".join(changed)) if changed else "identical") + f" ({took:.0f} s)"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--list", action="store_true")
    ap.add_argument("names", nargs="*")
    a = ap.parse_args()
    if a.list:
        for g in GENERATORS:
            print(g.name, g.script, *g.args, *(["> " + g.stdout] if g.stdout else []))
        return
    known = {g.name: g for g in GENERATORS}
    unknown = [n for n in a.names if n not in known]
    if unknown:
        raise SystemExit(f"realgen_all: no generator named {', '.join(unknown)} (--list lists them)")
    env = dict(os.environ, HF_HUB_OFFLINE="1", HF_DATASETS_OFFLINE="1", HF_EVALUATE_OFFLINE="1",
               LMEVAL_TASKS=TASKS, LMEVALREF_SRC=lmevalref_src(), TOKENIZERS_PARALLELISM="false")
    env.setdefault("NLTK_DATA", os.path.join(ROOT, "build", "parity", "nltk_data"))
    metrics = metrics_dir()
    if metrics:
        env["EVALUATE_METRICS"] = metrics
    if os.environ.get("NMT_GIT"):
        env["REALGEN_GITHUB"] = "tensorflow/nmt=" + os.environ["NMT_GIT"]
    for g in [known[n] for n in a.names] or GENERATORS:
        print(run(g, env), flush=True)


if __name__ == "__main__":
    main()
