//go:build (amd64 && go1.17 && !go1.28) || (arm64 && go1.20 && !go1.28)

package peers

// sonicNative reports whether this build links sonic's JIT encoder and
// decoder (the build constraint copies sonic v1.15.5's own, sonic.go).
const sonicNative = true
