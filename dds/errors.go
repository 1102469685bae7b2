package dds

import (
	"errors"
	"fmt"

	"github.com/ddsgo/ddsgo/qos"
)

// The return codes of DDS 1.4 §2.2.1.1 other than OK. Every error the package returns
// matches one of them with errors.Is; errors about QoS policies also match the sentinel
// of package qos (qos.ErrInconsistentPolicy, ...) and can be unwrapped to a
// *qos.PolicyError naming the policy.
var (
	// ErrError is a generic error (ERROR).
	ErrError = errors.New("dds: error")
	// ErrUnsupported reports an operation or policy value that is not implemented
	// (UNSUPPORTED).
	ErrUnsupported = errors.New("dds: unsupported")
	// ErrBadParameter reports an illegal argument (BAD_PARAMETER).
	ErrBadParameter = errors.New("dds: bad parameter")
	// ErrPreconditionNotMet reports an operation that the entity's state does not allow,
	// such as deleting an entity that still contains entities (PRECONDITION_NOT_MET).
	ErrPreconditionNotMet = errors.New("dds: precondition not met")
	// ErrOutOfResources reports a resource limit reached (OUT_OF_RESOURCES).
	ErrOutOfResources = errors.New("dds: out of resources")
	// ErrNotEnabled reports an operation on an entity that is not enabled (NOT_ENABLED).
	ErrNotEnabled = errors.New("dds: not enabled")
	// ErrImmutablePolicy reports a change of a policy that may not change once the
	// entity is enabled (IMMUTABLE_POLICY).
	ErrImmutablePolicy = errors.New("dds: immutable policy")
	// ErrInconsistentPolicy reports policies that contradict each other
	// (INCONSISTENT_POLICY).
	ErrInconsistentPolicy = errors.New("dds: inconsistent policy")
	// ErrAlreadyDeleted reports an operation on a deleted entity (ALREADY_DELETED).
	ErrAlreadyDeleted = errors.New("dds: already deleted")
	// ErrTimeout reports that an operation did not complete in time (TIMEOUT).
	ErrTimeout = errors.New("dds: timeout")
	// ErrNoData reports a read or take that found no sample (NO_DATA).
	ErrNoData = errors.New("dds: no data")
	// ErrIllegalOperation reports an operation that may not be called in this context
	// (ILLEGAL_OPERATION).
	ErrIllegalOperation = errors.New("dds: illegal operation")
)

// codeError is a return code with details and an optional cause.
type codeError struct {
	code  error
	msg   string
	cause error
}

func (e *codeError) Error() string {
	if e.msg == "" {
		return e.code.Error()
	}
	return e.code.Error() + ": " + e.msg
}

func (e *codeError) Unwrap() []error {
	if e.cause == nil {
		return []error{e.code}
	}
	return []error{e.code, e.cause}
}

// errorf returns an error matching code with a formatted message.
func errorf(code error, format string, args ...any) error {
	return &codeError{code: code, msg: fmt.Sprintf(format, args...)}
}

// wrapErr returns an error matching code and cause, with a message.
func wrapErr(code error, cause error, what string) error {
	msg := what
	if cause != nil {
		if msg != "" {
			msg += ": "
		}
		msg += cause.Error()
	}
	return &codeError{code: code, msg: msg, cause: cause}
}

// qosErr maps an error of package qos to the return code of the same name, keeping it
// as the cause.
func qosErr(err error) error {
	if err == nil {
		return nil
	}
	code := ErrBadParameter
	switch {
	case errors.Is(err, qos.ErrInconsistentPolicy):
		code = ErrInconsistentPolicy
	case errors.Is(err, qos.ErrImmutablePolicy):
		code = ErrImmutablePolicy
	}
	var pe *qos.PolicyError
	if errors.As(err, &pe) {
		return &codeError{code: code, msg: pe.Policy.String() + ": " + pe.Reason, cause: err}
	}
	return &codeError{code: code, msg: err.Error(), cause: err}
}
