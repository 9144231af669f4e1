package buckets

import "testing"

func TestLinear(t *testing.T) {
	b, err := Linear(1, 2, 3)
	if err != nil || len(b) != 3 || b[2] != 5 {
		t.Fatal(b, err)
	}
}

func TestExponential(t *testing.T) {
	b, err := Exponential(1, 2, 4)
	if err != nil || b[3] != 8 {
		t.Fatal(b, err)
	}
}

func TestCheck(t *testing.T) {
	if Check(Default) != nil || Check([]float64{2, 1}) == nil || Check([]float64{1, 1}) == nil || Check(nil) == nil {
		t.Fatal("Check")
	}
}
