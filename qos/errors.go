package qos

import (
	"strings"

	"github.com/ddsgo/ddsgo/internal/errs"
)

// PolicyError is the error returned by Validate and CheckChange: which policy is at fault,
// why, and the return code of the module's one error vocabulary (the values dds exports
// as dds.ErrBadParameter, dds.ErrInconsistentPolicy and dds.ErrImmutablePolicy) it
// unwraps to:
//
//   - BAD_PARAMETER: a policy value out of its range (a negative duration, a KEEP_LAST
//     depth below 1, a resource limit that is neither positive nor LengthUnlimited, an
//     unknown kind);
//   - INCONSISTENT_POLICY: policies that are valid one by one but not together, such as
//     a history depth above max_samples_per_instance;
//   - IMMUTABLE_POLICY: a change, after the entity is enabled, of a policy whose
//     "Changeable" column in DDS 1.4 §2.2.3 says NO.
type PolicyError struct {
	// Policy is the policy at fault; for an inconsistent combination, the first of the two.
	Policy PolicyID
	// Reason says what is wrong, e.g. "depth 5 > max_samples_per_instance 2".
	Reason string
	// Err is the return code.
	Err error
}

// Error returns e.g. "dds: inconsistent policy: History: depth 5 > max_samples_per_instance 2".
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

// Unwrap returns the return code.
func (e *PolicyError) Unwrap() error { return e.Err }

func badParameter(id PolicyID, reason string) error {
	return &PolicyError{Policy: id, Reason: reason, Err: errs.ErrBadParameter}
}

func inconsistent(id PolicyID, reason string) error {
	return &PolicyError{Policy: id, Reason: reason, Err: errs.ErrInconsistentPolicy}
}
