//go:build !unix

package hub

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// staleLock is how old a lock file must be before it is taken to belong to a
// process that died holding it.
const staleLock = 10 * time.Minute

// lockFile creates name exclusively, waiting while another holder has it.
// Without flock a crashed holder leaves the file behind, so a lock older than
// staleLock is broken. The holder touches it while downloading.
func lockFile(ctx context.Context, name string) (unlock func(), err error) {
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return nil, err
	}
	for {
		f, err := os.OpenFile(name, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if err == nil {
			f.Close()
			done := make(chan struct{})
			go func() {
				t := time.NewTicker(staleLock / 4)
				defer t.Stop()
				for {
					select {
					case <-done:
						return
					case now := <-t.C:
						os.Chtimes(name, now, now)
					}
				}
			}()
			return func() { close(done); os.Remove(name) }, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
		if fi, err := os.Stat(name); err == nil && time.Since(fi.ModTime()) > staleLock {
			os.Remove(name)
			continue
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}
