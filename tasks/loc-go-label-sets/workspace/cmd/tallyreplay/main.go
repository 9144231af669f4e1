// Command tallyreplay ingests capture files as one interval and prints the export.
//
//	tallyreplay -config tally.json capture.txt...
package main

import (
	"flag"
	"fmt"
	"os"

	"tally/internal/app"
	"tally/internal/capture"
	"tally/internal/config"
)

func main() {
	cfgPath := flag.String("config", "tally.json", "configuration file")
	verbose := flag.Bool("v", false, "print refused lines and the ingest counts on standard error")
	flag.Parse()
	cfg, err := config.Load(*cfgPath)
	if err != nil {
		fatal(err)
	}
	a, err := app.New(cfg)
	if err != nil {
		fatal(err)
	}
	for _, path := range flag.Args() {
		f, err := os.Open(path)
		if err != nil {
			fatal(err)
		}
		recs, err := capture.Read(f)
		f.Close()
		if err != nil {
			fatal(fmt.Errorf("%s: %w", path, err))
		}
		for _, r := range recs {
			if err := a.Ingest(r); err != nil && *verbose {
				fmt.Fprintf(os.Stderr, "%s: %v\n", path, err)
			}
		}
	}
	if err := a.Export(os.Stdout); err != nil {
		fatal(err)
	}
	if *verbose {
		a.Stats().Write(os.Stderr)
	}
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "tallyreplay:", err)
	os.Exit(1)
}
