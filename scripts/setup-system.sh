#!/usr/bin/env bash
# System set-up for a fresh Debian/Ubuntu machine: installs the Debian packages the tests need when
# they are missing — Prometheus (the monitoring integration test) and Chromium (the live page's
# browser tests, driven headless by puppeteer-core). Idempotent and non-interactive; run as root,
# or as a user with sudo. Node 20 and npm are assumed present.
set -euo pipefail

missing=()
command -v prometheus >/dev/null 2>&1 || missing+=(prometheus)
command -v chromium >/dev/null 2>&1 || missing+=(chromium)

if [ "${#missing[@]}" -eq 0 ]; then
  echo "setup-system: prometheus and chromium already installed ($(command -v prometheus), $(command -v chromium))"
  exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
  as_root=()
elif command -v sudo >/dev/null 2>&1; then
  as_root=(sudo -n)
else
  echo "setup-system: ${missing[*]} missing and this is not root and has no sudo; install the Debian package(s) '${missing[*]}' as root" >&2
  exit 1
fi

echo "setup-system: installing the Debian package(s) ${missing[*]}"
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
for package in "${missing[@]}"; do
  # Without systemd the prometheus package's init script may have started a daemon on :9090; the
  # tests run their own Prometheus, so stop any service the install started.
  if [ "$package" = prometheus ] && command -v service >/dev/null 2>&1 && [ ! -d /run/systemd/system ]; then
    "${as_root[@]}" service prometheus stop >/dev/null 2>&1 || true
  fi
  command -v "$package" >/dev/null 2>&1 || { echo "setup-system: $package is still not on PATH after the install" >&2; exit 1; }
done
echo "setup-system: installed $(prometheus --version 2>&1 | head -n 1); $(chromium --version 2>&1 | head -n 1)"
