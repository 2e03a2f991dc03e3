#!/usr/bin/env bash
# Installs the peer that PeerBench compares Assay with: promptfoo 0.121.20 (the version the speed goals were set
# against), into bench/peer/node_modules, from the npm registry. Needs Node.js 20.20+ and npm.
set -euo pipefail
cd "$(dirname "$0")"
exec npm install --no-save --no-package-lock --no-audit --no-fund --prefix . promptfoo@0.121.20
