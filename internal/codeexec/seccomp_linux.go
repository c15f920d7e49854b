//go:build linux && (amd64 || arm64)

package codeexec

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// deniedSyscalls are refused (EPERM): a program checking its answer has
// no use for them, and each is a way out of a sandbox or into the
// kernel's less-trodden paths.
var deniedSyscalls = append([]uintptr{
	unix.SYS_PTRACE, unix.SYS_PROCESS_VM_READV, unix.SYS_PROCESS_VM_WRITEV, unix.SYS_PIDFD_GETFD,
	unix.SYS_MOUNT, unix.SYS_UMOUNT2, unix.SYS_PIVOT_ROOT, unix.SYS_CHROOT, unix.SYS_MOVE_MOUNT,
	unix.SYS_OPEN_TREE, unix.SYS_FSOPEN, unix.SYS_FSCONFIG, unix.SYS_FSMOUNT, unix.SYS_FSPICK,
	unix.SYS_MOUNT_SETATTR, unix.SYS_UNSHARE, unix.SYS_SETNS,
	// Leaving the process group would outlive the kill at the time limit
	// where there is no PID namespace.
	unix.SYS_SETSID, unix.SYS_SETPGID,
	unix.SYS_KEYCTL, unix.SYS_ADD_KEY, unix.SYS_REQUEST_KEY, unix.SYS_BPF, unix.SYS_PERF_EVENT_OPEN,
	unix.SYS_USERFAULTFD, unix.SYS_IO_URING_SETUP, unix.SYS_IO_URING_ENTER, unix.SYS_IO_URING_REGISTER,
	unix.SYS_OPEN_BY_HANDLE_AT, unix.SYS_NAME_TO_HANDLE_AT, unix.SYS_FANOTIFY_INIT,
	unix.SYS_KEXEC_LOAD, unix.SYS_KEXEC_FILE_LOAD, unix.SYS_INIT_MODULE, unix.SYS_FINIT_MODULE,
	unix.SYS_DELETE_MODULE, unix.SYS_SWAPON, unix.SYS_SWAPOFF, unix.SYS_REBOOT, unix.SYS_ACCT,
	unix.SYS_SETTIMEOFDAY, unix.SYS_CLOCK_SETTIME, unix.SYS_CLOCK_ADJTIME, unix.SYS_ADJTIMEX,
	unix.SYS_QUOTACTL, unix.SYS_SYSLOG, unix.SYS_VHANGUP, unix.SYS_SETHOSTNAME, unix.SYS_SETDOMAINNAME,
}, archDeniedSyscalls...)

// namespaceFlags are the clone flags that make namespaces.
const namespaceFlags = unix.CLONE_NEWUSER | unix.CLONE_NEWNS | unix.CLONE_NEWPID | unix.CLONE_NEWNET |
	unix.CLONE_NEWIPC | unix.CLONE_NEWUTS | unix.CLONE_NEWCGROUP | unix.CLONE_NEWTIME

// seccomp_data offsets: the system call number, the architecture, and
// the low 32 bits of argument i (little-endian).
const (
	offNr   = 0
	offArch = 4
)

func offArg(i int) uint32 { return 16 + 8*uint32(i) }

// installSeccomp installs the filter: deniedSyscalls refused, clone with
// namespace flags refused (clone3, whose flags a filter cannot read, is
// "not implemented", so that libc falls back to clone), sockets other
// than IPv4 and IPv6 refused (all sockets with banNet), the terminal
// ioctls that inject input refused, any other architecture's calls
// killed. no_new_privs must be set.
func installSeccomp(banNet bool) error {
	var p []unix.SockFilter
	stmt := func(code uint16, k uint32) { p = append(p, unix.SockFilter{Code: code, K: k}) }
	jump := func(code uint16, k uint32, jt, jf uint8) {
		p = append(p, unix.SockFilter{Code: code, K: k, Jt: jt, Jf: jf})
	}
	const (
		ld    = unix.BPF_LD | unix.BPF_W | unix.BPF_ABS
		jeq   = unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K
		jge   = unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K
		jset  = unix.BPF_JMP | unix.BPF_JSET | unix.BPF_K
		ret   = unix.BPF_RET | unix.BPF_K
		allow = unix.SECCOMP_RET_ALLOW
	)
	errno := func(e unix.Errno) uint32 { return unix.SECCOMP_RET_ERRNO | uint32(e)&unix.SECCOMP_RET_DATA }

	stmt(ld, offArch)
	jump(jeq, auditArch, 1, 0)
	stmt(ret, unix.SECCOMP_RET_KILL_PROCESS)
	stmt(ld, offNr)
	if syscallBit != 0 { // x32 system calls on amd64
		jump(jge, syscallBit, 0, 1)
		stmt(ret, errno(unix.EPERM))
	}
	for _, nr := range deniedSyscalls {
		jump(jeq, uint32(nr), 0, 1)
		stmt(ret, errno(unix.EPERM))
	}
	jump(jeq, unix.SYS_CLONE3, 0, 1)
	stmt(ret, errno(unix.ENOSYS))

	jump(jeq, unix.SYS_CLONE, 0, 4)
	stmt(ld, offArg(cloneFlagsArg))
	jump(jset, namespaceFlags, 0, 1)
	stmt(ret, errno(unix.EPERM))
	stmt(ret, allow)

	ip := uint32(allow)
	if banNet {
		ip = errno(unix.EACCES)
	}
	jump(jeq, unix.SYS_SOCKET, 0, 6)
	stmt(ld, offArg(0))
	jump(jeq, unix.AF_INET, 0, 1)
	stmt(ret, ip)
	jump(jeq, unix.AF_INET6, 0, 1)
	stmt(ret, ip)
	stmt(ret, errno(unix.EAFNOSUPPORT))

	jump(jeq, unix.SYS_IOCTL, 0, 6)
	stmt(ld, offArg(1))
	jump(jeq, unix.TIOCSTI, 0, 1)
	stmt(ret, errno(unix.EPERM))
	jump(jeq, unix.TIOCLINUX, 0, 1)
	stmt(ret, errno(unix.EPERM))
	stmt(ret, allow)

	stmt(ret, allow)

	prog := unix.SockFprog{Len: uint16(len(p)), Filter: &p[0]}
	if _, _, e := unix.RawSyscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, 0, uintptr(unsafe.Pointer(&prog))); e != 0 {
		return e
	}
	return nil
}
