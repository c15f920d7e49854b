package codeexec

import (
	"errors"
	"fmt"
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

// LandlockABI is the Landlock ABI version the kernel offers (0: none:
// too old a kernel, or Landlock not among the enabled security modules).
func LandlockABI() int {
	v, _, e := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
	if e != 0 {
		return 0
	}
	return int(v)
}

// rulesetAttr is struct landlock_ruleset_attr up to ABI 6; a kernel is
// given the part its ABI knows.
type rulesetAttr struct {
	fs, net, scoped uint64
}

// Filesystem rights a rule on a regular file may hold.
const fileRights = unix.LANDLOCK_ACCESS_FS_EXECUTE | unix.LANDLOCK_ACCESS_FS_WRITE_FILE | unix.LANDLOCK_ACCESS_FS_READ_FILE |
	unix.LANDLOCK_ACCESS_FS_TRUNCATE | unix.LANDLOCK_ACCESS_FS_IOCTL_DEV

// landlock restricts this thread (and the interpreter it executes) to
// reading and executing spec.Read, reading and writing spec.Devices, and
// everything in spec.Work; with ABI 4 it refuses TCP, with ABI 6 it
// scopes signals and abstract unix sockets to the sandbox. no_new_privs
// must be set. It returns what it applied.
func landlock(s *sandboxSpec) (string, error) {
	abi := LandlockABI()
	if abi < 1 {
		return "", errors.New("not offered by this kernel (Linux 5.13 or later with Landlock among the security modules, e.g. lsm=landlock,...)")
	}
	attr := rulesetAttr{fs: 1<<13 - 1} // ABI 1: execute ... make_sym
	size := 8
	if abi >= 2 {
		attr.fs |= unix.LANDLOCK_ACCESS_FS_REFER
	}
	if abi >= 3 {
		attr.fs |= unix.LANDLOCK_ACCESS_FS_TRUNCATE
	}
	if abi >= 4 {
		attr.net = unix.LANDLOCK_ACCESS_NET_BIND_TCP | unix.LANDLOCK_ACCESS_NET_CONNECT_TCP
		size = 16
	}
	if abi >= 5 {
		attr.fs |= unix.LANDLOCK_ACCESS_FS_IOCTL_DEV
	}
	if abi >= 6 {
		attr.scoped = unix.LANDLOCK_SCOPE_SIGNAL | unix.LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET
		size = 24
	}
	create := func(a rulesetAttr) (int, error) {
		fd, _, e := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, uintptr(unsafe.Pointer(&a)), uintptr(size), 0)
		if e != 0 {
			return -1, e
		}
		return int(fd), nil
	}
	// Rights of later ABIs (connecting to unix sockets by path, UDP)
	// where the kernel knows them.
	newer := attr
	newer.fs |= unix.LANDLOCK_ACCESS_FS_RESOLVE_UNIX
	if size >= 16 {
		newer.net |= unix.LANDLOCK_ACCESS_NET_BIND_UDP | unix.LANDLOCK_ACCESS_NET_CONNECT_SEND_UDP
	}
	fd, err := create(newer)
	if err == nil {
		attr = newer
	} else if fd, err = create(attr); err != nil {
		return "", fmt.Errorf("landlock_create_ruleset: %w", err)
	}
	defer unix.Close(fd)
	read := uint64(unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_READ_DIR | unix.LANDLOCK_ACCESS_FS_EXECUTE)
	dev := uint64(unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_WRITE_FILE | unix.LANDLOCK_ACCESS_FS_TRUNCATE)
	rules := []struct {
		paths  []string
		rights uint64
	}{{s.Read, read}, {s.Devices, dev}, {[]string{s.Work}, attr.fs}}
	for _, r := range rules {
		for _, p := range r.paths {
			if err := addRule(fd, p, r.rights&attr.fs); err != nil {
				return "", err
			}
		}
	}
	if _, _, e := unix.Syscall(unix.SYS_LANDLOCK_RESTRICT_SELF, uintptr(fd), 0, 0); e != 0 {
		return "", fmt.Errorf("landlock_restrict_self: %w", e)
	}
	desc := fmt.Sprintf("Landlock ABI %d: reads only the interpreter, the system libraries and the scratch directory, writes only the scratch directory", abi)
	if attr.net != 0 {
		desc += ", no TCP"
	}
	if attr.scoped != 0 {
		desc += ", signals and abstract unix sockets only within the sandbox"
	}
	return desc, nil
}

// addRule allows rights beneath path (a path that does not exist, or
// that this user cannot reach, is left out: the program cannot reach it
// either).
func addRule(ruleset int, path string, rights uint64) error {
	fd, err := unix.Open(path, unix.O_PATH|unix.O_CLOEXEC, 0)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) || errors.Is(err, unix.EACCES) {
			return nil
		}
		return fmt.Errorf("landlock rule for %s: %w", path, err)
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return fmt.Errorf("landlock rule for %s: %w", path, err)
	}
	if st.Mode&unix.S_IFMT != unix.S_IFDIR {
		rights &= fileRights
	}
	attr := unix.LandlockPathBeneathAttr{Allowed_access: rights, Parent_fd: int32(fd)}
	if _, _, e := unix.Syscall6(unix.SYS_LANDLOCK_ADD_RULE, uintptr(ruleset), unix.LANDLOCK_RULE_PATH_BENEATH, uintptr(unsafe.Pointer(&attr)), 0, 0, 0); e != 0 {
		return fmt.Errorf("landlock rule for %s: %w", path, e)
	}
	return nil
}
