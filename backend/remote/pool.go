package remote

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// server is one inference server of the fleet.
type server struct {
	root        string // scheme://host[:port][/prefix], without /v1
	outstanding atomic.Int64
	mu          sync.Mutex
	downUntil   time.Time // after a failure the server is avoided until then
	backoff     time.Duration
	failures    int
}

func (s *server) available(now time.Time) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return !now.Before(s.downUntil)
}

// failed marks the server down for a while, doubling with each failure in
// a row.
func (s *server) failed(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failures++
	if s.backoff == 0 {
		s.backoff = 500 * time.Millisecond
	} else {
		s.backoff = min(2*s.backoff, 30*time.Second)
	}
	s.downUntil = time.Now().Add(s.backoff)
	slog.Warn("server failed; trying others", "server", s.root, "err", err, "avoided_for", s.backoff)
}

// wait is how long the server is still avoided.
func (s *server) wait() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return time.Until(s.downUntil)
}

// pause keeps requests off the server for d (it asked, with Retry-After).
func (s *server) pause(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if until := time.Now().Add(d); until.After(s.downUntil) {
		s.downUntil = until
	}
}

func (s *server) succeeded() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.backoff = 0
	s.downUntil = time.Time{}
}

// rootURL turns a base_url as lm-eval takes it (.../v1/completions,
// .../v1/chat/completions, .../v1 or the bare server) into the server's
// root.
func rootURL(u string) (string, error) {
	u = strings.TrimSpace(u)
	if !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://") {
		return "", fmt.Errorf("base_url %q: want http://HOST:PORT/v1 (or .../v1/completions)", u)
	}
	u = strings.TrimRight(u, "/")
	for _, suf := range []string{"/v1/chat/completions", "/v1/completions", "/chat/completions", "/completions", "/v1"} {
		if s, ok := strings.CutSuffix(u, suf); ok {
			u = s
			break
		}
	}
	return strings.TrimRight(u, "/"), nil
}

// pool sends requests to the least loaded available server, retrying on
// another when one fails, times out, answers garbage or is rate-limited.
type pool struct {
	servers  []*server
	client   *http.Client
	apiKey   string
	attempts int           // tries per request on one server set (max_retries)
	timeout  time.Duration // per attempt
	sem      chan struct{} // num_concurrent
}

// statusError is a server's non-2xx answer.
type statusError struct {
	server string
	status int
	body   string
	retry  time.Duration // Retry-After, for 429 and 503
}

func (e *statusError) Error() string {
	return fmt.Sprintf("%s: HTTP %d: %s", e.server, e.status, e.body)
}

// clientError reports whether the server refused the request itself (a
// 4xx other than 408 and 429): trying it elsewhere would not help.
func (e *statusError) clientError() bool {
	return e.status >= 400 && e.status < 500 && e.status != http.StatusTooManyRequests && e.status != http.StatusRequestTimeout
}

// pick returns the available server with the fewest requests in flight,
// skipping those in avoid unless nothing else is left; when every server
// is down, the one back soonest.
func (p *pool) pick(avoid map[*server]bool) *server {
	now := time.Now()
	var best *server
	for pass := 0; pass < 2 && best == nil; pass++ {
		for _, s := range p.servers {
			if (pass == 0 && avoid[s]) || !s.available(now) {
				continue
			}
			if best == nil || s.outstanding.Load() < best.outstanding.Load() {
				best = s
			}
		}
	}
	if best == nil {
		for _, s := range p.servers {
			s.mu.Lock()
			du := s.downUntil
			s.mu.Unlock()
			if best == nil || du.Before(best.downUntil) {
				best = s
			}
		}
	}
	return best
}

// post sends body as JSON to path on some server and decodes the answer
// into out (a fresh value per attempt: newOut), checking it with valid.
// It returns the server that answered.
func (p *pool) post(ctx context.Context, path string, body any, out func() any, valid func(any) error) (any, *server, error) {
	data, err := json.Marshal(body)
	if err != nil {
		return nil, nil, err
	}
	select {
	case p.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, nil, ctx.Err()
	}
	defer func() { <-p.sem }()
	avoid := map[*server]bool{}
	// max_retries tries, and one more on each other server, so a dead
	// server costs its requests one retry each.
	tries := p.attempts + len(p.servers) - 1
	var last error
	for try := 0; try < tries; try++ {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		s := p.pick(avoid)
		// Every server is avoided (all failed lately): wait for the one
		// back soonest, so a lone server that restarts gets a moment.
		if wait := s.wait(); wait > 0 {
			select {
			case <-time.After(wait):
			case <-ctx.Done():
				return nil, nil, ctx.Err()
			}
		}
		v := out()
		err := p.once(ctx, s, http.MethodPost, path, data, v)
		if err == nil && valid != nil {
			if verr := valid(v); verr != nil {
				err = fmt.Errorf("%s%s: malformed answer: %w", s.root, path, verr)
			}
		}
		if err == nil {
			s.succeeded()
			return v, s, nil
		}
		if ctx.Err() != nil {
			return nil, nil, ctx.Err()
		}
		last = err
		var se *statusError
		if errors.As(err, &se) {
			if se.clientError() {
				return nil, s, err
			}
			if se.retry > 0 {
				// Rate-limited: wait as asked (bounded), and prefer others.
				wait := min(se.retry, 60*time.Second)
				slog.Debug("server asks to retry later", "server", s.root, "after", wait)
				s.pause(wait)
				avoid[s] = true
				if len(p.servers) == 1 || !p.othersAvailable(s) {
					select {
					case <-time.After(wait):
					case <-ctx.Done():
						return nil, nil, ctx.Err()
					}
				}
				continue
			}
		}
		s.failed(err)
		avoid[s] = true
	}
	return nil, nil, fmt.Errorf("after %d tries: %w", tries, last)
}

func (p *pool) othersAvailable(not *server) bool {
	now := time.Now()
	for _, s := range p.servers {
		if s != not && s.available(now) {
			return true
		}
	}
	return false
}

// once makes one attempt on server s.
func (p *pool) once(ctx context.Context, s *server, method, path string, body []byte, out any) error {
	s.outstanding.Add(1)
	defer s.outstanding.Add(-1)
	ctx, cancel := context.WithTimeout(ctx, p.timeout)
	defer cancel()
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, s.root+path, rd)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if p.apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+p.apiKey)
	}
	resp, err := p.client.Do(req)
	if err != nil {
		return fmt.Errorf("%s%s: %w", s.root, path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 1<<30))
	if err != nil {
		return fmt.Errorf("%s%s: reading the answer: %w", s.root, path, err)
	}
	if resp.StatusCode/100 != 2 {
		se := &statusError{server: s.root + path, status: resp.StatusCode, body: errorMessage(data)}
		if ra := resp.Header.Get("Retry-After"); ra != "" && (resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable) {
			if secs, err := strconv.ParseFloat(ra, 64); err == nil && secs >= 0 {
				se.retry = max(time.Duration(secs*float64(time.Second)), time.Millisecond)
			} else if t, err := http.ParseTime(ra); err == nil {
				se.retry = max(time.Until(t), time.Millisecond)
			}
		}
		return se
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("%s%s: malformed JSON answer: %w", s.root, path, err)
	}
	return nil
}

// get fetches path from server s (no retries on other servers: the
// answer is about s), each try bounded by 30 seconds at most: these are
// the start's questions, which a live server answers at once.
func (p *pool) get(ctx context.Context, s *server, path string, out any) error {
	var last error
	q := *p
	q.timeout = min(p.timeout, 30*time.Second)
	for try := 0; try < p.attempts; try++ {
		last = q.once(ctx, s, http.MethodGet, path, nil, out)
		if last == nil {
			return nil
		}
		var se *statusError
		if errors.As(last, &se) && se.clientError() {
			return last
		}
		if se != nil && se.retry > 0 {
			select {
			case <-time.After(min(se.retry, 60*time.Second)):
			case <-ctx.Done():
				return ctx.Err()
			}
		}
	}
	return last
}

// errorMessage extracts an OpenAI-style error message, else the body.
func errorMessage(body []byte) string {
	var e struct {
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &e) == nil && e.Error.Message != "" {
		return e.Error.Message
	}
	s := strings.TrimSpace(string(body))
	if len(s) > 300 {
		s = s[:300] + "..."
	}
	return s
}
