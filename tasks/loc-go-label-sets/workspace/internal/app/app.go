// Package app wires tally together: a configuration's tenants, a registry, the
// ingest pipeline and the export.
package app

import (
	"fmt"
	"io"

	"tally/internal/capture"
	"tally/internal/config"
	"tally/internal/export"
	"tally/internal/ingest"
	"tally/internal/series"
	"tally/internal/tenant"
)

// App is one running tally.
type App struct {
	cfg      *config.Config
	reg      *series.Registry
	pipeline *ingest.Pipeline
}

// New makes an App of cfg.
func New(cfg *config.Config) (*App, error) {
	dir, err := tenant.NewDirectory(cfg.TenantSpecs())
	if err != nil {
		return nil, err
	}
	bounds, err := cfg.Bounds()
	if err != nil {
		return nil, err
	}
	reg := series.NewRegistry(bounds)
	return &App{cfg: cfg, reg: reg, pipeline: ingest.New(dir, reg)}, nil
}

// Ingest takes one record; a refused record is counted, not fatal.
func (a *App) Ingest(rec capture.Record) error {
	if err := a.pipeline.Ingest(rec.Tenant, rec.Line); err != nil {
		return fmt.Errorf("line %d: %w", rec.LineNo, err)
	}
	return nil
}

// Export writes the interval's series in the configured format.
func (a *App) Export(w io.Writer) error {
	opt := export.Options{Job: a.cfg.Export.Job}
	if a.cfg.Export.Format == "json" {
		return export.WriteJSON(w, a.reg, opt)
	}
	return export.WriteProm(w, a.reg, opt)
}

// Flush ends an interval: the next one starts with no series.
func (a *App) Flush() { a.reg.Reset() }

// Stats returns the ingest counts.
func (a *App) Stats() *ingest.Stats { return &a.pipeline.Stats }
