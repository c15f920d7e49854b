package main

import (
	"context"
	"flag"
	"fmt"
	"math/rand"
	"net"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/lmeval/lmeval/backend/remote"
	"github.com/lmeval/lmeval/engine"
	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/serve"
)

var (
	serveClients = flag.String("serve-clients", "1,8,64", "concurrent clients of the `lmeval serve` benchmark (empty: skip it)")
	serveFleet   = flag.Int("serve-fleet", 2, "servers of the fleet row of the `lmeval serve` benchmark: one client given every server's base_url, with the most clients of -serve-clients (below 2: no fleet row)")
)

// benchServe measures `lmeval serve` on the multiple-choice workload: the
// remote backend (local-completions) with 1, 8, 64 concurrent clients
// against a server on loopback, both in this process, next to in-process
// Loglikelihood on the same model; then a fleet (docs/scale.md): one
// client given -serve-fleet servers' base_urls, each server with its own
// copy of the model. Tokens are the requests' context and continuation
// tokens; rates are per wall second (the server's work is spread over
// goroutines) and per CPU second of the process.
func benchServe(paths []string, c *config) error {
	if strings.TrimSpace(*serveClients) == "" {
		return nil
	}
	var clients []int
	for _, f := range strings.Split(*serveClients, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return fmt.Errorf("-serve-clients %q: want positive integers", *serveClients)
		}
		clients = append(clients, n)
	}
	fmt.Println()
	fmt.Println("| model | multiple choice via | requests/s | tokens/s (wall) | tokens/s (CPU) | vs in-process (wall) | engine calls |")
	fmt.Println("|---|---|---:|---:|---:|---:|---:|")
	for _, p := range paths {
		if err := benchServeModel(p, c, clients); err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
	}
	return nil
}

func benchServeModel(path string, c *config, clients []int) error {
	m, err := engine.Load(path, engine.Options{Threads: c.threads, NBatch: c.nBatch, NUBatch: c.nBatch})
	if err != nil {
		return err
	}
	defer m.Close()
	name := filepath.Base(path)
	ctx := context.Background()
	reqs, tokens, err := mcRequests(m, c)
	if err != nil {
		return err
	}
	in := make([]model.LoglikelihoodRequest, len(reqs))
	for i, r := range reqs {
		in[i] = model.LoglikelihoodRequest{Context: r.Context, Continuation: r.Continuation}
	}
	row := func(via string, cpu, wall time.Duration, base float64, calls string) float64 {
		rate := float64(tokens) / wall.Seconds()
		ratio := "1.00"
		if base > 0 {
			ratio = fmt.Sprintf("%.2f", rate/base)
		}
		fmt.Printf("| %s | %s | %.0f | %.0f | %.0f | %s | %s |\n", name, via, float64(len(reqs))/wall.Seconds(), rate,
			float64(tokens)/cpu.Seconds(), ratio, calls)
		return rate
	}
	cpu, wall, err := measure(c.reps, func() error {
		_, err := m.Loglikelihood(ctx, reqs)
		return err
	})
	if err != nil {
		return err
	}
	base := row("in-process run", cpu, wall, 0, "1")
	var closers []func()

	vocab, err := engine.Load(path, engine.Options{VocabOnly: true})
	if err != nil {
		return err
	}
	defer vocab.Close()
	// serveOn starts a server of e on loopback and returns its base_url
	// and its engine-call counter.
	serveOn := func(e *engine.Model) (string, func() int64, error) {
		srv := serve.New(serve.Options{})
		if err := srv.SetModel(serve.Model{Engine: e, SHA256: "bench", Tokenizer: vocab}); err != nil {
			srv.Close()
			return "", nil, err
		}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			srv.Close()
			return "", nil, err
		}
		hs := &http.Server{Handler: srv.Handler()}
		go hs.Serve(ln)
		closers = append(closers, func() { hs.Close(); srv.Close() })
		return "http://" + ln.Addr().String() + "/v1", func() int64 { return srv.Stats().Batches }, nil
	}
	defer func() {
		for _, f := range closers {
			f()
		}
	}()
	// through measures the remote backend against the servers at urls
	// with n concurrent clients.
	through := func(via string, urls []string, batches []func() int64, n int) error {
		count := func() int64 {
			t := int64(0)
			for _, b := range batches {
				t += b()
			}
			return t
		}
		before := count()
		cpu, wall, err := measure(c.reps, func() error {
			// A fresh client each time: its tokenization goes over HTTP too.
			lm, err := remote.New(ctx, model.Args{"base_url": strings.Join(urls, ","), "num_concurrent": strconv.Itoa(n)}, false)
			if err != nil {
				return err
			}
			_, err = lm.Loglikelihood(ctx, in)
			return err
		})
		if err != nil {
			return err
		}
		row(via, cpu, wall, base, fmt.Sprintf("%d", (count()-before)/int64(c.reps)))
		return nil
	}
	url, batches, err := serveOn(m)
	if err != nil {
		return err
	}
	for _, n := range clients {
		if err := through(fmt.Sprintf("`lmeval serve`, %d clients", n), []string{url}, []func() int64{batches}, n); err != nil {
			return err
		}
	}
	if *serveFleet < 2 {
		return nil
	}
	urls, counters := []string{url}, []func() int64{batches}
	for range *serveFleet - 1 {
		e, err := engine.Load(path, engine.Options{Threads: c.threads, NBatch: c.nBatch, NUBatch: c.nBatch})
		if err != nil {
			return err
		}
		closers = append(closers, func() { e.Close() })
		u, b, err := serveOn(e)
		if err != nil {
			return err
		}
		urls, counters = append(urls, u), append(counters, b)
	}
	n := slices.Max(clients)
	return through(fmt.Sprintf("fleet of %d `lmeval serve`, %d clients", len(urls), n), urls, counters, n)
}

// mcRequests is the multiple-choice workload of benchModel (mcQuestions);
// tokens counts context and continuation tokens.
func mcRequests(m *engine.Model, c *config) ([]engine.LoglikelihoodRequest, int, error) {
	mc, _ := mcQuestions(m, c, rand.New(rand.NewSource(42)))
	tokens := 0
	for _, req := range mc {
		ct, cont, err := m.EncodePair(req.Context, req.Continuation)
		if err != nil {
			return nil, 0, err
		}
		tokens += len(ct) + len(cont)
	}
	return mc, tokens, nil
}
