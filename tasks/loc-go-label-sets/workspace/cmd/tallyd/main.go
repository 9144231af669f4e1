// Command tallyd reads samples (`<tenant> <line>`) on standard input and writes the
// export of each interval to a file, replaced atomically.
//
//	tallyd -config tally.json -out /var/lib/tally/metrics.prom
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"tally/internal/app"
	"tally/internal/capture"
	"tally/internal/config"
)

func main() {
	cfgPath := flag.String("config", "tally.json", "configuration file")
	out := flag.String("out", "metrics.prom", "export file")
	flag.Parse()
	cfg, err := config.Load(*cfgPath)
	if err != nil {
		fatal(err)
	}
	a, err := app.New(cfg)
	if err != nil {
		fatal(err)
	}
	var mu sync.Mutex
	done := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(os.Stdin)
		n := 0
		for sc.Scan() {
			n++
			text := strings.TrimSpace(sc.Text())
			i := strings.IndexAny(text, " \t")
			if i <= 0 {
				continue
			}
			mu.Lock()
			a.Ingest(capture.Record{Tenant: text[:i], Line: text[i+1:], LineNo: n})
			mu.Unlock()
		}
		close(done)
	}()
	tick := time.NewTicker(cfg.IntervalDuration())
	defer tick.Stop()
	for {
		select {
		case <-tick.C:
		case <-done:
		}
		mu.Lock()
		err := writeExport(a, *out)
		a.Flush()
		mu.Unlock()
		if err != nil {
			fmt.Fprintln(os.Stderr, "tallyd:", err)
		}
		select {
		case <-done:
			return
		default:
		}
	}
}

func writeExport(a *app.App, path string) error {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	if err := a.Export(f); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "tallyd:", err)
	os.Exit(1)
}
