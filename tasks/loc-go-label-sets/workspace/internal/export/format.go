package export

import (
	"math"
	"strconv"
)

// FormatValue renders a sample value: shortest decimal, no exponent; NaN and the
// infinities as the text format spells them.
func FormatValue(v float64) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "+Inf"
	case math.IsInf(v, -1):
		return "-Inf"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}
