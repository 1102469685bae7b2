package sim

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestEqualValues: numbers within the tolerance, a missing value (nil) equal to the
// zero value of the other side only, and types that differ never equal.
func TestEqualValues(t *testing.T) {
	for _, tc := range []struct {
		name string
		a, b any
		want bool
	}{
		{"nil nil", nil, nil, true},
		{"bool", true, true, true},
		{"bool differs", true, false, false},
		{"nil false", nil, false, true},
		{"nil true", true, nil, false},
		{"bool string", true, "true", false},
		{"string", "a", "a", true},
		{"nil empty string", "", nil, true},
		{"string differs", "a", "b", false},
		{"float within tol", 1.0, 1.05, true},
		{"float beyond tol", 1.0, 1.2, false},
		{"nil zero float", nil, 0.0, true},
		{"nil small float", 0.05, nil, true},
		{"float string", 1.0, "1", false},
		{"msg", Msg{"x": 1.0}, Msg{"x": 1.0}, true},
		{"msg missing zero field", Msg{"x": 1.0, "y": 0.0}, Msg{"x": 1.0}, true},
		{"msg missing field", Msg{"x": 1.0}, Msg{"x": 1.0, "y": 2.0}, false},
		{"nil empty msg", nil, Msg{"x": 0.0, "s": ""}, true},
		{"nil msg", Msg{"x": 1.0}, nil, false},
		{"msg slice", Msg{}, []any{}, false},
		{"nested", Msg{"a": Msg{"b": []any{1.0, "s"}}}, Msg{"a": Msg{"b": []any{1.01, "s"}}}, true},
		{"slice", []any{1.0, true}, []any{1.0, true}, true},
		{"slice length", []any{1.0}, []any{1.0, 0.0}, false},
		{"nil empty slice", nil, []any{}, true},
		{"nil slice", []any{0.0}, nil, false},
		{"slice element", []any{1.0}, []any{2.0}, false},
		{"other type", 1, 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, equalValues(tc.a, tc.b, 0.1))
			require.Equal(t, tc.want, equalValues(tc.b, tc.a, 0.1))
		})
	}
}
