package export

import (
	"encoding/json"
	"io"

	"tally/internal/series"
)

type jsonSample struct {
	Name   string            `json:"name"`
	Labels map[string]string `json:"labels"`
	Value  string            `json:"value"`
	Kind   string            `json:"kind"`
}

// WriteJSON writes reg's samples as JSON lines, in the order WriteProm uses.
func WriteJSON(w io.Writer, reg *series.Registry, opt Options) error {
	enc := json.NewEncoder(w)
	for _, s := range Samples(reg, opt) {
		if err := enc.Encode(jsonSample{Name: s.Name, Labels: s.Labels.Map(), Value: FormatValue(s.Value), Kind: s.Kind.String()}); err != nil {
			return err
		}
	}
	return nil
}
