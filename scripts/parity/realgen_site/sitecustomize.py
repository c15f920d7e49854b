"""Python loads this first in every process scripts/parity/realgen.py starts
(its directory leads PYTHONPATH): the real packages are imported before a
vector generator puts its stand-ins on sys.path. See realgen.py."""
import realgen_setup

realgen_setup.setup()
