module github.com/ddsgo/ddsgo/bench/ecs

go 1.26.0

replace github.com/ddsgo/ddsgo => ../..

require github.com/ddsgo/ddsgo v0.0.0-00010101000000-000000000000

require github.com/mlange-42/ark v0.8.1
