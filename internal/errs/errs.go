// Package errs holds the return codes of DDS 1.4 §2.2.1.1 as Go errors, in one place
// for the whole module. Package dds exports them (dds.ErrTimeout is Timeout); the
// packages below dds (qos, waitset, the engine) return errors that wrap them, so that
// errors.Is(err, dds.ErrTimeout) holds for an error from any package.
//
// A canceled or expired context is never reported as Timeout: the context's error is
// returned, wrapped.
package errs

import (
	"errors"
	"fmt"
)

// The return codes other than OK (DDS 1.4 §2.2.1.1).
var (
	ErrError              = errors.New("dds: error")
	ErrUnsupported        = errors.New("dds: unsupported")
	ErrBadParameter       = errors.New("dds: bad parameter")
	ErrPreconditionNotMet = errors.New("dds: precondition not met")
	ErrOutOfResources     = errors.New("dds: out of resources")
	ErrNotEnabled         = errors.New("dds: not enabled")
	ErrImmutablePolicy    = errors.New("dds: immutable policy")
	ErrInconsistentPolicy = errors.New("dds: inconsistent policy")
	ErrAlreadyDeleted     = errors.New("dds: already deleted")
	ErrTimeout            = errors.New("dds: timeout")
	ErrNoData             = errors.New("dds: no data")
	ErrIllegalOperation   = errors.New("dds: illegal operation")
)

// E is a return code with the details of one occurrence: what it concerns (entity,
// topic, policy) and, optionally, the error that caused it.
type E struct {
	Code  error
	Msg   string
	Cause error
}

func (e *E) Error() string {
	if e.Msg == "" {
		return e.Code.Error()
	}
	return e.Code.Error() + ": " + e.Msg
}

// Unwrap returns the code and the cause, so that errors.Is matches both.
func (e *E) Unwrap() []error {
	if e.Cause == nil {
		return []error{e.Code}
	}
	return []error{e.Code, e.Cause}
}

// New returns an error matching code with a formatted message.
func New(code error, format string, args ...any) error {
	return &E{Code: code, Msg: fmt.Sprintf(format, args...)}
}

// Wrap returns an error matching code and cause, with the message what: cause.
func Wrap(code, cause error, what string) error {
	msg := what
	if cause != nil {
		if msg != "" {
			msg += ": "
		}
		msg += cause.Error()
	}
	return &E{Code: code, Msg: msg, Cause: cause}
}

// Context returns the error of a context that ended: ctxErr (context.Canceled or
// context.DeadlineExceeded) wrapped with what was waited for. It never matches
// Timeout.
func Context(ctxErr error, what string) error {
	return fmt.Errorf("dds: %s: %w", what, ctxErr)
}
