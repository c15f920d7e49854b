// Package cache stores model responses in SQLite so a rerun, or a run
// killed midway, never recomputes an answer it already has, and never
// returns an answer another model gave.
//
// Every entry is keyed by the sha256 of the model's identity (the GGUF's
// content fingerprint plus every setting that changes answers), the request
// type, and the request's arguments including generation parameters.
// lm-eval's cache keys on the request alone and silently serves one model's
// answers to another that shares its name.
//
// The database runs in WAL mode with a busy timeout, and CachingLM commits
// each chunk of answers as it completes, so several processes can share one
// file and a SIGKILL loses at most the chunk in flight.
package cache

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"github.com/lmeval/lmeval/internal/filehash"
)

// Cache is an open cache database.
type Cache struct {
	db   *sql.DB
	path string
}

const schema = `
CREATE TABLE IF NOT EXISTS fingerprints (
	path     TEXT PRIMARY KEY,
	size     INTEGER NOT NULL,
	mtime_ns INTEGER NOT NULL,
	sha256   TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS models (
	model    TEXT PRIMARY KEY,
	identity TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS responses (
	key   BLOB PRIMARY KEY,
	model TEXT NOT NULL,
	kind  TEXT NOT NULL,
	value BLOB NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS blobs (
	key     TEXT PRIMARY KEY,
	value   BLOB NOT NULL,
	created INTEGER NOT NULL
);
`

// busyTimeout is how long one statement waits for another process's write
// lock before SQLite reports "database is locked"; retryFor bounds the
// retries on top of it.
const (
	busyTimeout = 30 * time.Second
	retryFor    = 2 * time.Minute
)

// Open opens (creating if needed) the cache database at path.
func Open(path string) (*Cache, error) {
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("cache %s: %w", path, err)
		}
	}
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busyTimeout.Milliseconds()))
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Set("_txlock", "immediate")
	dsn := "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + q.Encode()
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("cache %s: %w", path, err)
	}
	// One connection per process: SQLite serialises writers anyway, and a
	// single connection cannot deadlock against itself.
	db.SetMaxOpenConns(1)
	c := &Cache{db: db, path: path}
	err = retry(context.Background(), func() error {
		_, err := db.Exec(schema)
		return err
	})
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("cache %s: %w", path, err)
	}
	return c, nil
}

// Path is the database file.
func (c *Cache) Path() string { return c.path }

// Close closes the database.
func (c *Cache) Close() error { return c.db.Close() }

// retry runs f until it succeeds, fails with an error other than a busy
// database, or retryFor passes.
func retry(ctx context.Context, f func() error) error {
	deadline := time.Now().Add(retryFor)
	wait := 10 * time.Millisecond
	for {
		err := f()
		if err == nil || !isBusy(err) || time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
		wait = min(2*wait, time.Second)
	}
}

func isBusy(err error) bool {
	s := err.Error()
	return strings.Contains(s, "database is locked") || strings.Contains(s, "SQLITE_BUSY") ||
		strings.Contains(s, "database table is locked")
}

// Fingerprint returns the sha256 of the file at path. The hash is computed
// once and remembered by absolute path, size and modification time, so a
// file replaced in place is hashed again.
func (c *Cache) Fingerprint(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	st, err := os.Stat(abs)
	if err != nil {
		return "", fmt.Errorf("fingerprint: %w", err)
	}
	size, mtime := st.Size(), st.ModTime().UnixNano()
	var sum string
	err = c.db.QueryRow(`SELECT sha256 FROM fingerprints WHERE path = ? AND size = ? AND mtime_ns = ?`,
		abs, size, mtime).Scan(&sum)
	if err == nil {
		return sum, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("cache %s: %w", c.path, err)
	}
	sum, err = filehash.SHA256(context.Background(), abs)
	if err != nil {
		return "", err
	}
	err = retry(context.Background(), func() error {
		_, err := c.db.Exec(`INSERT OR REPLACE INTO fingerprints(path, size, mtime_ns, sha256) VALUES (?, ?, ?, ?)`,
			abs, size, mtime, sum)
		return err
	})
	if err != nil {
		return "", fmt.Errorf("cache %s: %w", c.path, err)
	}
	return sum, nil
}

// Identity is what makes two models give the same answers.
type Identity struct {
	Backend string `json:"backend"`
	// Fingerprint is the sha256 of the model file; empty for backends
	// without one.
	Fingerprint string `json:"fingerprint,omitempty"`
	// Settings are every setting that changes answers (model_args other
	// than the file's path and thread counts, n_ctx, add_bos, chat
	// template, engine version...).
	Settings map[string]string `json:"settings"`
}

// Hash is the identity's key: the sha256 of its canonical JSON.
func (id Identity) Hash() string {
	b, _ := json.Marshal(id) // map keys marshal sorted
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// FileArgs are the model_args that name the model file. The file enters
// the identity by content, not by name.
var FileArgs = []string{"pretrained", "model", "path"}

// neutralArgs do not change answers. For remote backends which servers
// answer, and how, does not either (the identity has the model the
// servers report instead), and the API key is no business of the cache.
var neutralArgs = map[string]bool{
	"threads": true, "n_threads": true, "threads_batch": true, "n_threads_batch": true, "verbose": true,
	"base_url": true, "num_concurrent": true, "max_retries": true, "timeout": true, "api_key": true,
}

// AnswerArgs are the model_args that change answers: all but thread
// counts, servers and keys (the file's path is one: ModelIdentity puts
// the file's content in its place).
func AnswerArgs(args map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range args {
		if !neutralArgs[k] {
			out[k] = v
		}
	}
	return out
}

// ModelIdentity builds the identity of a backend's model from its
// model_args: the file named by pretrained (or model, path) is
// fingerprinted by content; every other argument except thread counts is a
// setting. extra adds settings the arguments do not show (the engine's
// version, the chat template in use).
func (c *Cache) ModelIdentity(backend string, args map[string]string, extra map[string]string) (Identity, error) {
	id := Identity{Backend: backend, Settings: AnswerArgs(args)}
	for _, k := range FileArgs {
		p, ok := args[k]
		if !ok {
			continue
		}
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			fp, err := c.Fingerprint(p)
			if err != nil {
				return Identity{}, err
			}
			id.Fingerprint = fp
			delete(id.Settings, k)
			break
		}
	}
	for k, v := range extra {
		id.Settings[k] = v
	}
	return id, nil
}

// RequestKey is the key of one request of a kind for the model with
// identity hash model.
func RequestKey(model, kind string, request any) ([]byte, error) {
	b, err := json.Marshal(request)
	if err != nil {
		return nil, err
	}
	h := sha256.New()
	for _, part := range [][]byte{[]byte(model), []byte(kind), b} {
		// length-prefixed, so no two tuples share an encoding
		fmt.Fprintf(h, "%d:", len(part))
		h.Write(part)
	}
	return h.Sum(nil), nil
}

// Summary summarises a cache's content.
type Summary struct {
	Path         string
	Size         int64          // bytes on disk, WAL included
	Responses    map[string]int // entries per request type
	Models       []ModelShare
	Fingerprints int
	Blobs        int // cached request sets (--cache_requests)
}

// ModelShare is one model's share of the cache.
type ModelShare struct {
	Hash     string
	Identity Identity
	Entries  int
}

// Summary reads the summary.
func (c *Cache) Summary() (Summary, error) {
	info := Summary{Path: c.path, Responses: map[string]int{}}
	for _, suffix := range []string{"", "-wal", "-shm"} {
		if st, err := os.Stat(c.path + suffix); err == nil {
			info.Size += st.Size()
		}
	}
	rows, err := c.db.Query(`SELECT kind, COUNT(*) FROM responses GROUP BY kind`)
	if err != nil {
		return info, err
	}
	for rows.Next() {
		var k string
		var n int
		if err := rows.Scan(&k, &n); err != nil {
			rows.Close()
			return info, err
		}
		info.Responses[k] = n
	}
	rows.Close()
	rows, err = c.db.Query(`SELECT m.model, m.identity, (SELECT COUNT(*) FROM responses r WHERE r.model = m.model) FROM models m`)
	if err != nil {
		return info, err
	}
	for rows.Next() {
		var mi ModelShare
		var js string
		if err := rows.Scan(&mi.Hash, &js, &mi.Entries); err != nil {
			rows.Close()
			return info, err
		}
		_ = json.Unmarshal([]byte(js), &mi.Identity)
		info.Models = append(info.Models, mi)
	}
	rows.Close()
	sort.Slice(info.Models, func(i, j int) bool { return info.Models[i].Entries > info.Models[j].Entries })
	if err := c.db.QueryRow(`SELECT COUNT(*) FROM fingerprints`).Scan(&info.Fingerprints); err != nil {
		return info, err
	}
	if err := c.db.QueryRow(`SELECT COUNT(*) FROM blobs`).Scan(&info.Blobs); err != nil {
		return info, err
	}
	return info, nil
}

// Clear deletes every entry and shrinks the file.
func (c *Cache) Clear() error {
	err := retry(context.Background(), func() error {
		tx, err := c.db.Begin()
		if err != nil {
			return err
		}
		for _, t := range []string{"responses", "models", "fingerprints", "blobs"} {
			if _, err := tx.Exec("DELETE FROM " + t); err != nil {
				tx.Rollback()
				return err
			}
		}
		return tx.Commit()
	})
	if err != nil {
		return fmt.Errorf("cache %s: %w", c.path, err)
	}
	_, err = c.db.Exec(`PRAGMA wal_checkpoint(TRUNCATE); VACUUM`)
	if err != nil && !isBusy(err) { // another process reading: the space is reclaimed later
		return fmt.Errorf("cache %s: %w", c.path, err)
	}
	return nil
}

// GetBlob returns the blob stored under key (--cache_requests' built
// requests); ok is false when there is none.
func (c *Cache) GetBlob(key string) (data []byte, ok bool, err error) {
	err = c.db.QueryRow(`SELECT value FROM blobs WHERE key = ?`, key).Scan(&data)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("cache %s: %w", c.path, err)
	}
	return data, true, nil
}

// PutBlob stores data under key, replacing any blob there.
func (c *Cache) PutBlob(key string, data []byte) error {
	err := retry(context.Background(), func() error {
		_, err := c.db.Exec(`INSERT OR REPLACE INTO blobs(key, value, created) VALUES (?, ?, ?)`,
			key, data, time.Now().Unix())
		return err
	})
	if err != nil {
		return fmt.Errorf("cache %s: %w", c.path, err)
	}
	return nil
}

// DeleteBlobs removes every blob whose key starts with prefix ("" for all)
// and reports how many went.
func (c *Cache) DeleteBlobs(prefix string) (int64, error) {
	var n int64
	err := retry(context.Background(), func() error {
		res, err := c.db.Exec(`DELETE FROM blobs WHERE substr(key, 1, ?) = ?`, len(prefix), prefix)
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("cache %s: %w", c.path, err)
	}
	return n, nil
}

// BlobKey derives a blob key from its parts (task name, task config hash,
// limit, shots, seed...): name, then the sha256 of the parts' JSON, so keys
// stay readable in listings yet change with any part.
func BlobKey(name string, parts ...any) (string, error) {
	b, err := json.Marshal(parts)
	if err != nil {
		return "", err
	}
	s := sha256.Sum256(b)
	return name + "-" + hex.EncodeToString(s[:16]), nil
}

// DefaultPath is where caches live when no path is given:
// $LMEVAL_CACHE_DIR, else the user cache directory's lmeval folder.
func DefaultPath(name string) string {
	dir := os.Getenv("LMEVAL_CACHE_DIR")
	if dir == "" {
		if d, err := os.UserCacheDir(); err == nil {
			dir = filepath.Join(d, "lmeval")
		} else {
			dir = filepath.Join(os.TempDir(), "lmeval")
		}
	}
	return filepath.Join(dir, name)
}

// MergeStats counts what Merge copied.
type MergeStats struct {
	// Responses copied, and those already here; Conflicts are responses
	// here whose value differs from the source's (the same request, the
	// same model identity: float noise of another batch layout). Ours
	// are kept.
	Responses, Present, Conflicts int64
	Models, Blobs                 int64
}

// Merge copies into c every entry of the cache database at src that c
// lacks: responses, model identities, request sets (--cache_requests)
// and file fingerprints. The shards of a sharded run each fill their own
// cache (--use_cache); merged, a later run — sharded differently, or not
// at all — finds every answer. Entries both have keep c's value.
func (c *Cache) Merge(ctx context.Context, src string) (MergeStats, error) {
	var st MergeStats
	if _, err := os.Stat(src); err != nil {
		return st, fmt.Errorf("cache %s: %w", src, err)
	}
	if abs, err := filepath.Abs(src); err == nil {
		if self, err := filepath.Abs(c.path); err == nil && abs == self {
			return st, fmt.Errorf("cache %s: merging a cache into itself", src)
		}
	}
	// ATTACH is per connection, and the pool has one: pin it.
	conn, err := c.db.Conn(ctx)
	if err != nil {
		return st, fmt.Errorf("cache %s: %w", c.path, err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `ATTACH DATABASE ? AS src`, src); err != nil {
		return st, fmt.Errorf("cache %s: %w", src, err)
	}
	defer conn.ExecContext(context.Background(), `DETACH DATABASE src`)
	// A file that is no cache fails here, naming the missing table.
	for _, t := range []string{"responses", "models", "fingerprints", "blobs"} {
		var n int
		if err := conn.QueryRowContext(ctx, `SELECT COUNT(*) FROM src.`+t).Scan(&n); err != nil {
			return st, fmt.Errorf("cache %s: not an lmeval cache: %w", src, err)
		}
	}
	err = retry(ctx, func() error {
		st = MergeStats{}
		tx, err := conn.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		defer tx.Rollback()
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*), COALESCE(SUM(m.value != s.value), 0)
			FROM src.responses s JOIN main.responses m ON m.key = s.key`).Scan(&st.Present, &st.Conflicts); err != nil {
			return err
		}
		copies := []struct {
			n    *int64
			stmt string
		}{
			{&st.Responses, `INSERT OR IGNORE INTO main.responses(key, model, kind, value) SELECT key, model, kind, value FROM src.responses`},
			{&st.Models, `INSERT OR IGNORE INTO main.models(model, identity) SELECT model, identity FROM src.models`},
			{&st.Blobs, `INSERT OR IGNORE INTO main.blobs(key, value, created) SELECT key, value, created FROM src.blobs`},
			{nil, `INSERT OR IGNORE INTO main.fingerprints(path, size, mtime_ns, sha256) SELECT path, size, mtime_ns, sha256 FROM src.fingerprints`},
		}
		for _, cp := range copies {
			r, err := tx.ExecContext(ctx, cp.stmt)
			if err != nil {
				return err
			}
			if cp.n != nil {
				*cp.n, _ = r.RowsAffected()
			}
		}
		return tx.Commit()
	})
	if err != nil {
		return MergeStats{}, fmt.Errorf("cache %s: merging %s: %w", c.path, src, err)
	}
	return st, nil
}
