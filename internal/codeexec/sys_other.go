//go:build !linux

package codeexec

import (
	"os"
	"syscall"
)

// sysProcAttr: network namespaces exist only on Linux; elsewhere programs
// run with the network (Run warns once).
func sysProcAttr(bool) *syscall.SysProcAttr { return nil }

const canIsolate = false

func isNamespaceError(error) bool { return false }

func killGroup(p *os.Process) { p.Kill() }
