// Command relayd accepts events over HTTP and delivers them to a webhook.
package main

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"example.com/relay/internal/api"
	"example.com/relay/internal/config"
	"example.com/relay/internal/event"
	"example.com/relay/internal/logx"
	"example.com/relay/internal/metrics"
	"example.com/relay/internal/ratelimit"
	"example.com/relay/internal/relay"
	"example.com/relay/internal/store"
)

func main() {
	path := flag.String("config", "config/relay.json", "configuration file")
	flag.Parse()
	if err := run(*path); err != nil {
		fmt.Fprintln(os.Stderr, "relayd:", err)
		os.Exit(1)
	}
}

func run(path string) error {
	cfg, err := config.Load(path)
	if err != nil {
		return err
	}
	level, _ := logx.ParseLevel(cfg.LogLevel)
	log := logx.New(os.Stderr, level)
	reg := metrics.NewRegistry()

	var st store.Store = store.NewMemory(nil)
	if cfg.Journal != "" {
		f, err := os.OpenFile(cfg.Journal, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			return err
		}
		defer f.Close()
		st = &store.Journal{Inner: st, W: f}
	}

	opts := cfg.ServiceOptions(cfg.HTTPSink())
	opts.Store = st
	opts.Metrics = reg
	opts.Log = log
	opts.DeadLetter = func(e event.Event, attempts int, err error) {
		log.Warn("dead letter", map[string]any{"id": e.ID, "key": e.Key, "attempts": attempts, "error": err})
	}
	svc, err := relay.New(opts)
	if err != nil {
		return err
	}

	srv := &http.Server{
		Addr:              cfg.Listen,
		ReadHeaderTimeout: 10 * time.Second,
		Handler: (&api.Server{
			Svc:     svc,
			Limiter: &ratelimit.Limiter{Rate: cfg.Limits.PerTenantRate, Burst: cfg.Limits.Burst},
			Metrics: reg,
			Log:     log,
		}).Handler(),
	}
	errs := make(chan error, 1)
	go func() { errs <- srv.ListenAndServe() }()
	log.Info("listening", map[string]any{"addr": cfg.Listen, "workers": cfg.Workers})

	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	select {
	case err := <-errs:
		return err
	case <-sig:
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_ = srv.Shutdown(ctx)
	if err := svc.Drain(ctx); err != nil {
		log.Warn("drain incomplete", map[string]any{"pending": svc.Pending(), "error": err})
	}
	return svc.Close()
}
