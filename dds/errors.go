package dds

import (
	"errors"

	"github.com/ddsgo/ddsgo/internal/errs"

	"github.com/ddsgo/ddsgo/qos"
)

// The return codes of DDS 1.4 §2.2.1.1 other than OK. Every error the module returns
// for them (from dds, qos, waitset and the engine alike) matches one of these with
// errors.Is; a canceled or expired context is reported as the context's error,
// wrapped, never as ErrTimeout; errors about QoS policies can also be unwrapped to a
// *qos.PolicyError naming the policy.
var (
	// ErrError is a generic error (ERROR).
	ErrError = errs.ErrError
	// ErrUnsupported reports an operation or policy value that is not implemented
	// (UNSUPPORTED).
	ErrUnsupported = errs.ErrUnsupported
	// ErrBadParameter reports an illegal argument (BAD_PARAMETER).
	ErrBadParameter = errs.ErrBadParameter
	// ErrPreconditionNotMet reports an operation that the entity's state does not allow,
	// such as deleting an entity that still contains entities (PRECONDITION_NOT_MET).
	ErrPreconditionNotMet = errs.ErrPreconditionNotMet
	// ErrOutOfResources reports a resource limit reached (OUT_OF_RESOURCES).
	ErrOutOfResources = errs.ErrOutOfResources
	// ErrNotEnabled reports an operation on an entity that is not enabled (NOT_ENABLED).
	ErrNotEnabled = errs.ErrNotEnabled
	// ErrImmutablePolicy reports a change of a policy that may not change once the
	// entity is enabled (IMMUTABLE_POLICY).
	ErrImmutablePolicy = errs.ErrImmutablePolicy
	// ErrInconsistentPolicy reports policies that contradict each other
	// (INCONSISTENT_POLICY).
	ErrInconsistentPolicy = errs.ErrInconsistentPolicy
	// ErrAlreadyDeleted reports an operation on a deleted entity (ALREADY_DELETED).
	ErrAlreadyDeleted = errs.ErrAlreadyDeleted
	// ErrTimeout reports that an operation did not complete in time (TIMEOUT).
	ErrTimeout = errs.ErrTimeout
	// ErrNoData reports a read or take that found no sample (NO_DATA).
	ErrNoData = errs.ErrNoData
	// ErrIllegalOperation reports an operation that may not be called in this context
	// (ILLEGAL_OPERATION).
	ErrIllegalOperation = errs.ErrIllegalOperation
)

// errorf returns an error matching code with a formatted message.
func errorf(code error, format string, args ...any) error {
	return errs.New(code, format, args...)
}

// wrapErr returns an error matching code and cause, with a message.
func wrapErr(code error, cause error, what string) error { return errs.Wrap(code, cause, what) }

// qosErr gives an error of package qos the return code's message: qos errors already
// wrap the return codes of internal/errs (a *qos.PolicyError unwraps to one), so only
// the wording changes, the policy first.
func qosErr(err error) error {
	var pe *qos.PolicyError
	if errors.As(err, &pe) {
		return &errs.E{Code: pe.Err, Msg: pe.Policy.String() + ": " + pe.Reason, Cause: err}
	}
	return err
}
