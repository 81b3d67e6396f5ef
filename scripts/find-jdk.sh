#!/usr/bin/env bash
# Prints the home of a JDK at least the pom's maven.compiler.release (the one place the floor is
# stated): $JAVA_HOME if it qualifies, else the newest under /usr/lib/jvm.
# Sourced by ./cairn and .ci/run; exits 1 with a one-line reason when there is none.
set -euo pipefail

# The JDK's release file names its version without starting a JVM (a tenth of a second each);
# a JDK without one is asked.
jdk_major() {
    local version
    version=$(sed -n 's/^JAVA_VERSION="\([0-9][0-9]*\).*/\1/p' "$1/release" 2>/dev/null || true)
    if [ -n "$version" ]; then
        echo "$version"
        return
    fi
    "$1/bin/java" -XshowSettings:properties -version 2>&1 \
        | awk -F'= ' '/java.specification.version/ {print $2}' | cut -d. -f1
}

floor=$(sed -n 's|.*<maven.compiler.release>\([0-9][0-9]*\)</maven.compiler.release>.*|\1|p' \
    "$(dirname "${BASH_SOURCE[0]}")/../pom.xml" 2>/dev/null | head -n 1 || true)
floor=${floor:-22}

candidates=()
[ -n "${JAVA_HOME:-}" ] && candidates+=("$JAVA_HOME")
for dir in $(ls -d /usr/lib/jvm/*/ 2>/dev/null | sort -rV); do candidates+=("${dir%/}"); done

for home in "${candidates[@]}"; do
    [ -x "$home/bin/java" ] && [ -x "$home/bin/javac" ] || continue
    major=$(jdk_major "$home" || echo 0)
    if [ "${major:-0}" -ge "$floor" ] 2>/dev/null; then
        echo "$home"
        exit 0
    fi
done
echo "cairn: no JDK >= $floor found (set JAVA_HOME or install one under /usr/lib/jvm)" >&2
exit 1
