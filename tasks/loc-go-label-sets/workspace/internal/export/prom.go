package export

import (
	"bufio"
	"io"

	"tally/internal/series"
)

// WriteProm writes reg's series in Prometheus's text format: a # TYPE line before
// each family, then its samples.
func WriteProm(w io.Writer, reg *series.Registry, opt Options) error {
	bw := bufio.NewWriter(w)
	family := ""
	for _, s := range Samples(reg, opt) {
		if s.Family != family {
			family = s.Family
			bw.WriteString("# TYPE " + family + " " + s.Kind.String() + "\n")
		}
		bw.WriteString(s.Name)
		if len(s.Labels) > 0 {
			bw.WriteString(s.Labels.String())
		}
		bw.WriteByte(' ')
		bw.WriteString(FormatValue(s.Value))
		bw.WriteByte('\n')
	}
	return bw.Flush()
}
