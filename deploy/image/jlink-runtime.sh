#!/usr/bin/env bash
# Links a Java runtime of the modules Cairn's jars use: jlink-runtime.sh JAR OUTPUT, with JAVA_HOME
# (or java on the PATH) a JDK. Run by deploy/Containerfile's runtime stage.
#
# jdeps reads the jar and every jar its manifest names (libs/) and lists the JDK modules they
# reference; jdk.incubator.vector is named as well because the JVM is given it on the command line
# (scripts/run-jar.sh), whether or not a class refers to it. --strip-java-debug-attributes rather
# than --strip-debug, which also strips native symbols with binutils' objcopy, a tool a JDK image
# need not have ("Cannot run program objcopy"). --generate-cds-archive writes the
# runtime's own class-data archive (lib/server/classes.jsa), which the server's archive of its
# classes (written when the image is built) extends.
set -euo pipefail
jar="$1"
output="$2"
bin="${JAVA_HOME:+$JAVA_HOME/bin/}"
libs="$(dirname "$jar")/libs"
release=$("${bin}java" -XshowSettings:properties -version 2>&1 |
    awk -F'= ' '/java.specification.version/ {print $2}')
modules=$("${bin}jdeps" --print-module-deps --ignore-missing-deps --multi-release "$release" -q \
    --class-path "$libs/*" "$jar")
case ",$modules," in *,jdk.incubator.vector,*) ;; *) modules="$modules,jdk.incubator.vector" ;; esac
echo "jlink: $modules" >&2
"${bin}jlink" --add-modules "$modules" --strip-java-debug-attributes --no-man-pages \
    --no-header-files --generate-cds-archive --output "$output"
