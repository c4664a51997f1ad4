#!/usr/bin/env bash
# System set-up for a fresh Debian/Ubuntu machine: installs the Debian packages the tests need
# (Prometheus, for the monitoring integration test) when they are missing. Idempotent and
# non-interactive; run as root, or as a user with sudo. Node 20 and npm are assumed present.
set -euo pipefail

if command -v prometheus >/dev/null 2>&1; then
  echo "setup-system: prometheus already installed ($(command -v prometheus))"
  exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
  as_root=()
elif command -v sudo >/dev/null 2>&1; then
  as_root=(sudo -n)
else
  echo "setup-system: prometheus is missing and this is not root and has no sudo; install the Debian package 'prometheus' as root" >&2
  exit 1
fi

echo "setup-system: installing the Debian package prometheus"
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends prometheus
# Without systemd the package's init script may have started a daemon on :9090; the tests run
# their own Prometheus, so stop any service the install started.
if command -v service >/dev/null 2>&1 && [ ! -d /run/systemd/system ]; then
  "${as_root[@]}" service prometheus stop >/dev/null 2>&1 || true
fi
command -v prometheus >/dev/null 2>&1 || { echo "setup-system: prometheus is still not on PATH after the install" >&2; exit 1; }
echo "setup-system: installed $(prometheus --version 2>&1 | head -n 1)"
