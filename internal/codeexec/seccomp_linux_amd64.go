package codeexec

import "golang.org/x/sys/unix"

const (
	auditArch = unix.AUDIT_ARCH_X86_64
	// syscallBit marks x32 system calls, which are refused.
	syscallBit = 0x40000000
	// cloneFlagsArg is clone's flags argument.
	cloneFlagsArg = 0
)

var archDeniedSyscalls = []uintptr{unix.SYS_IOPL, unix.SYS_IOPERM, unix.SYS_USELIB, unix.SYS_LOOKUP_DCOOKIE, unix.SYS_MODIFY_LDT}
