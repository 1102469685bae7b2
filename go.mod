module github.com/ddsgo/ddsgo

go 1.26.0

require (
	github.com/pion/logging v0.2.4
	github.com/pion/transport/v3 v3.1.1
	github.com/stretchr/testify v1.12.1
	go.etcd.io/bbolt v1.4.3
	go.uber.org/goleak v1.3.0
	golang.org/x/net v0.62.0
	golang.org/x/sys v0.49.0
)

require go.yaml.in/yaml/v3 v3.0.5 // indirect
