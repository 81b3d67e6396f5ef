#!/usr/bin/env bash
# Runs the README's five-minute tour against a running server and checks what the README says
# each step answers: readme-tour.sh URL, with TOKEN set to an admin token, on a server without the
# tour's namespace (ops) yet. The commands are read
# from README.md itself (the bash block under "## Five-minute tour", without its first line, which
# sets CAIRN and TOKEN), so the README and this check cannot drift apart. Needs curl and jq, as the
# tour does. Prints one line per step; exits 1 at the first step that answers otherwise.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export CAIRN="${1:?usage: readme-tour.sh URL (with TOKEN set)}"
: "${TOKEN:?set TOKEN to an admin token of the server}"
export TOKEN
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
awk '/^## Five-minute tour/ { tour = 1 }
    tour && /^```bash/ { block = 1; next }
    block && /^```/ { exit }
    block { print }' "$root/README.md" >"$work/tour.sh"
head -n 1 "$work/tour.sh" | grep -q '^export CAIRN=' ||
    { echo "tour: README's tour no longer starts by setting CAIRN" >&2; exit 1; }
steps=$(grep -c '^# [0-9]\.' "$work/tour.sh")
[ "$steps" = 6 ] || { echo "tour: README's tour has $steps steps, this check knows 6" >&2; exit 1; }
(cd "$work" && tail -n +2 tour.sh | bash -euo pipefail >answers.txt)

# One answer per line, in the order of the steps.
answer() { sed -n "${1}p" "$work/answers.txt"; }
check() {
    local step="$1" what="$2" filter="$3"
    if answer "$step" | jq -e "$filter" >/dev/null 2>&1; then
        echo "tour: step $step: $what"
    else
        echo "tour: step $step should answer $what, answered: $(answer "$step" | cut -c1-600)" >&2
        exit 1
    fi
}
# what the README says after the arrow in step 2, exactly
ingested=$(sed -n 's/^# 2\..* -> \({.*}\)$/\1/p' "$work/tour.sh")
check 1 'the namespace ops' '.name == "ops"'
check 2 "$ingested" ". == $ingested"
check 3 'the Steps chunk first, with a trace id, plan "direct"' \
    '.hits[0].chunkId == "billing-cert-rotation#1" and (.traceId | length > 0) and .plan == "direct"'
check 4 'an ACTIVE memory of dana' '.status == "ACTIVE" and .userId == "dana"'
check 5 "dana's memory and an episodic context block" \
    '.memories[0].memory.userId == "dana" and (.context | startswith("## Episodic\n- [PREFERENCE "))'
check 6 'grounded, every claim cited' '.grounded == true and .citationCoverage == 1'
# the README's variant of step 6: "reload" instead of "restart" is no longer supported
sed -n '/^# 6\./,$p' "$work/tour.sh" | sed '/^#/d; s/then restart billing-api/then reload billing-api/' \
    >"$work/variant.sh"
(cd "$work" && { sed -n '2p' tour.sh; cat variant.sh; } | bash -euo pipefail >variant.txt)
if jq -e '.grounded == false' "$work/variant.txt" >/dev/null; then
    echo "tour: step 6 with reload: not grounded"
else
    echo "tour: step 6 with reload should not be grounded: $(cut -c1-600 "$work/variant.txt")" >&2
    exit 1
fi
