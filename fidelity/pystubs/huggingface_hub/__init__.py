"""Stand-in for huggingface_hub (fidelity/classref.py): hf_hub_download
gives a placeholder file, so _SCROLLSTask's _download_metric can copy it;
the stand-in evaluate.load then knows the SCROLLS metric by its name."""
import os
import tempfile

_DIR = tempfile.mkdtemp(prefix="fid-hub-")


def hf_hub_download(repo_id=None, filename=None, repo_type=None, revision=None, **kwargs):
    path = os.path.join(_DIR, repo_id.replace("/", "--"), filename)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    open(path, "w").close()
    return path
