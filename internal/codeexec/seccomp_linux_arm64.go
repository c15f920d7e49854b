package codeexec

import "golang.org/x/sys/unix"

const (
	auditArch     = unix.AUDIT_ARCH_AARCH64
	syscallBit    = 0
	cloneFlagsArg = 0
)

var archDeniedSyscalls = []uintptr{unix.SYS_LOOKUP_DCOOKIE}
