"""langdetect made deterministic, as lmeval's ifeval port and its vectors
have it: DetectorFactory.seed = 0 and the language profiles loaded in
file-name order (langdetect's own loader lists the directory in the
file system's order). Used by refsetup.py (the vector generators) and by
make parity's lm-eval side (scripts/parity/hfpatch.py)."""
import os

from langdetect import detector_factory


def seed():
    detector_factory.DetectorFactory.seed = 0
    factory = detector_factory.DetectorFactory()
    pdir = detector_factory.PROFILES_DIRECTORY
    profiles = []
    for name in sorted(os.listdir(pdir)):
        with open(os.path.join(pdir, name), encoding="utf-8") as f:
            profiles.append(f.read())
    factory.load_json_profile(profiles)
    detector_factory._factory = factory
