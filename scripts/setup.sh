#!/usr/bin/env bash
# The README's set-up command: everything a fresh machine needs before `npm start` and `npm test`.
#   1. Debian packages the tests need (scripts/setup-system.sh: Prometheus, Chromium), when missing;
#   2. the npm packages, exactly as locked (`npm ci`), then the TypeScript compiled into dist/;
#   3. the Apache Kafka broker and a Confluent-compatible schema registry (Apicurio) for the integration tests, fetched from Maven Central with Maven
#      into .kafka/ (project-local; nothing is installed globally).
# Idempotent and non-interactive. Java 17 and Maven must be on the PATH (they are on this machine
# kind); the script says so clearly when they are not.
set -euo pipefail
cd "$(dirname "$0")/.."
for tool in node npm java mvn; do
  command -v "$tool" >/dev/null 2>&1 || { echo "setup: '$tool' is not on the PATH; install it first (Node 20, Java 17, Maven)" >&2; exit 1; }
done
bash scripts/setup-system.sh
npm ci --no-audit --no-fund
npm run build
npm run kafka:fetch
npm run schema-registry:fetch
