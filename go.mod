module github.com/hc11mc/hc11mc

go 1.26.8

require (
	github.com/aclements/go-z3 v0.0.0-20220809013456-4675d5f90ca5
	github.com/cespare/xxhash/v2 v2.3.0
	github.com/spf13/cobra v1.10.1
	github.com/spf13/pflag v1.0.9
	github.com/yourbasic/graph v0.0.0-20210606180040-8ecfec1c2869
)

require github.com/inconshreveable/mousetrap v1.1.0 // indirect
