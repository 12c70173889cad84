//go:build tools

// The recipe module that pins promtool's dependencies: go.mod and go.sum name every module of
// github.com/prometheus/prometheus/cmd/promtool at the version in local/promtool/versions.ts, so
// the build (local/promtool/build-promtool.ts) fetches exactly these from the Go module proxy.
package tools

import _ "github.com/prometheus/prometheus/cmd/promtool"
