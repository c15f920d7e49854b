//go:build !linux

package codeexec

import (
	"context"
	"errors"
	"os"
	"syscall"
)

// sandboxed: lmeval confines programs on Linux only; elsewhere they run
// only with Consent.Unconfined.
const sandboxed = false

func (r *Runner) runSandboxed(context.Context, string, string, string, bool) (Result, error) {
	return Result{}, errors.New("no sandbox on this system")
}

func plainProcAttr() *syscall.SysProcAttr { return nil }

func killGroup(p *os.Process) { p.Kill() }
