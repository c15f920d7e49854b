package codeexec

import (
	"errors"
	"os"
	"syscall"
)

// sysProcAttr puts the child in its own process group and, when isolate
// is set, in new user and network namespaces: the new network namespace
// has only a loopback interface, which is down, so no connection leaves
// the process. The user namespace lets an unprivileged user create it;
// the child's uid and gid map to the caller's.
func sysProcAttr(isolate bool) *syscall.SysProcAttr {
	a := &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if isolate {
		a.Cloneflags = syscall.CLONE_NEWUSER | syscall.CLONE_NEWNET
		a.UidMappings = []syscall.SysProcIDMap{{ContainerID: os.Getuid(), HostID: os.Getuid(), Size: 1}}
		a.GidMappings = []syscall.SysProcIDMap{{ContainerID: os.Getgid(), HostID: os.Getgid(), Size: 1}}
		a.GidMappingsEnableSetgroups = false
	}
	return a
}

// isNamespaceError reports whether starting failed because namespaces are
// not allowed (a container without user namespaces, a sysctl turning them
// off).
func isNamespaceError(err error) bool {
	return errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EACCES)
}

// killGroup kills the program and everything it started.
func killGroup(p *os.Process) {
	syscall.Kill(-p.Pid, syscall.SIGKILL)
	p.Kill()
}

// canIsolate: Linux has network namespaces (whether this system allows
// them is found out when the first program starts).
const canIsolate = true
