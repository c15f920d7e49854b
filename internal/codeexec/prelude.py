# lmeval's code-execution prelude, run as `python3 -c PRELUDE TIMEOUT MEMORY`
# with the program on stdin and a result pipe on fd 3. It reproduces what
# Hugging Face evaluate's code_eval does around each program: a scratch
# working directory (the caller's cwd), destructive functions disabled,
# standard streams swallowed, a time limit that raises inside the program,
# and exec() in a fresh global namespace. The verdict is "passed",
# "timed out" or "failed: <exception>", written to fd 3.
import contextlib, faulthandler, io, os, resource, signal, sys

timeout = float(sys.argv[1])
memory = int(sys.argv[2])
program = sys.stdin.read()
out = os.fdopen(3, "w")


class TimeoutException(Exception):
    pass


def on_alarm(signum, frame):
    raise TimeoutException("Timed out!")


class WriteOnlyStringIO(io.StringIO):
    def read(self, *args, **kwargs):
        raise OSError

    def readline(self, *args, **kwargs):
        raise OSError

    def readlines(self, *args, **kwargs):
        raise OSError

    def readable(self, *args, **kwargs):
        return False


# The address space and data segment are limited; the stack is not (glibc
# sizes new threads' stacks by RLIMIT_STACK, so a large one would make
# threads fail under the address-space limit).
if memory > 0:
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    resource.setrlimit(resource.RLIMIT_DATA, (memory, memory))

faulthandler.disable()
import builtins, shutil, subprocess

builtins.exit = None
builtins.quit = None
os.environ["OMP_NUM_THREADS"] = "1"
for name in ("kill", "system", "putenv", "remove", "removedirs", "rmdir", "fchdir",
             "setuid", "fork", "forkpty", "killpg", "rename", "renames", "truncate",
             "replace", "unlink", "fchmod", "fchown", "chmod", "chown", "chroot",
             "lchflags", "lchmod", "lchown", "getcwd", "chdir"):
    setattr(os, name, None)
shutil.rmtree = None
shutil.move = None
shutil.chown = None
subprocess.Popen = None
builtins.help = None
for name in ("ipdb", "joblib", "resource", "psutil", "tkinter"):
    sys.modules[name] = None

verdict = "passed"
stream = WriteOnlyStringIO()
try:
    with contextlib.redirect_stdout(stream), contextlib.redirect_stderr(stream):
        sys.stdin = stream
        signal.setitimer(signal.ITIMER_REAL, timeout)
        signal.signal(signal.SIGALRM, on_alarm)
        try:
            exec(program, {})
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
except TimeoutException:
    verdict = "timed out"
except BaseException as e:
    verdict = f"failed: {e}"
out.write(verdict)
out.flush()
os._exit(0)
