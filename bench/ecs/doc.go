// Package ecs compares ecm with github.com/mlange-42/ark on the same workloads. It is
// a module of its own so that the library does not depend on ark. Run:
//
//	cd bench/ecs && go test -run '^$' -bench . -benchtime 3x
//
// Each benchmark has sub-benchmarks ecm and ark and reports ns/entity.
package ecs
