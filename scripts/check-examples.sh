#!/usr/bin/env bash
# Checks the deployment examples with the validators this machine can install:
#   docs/examples/kubernetes/dagnats.yaml  against Kubernetes' API schemas
#                                          (npm's kubernetes-models, fetched into
#                                          the git-ignored .tools/check-examples/)
#   docs/examples/systemd/dagnats.service  with systemd-analyze verify
# The chart values (nats-values.yaml) have no schema of the chart's to check
# against; KubernetesExampleTest reads them. A validator that cannot be had
# is named on one line and skipped; an example it finds wrong fails the script.
set -euo pipefail
cd "$(dirname "$0")/.."

status=0
dir=.tools/check-examples
if command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then
  if [ ! -d "$dir/node_modules/kubernetes-models" ] || [ ! -d "$dir/node_modules/yaml" ]; then
    mkdir -p "$dir"
    npm install --prefix "$dir" --no-audit --no-fund --silent kubernetes-models@5.1.0 yaml@2.9.1 >&2 \
      || echo "examples: cannot install kubernetes-models from npm; Kubernetes schema check skipped" >&2
  fi
  if [ -d "$dir/node_modules/kubernetes-models" ]; then
    cp scripts/check-examples.mjs "$dir/"
    node "$dir/check-examples.mjs" docs/examples/kubernetes/dagnats.yaml || status=1
  fi
else
  echo "examples: no node and npm; Kubernetes schema check skipped" >&2
fi
if command -v systemd-analyze >/dev/null 2>&1; then
  said=$(systemd-analyze verify docs/examples/systemd/dagnats.service 2>&1) || status=1
  if [ -n "$said" ]; then echo "$said"; status=1; else echo "docs/examples/systemd/dagnats.service: verified"; fi
else
  echo "examples: no systemd-analyze; unit check skipped" >&2
fi
exit $status
