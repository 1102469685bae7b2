package qos

import (
	"errors"
	"strings"
)

// Errors returned by Validate and CheckChange. They correspond to the DDS return codes of
// the same names (DDS 1.4 §2.2.1.1) and are matched with errors.Is; the returned errors
// are *PolicyError values naming the offending policy.
var (
	// ErrBadParameter reports a policy value out of its range: a negative duration, a
	// KEEP_LAST depth below 1, a resource limit that is neither positive nor
	// LengthUnlimited, an unknown kind.
	ErrBadParameter = errors.New("qos: bad parameter")
	// ErrInconsistentPolicy reports policies that are valid one by one but not together,
	// such as a history depth above max_samples_per_instance.
	ErrInconsistentPolicy = errors.New("qos: inconsistent policy")
	// ErrImmutablePolicy reports a change, after the entity is enabled, of a policy whose
	// "Changeable" column in DDS 1.4 §2.2.3 says NO.
	ErrImmutablePolicy = errors.New("qos: immutable policy")
)

// PolicyError is the error returned by Validate and CheckChange: which policy is at fault,
// why, and the sentinel (ErrBadParameter, ErrInconsistentPolicy or ErrImmutablePolicy) it
// unwraps to.
type PolicyError struct {
	// Policy is the policy at fault; for an inconsistent combination, the first of the two.
	Policy PolicyID
	// Reason says what is wrong, e.g. "depth 5 > max_samples_per_instance 2".
	Reason string
	// Err is the sentinel error.
	Err error
}

// Error returns e.g. "qos: inconsistent policy: History: depth 5 > max_samples_per_instance 2".
func (e *PolicyError) Error() string {
	var b strings.Builder
	b.WriteString(e.Err.Error())
	b.WriteString(": ")
	b.WriteString(e.Policy.String())
	if e.Reason != "" {
		b.WriteString(": ")
		b.WriteString(e.Reason)
	}
	return b.String()
}

// Unwrap returns the sentinel error.
func (e *PolicyError) Unwrap() error { return e.Err }

func badParameter(id PolicyID, reason string) error {
	return &PolicyError{Policy: id, Reason: reason, Err: ErrBadParameter}
}

func inconsistent(id PolicyID, reason string) error {
	return &PolicyError{Policy: id, Reason: reason, Err: ErrInconsistentPolicy}
}
