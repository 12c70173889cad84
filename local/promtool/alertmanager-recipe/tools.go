//go:build tools

// The recipe module that pins Alertmanager's amtool: go.mod and go.sum name every module it needs
// at the version in local/promtool/versions.ts, so the build (local/promtool/build-promtool.ts)
// fetches exactly these from the Go module proxy. (The alertmanager server itself cannot be built
// from the module: its web assets are not part of it.)
package tools

import _ "github.com/prometheus/alertmanager/cmd/amtool"
