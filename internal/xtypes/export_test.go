package xtypes

// The Go forms of interop::Sample and interop::SampleA for the external tests
// (capture_test.go imports internal/discovery, which imports this package).
type (
	InteropSample  = interopSample
	InteropSampleA = interopSampleA
)
