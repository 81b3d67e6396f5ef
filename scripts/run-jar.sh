#!/usr/bin/env bash
# Runs Cairn's server jar with the JVM options each command needs: run-jar.sh JAR [ARGS...], with
# JAVA_HOME set. The ./cairn launcher runs it after building the jar; the container image has it as
# its entrypoint (deploy/Containerfile), so both start the jar the same way.
set -euo pipefail
jar="$1"
shift
target="$(cd "$(dirname "$jar")" && pwd)"
java="$JAVA_HOME/bin/java"
# the JDK's release file says its version without starting a JVM (find-jdk.sh read it too)
major=$(sed -n 's/^JAVA_VERSION="\([0-9][0-9]*\).*/\1/p' "$JAVA_HOME/release" 2>/dev/null || true)
[ -n "$major" ] || major=$("$java" -XshowSettings:properties -version 2>&1 |
    awk -F'= ' '/java.specification.version/ {print $2}' | cut -d. -f1)

opts=(-Dai.djl.offline=true --enable-native-access=ALL-UNNAMED)
# The commands that do real work; help, version and anything else (a typo) only print and exit,
# so they get neither the Vector API module (its warning would come first) nor an archive of
# their own (below).
real_commands=" serve ingest retrieve recall tune mcp eval export import migrate backup restore forget "
command_name=""
case "$real_commands" in *" ${1:-none} "*) command_name=$1 ;; esac
for arg in "$@"; do
    case "$arg" in
    --) break ;;
    -h | --help | -V | --version) command_name="" && break ;;
    esac
done
# The Vector API lets Lucene use SIMD for BM25 and vector dot products, and the encoder compute
# attention in Java (docs/embeddings.md). The JVM announces an incubator module on stderr at every
# start, so only the long-running commands load it; a quick `retrieve` or `--help` prints what was
# asked for and nothing else (and embeds with ATen's attention: the same vectors within rounding).
# That announcement is the one line this script takes out of their stderr (no JVM flag silences
# it): it would come before everything, also before a one-line error such as a busy port.
vector=""
case "$command_name" in serve | eval | ingest | mcp) vector=1 && opts+=(--add-modules jdk.incubator.vector) ;; esac
[ "$major" -ge 24 ] && opts+=(--sun-misc-unsafe-memory-access=allow)
# Class data sharing (JDK 19+): the classes a command loaded last time are mapped from an archive
# instead of being parsed and verified again. The JVM writes the archive when a run without one
# exits (a second or so, once). One archive per real command (serve loads other classes than
# retrieve; 8 to 40 MB each), beside the jar it belongs to; none for help, version or a mistyped
# command, and archives of words that are no command (left by earlier launchers) are deleted.
# CAIRN_CDS=0 turns it off. The JVM checks an archive against the JDK
# and the jars at start and runs without it when they differ, silently, but then does not write a
# new one; so an archive older than the jars or the JDK is deleted, as is one that is not a
# dynamic archive at all (its first four bytes are the magic 0xf00baba8), and the next exit writes
# a fresh one. Help, version and typos map an existing archive without writing one, and so does
# every command where the jar's directory is not writable (the container image, whose archive of
# serve was written when the image was built). It needs the
# JDK's own base archive (lib/server/classes.jsa; without it the JVM warns
# at every start). The JVM reports at error level, on standard output, that the JDK's archived
# module graph is not used with --add-modules and --enable-native-access (classes are still
# shared): the cds log is turned off so serve does not start with five lines of that.
if [ -w "$target" ]; then
    for archive in "$target"/cairn-*-jdk*.jsa; do
        word=${archive##*/cairn-}
        case "$real_commands" in *" ${word%-jdk*} "*) ;; *) [ -f "$archive" ] && rm -f "$archive" ;; esac
    done
fi
# An archive the JVM accepts: a dynamic archive newer than the jars and the JDK.
fresh() {
    [ -f "$1" ] && [ "$(od -A n -t x1 -N 4 "$1" 2>/dev/null | tr -d ' ')" = a8ab0bf0 ] &&
        [ -z "$(find "$jar" "$target/libs" "$JAVA_HOME/lib/modules" \
            -newer "$1" -print -quit 2>/dev/null)" ]
}
if [ "${CAIRN_CDS:-1}" != 0 ] && [ "$major" -ge 19 ] && [ -f "$JAVA_HOME/lib/server/classes.jsa" ]; then
    if [ -n "$command_name" ] && [ -w "$target" ]; then
        archive="$target/cairn-$command_name-jdk$major.jsa"
        fresh "$archive" || rm -f "$archive"
        opts+=(-XX:+AutoCreateSharedArchive "-XX:SharedArchiveFile=$archive" -Xlog:cds=off
            -Xlog:cds+dynamic=off)
        # writing it as the JVM exits takes seconds (10-20 s for serve's on a busy machine): the
        # command says so when it stops, instead of seeming to hang
        [ -f "$archive" ] || opts+=("-Dcairn.cds.writing=$archive")
    else
        # help, version, a typo or a read-only jar directory: the archive of the command named
        # (else retrieve's) is mapped read-only for the classes they share; none is written
        for word in "$(printf '%s' "${1:-}" | tr -cd 'a-z')" retrieve; do
            case "$real_commands" in *" $word "*) ;; *) continue ;; esac
            archive="$target/cairn-$word-jdk$major.jsa"
            if fresh "$archive"; then
                opts+=("-XX:SharedArchiveFile=$archive" -Xlog:cds=off -Xlog:cds+dynamic=off)
                break
            fi
        done
    fi
fi
if [ -n "$vector" ]; then
    # the filter ignores Ctrl-C and SIGTERM sent to the whole group (a terminal, systemd): it
    # ends when the JVM closes its stderr, so the lines a stopping server logs still get through
    exec "$java" "${opts[@]}" ${CAIRN_JAVA_OPTS:-} -jar "$jar" "$@" 2> >(
        trap '' INT TERM
        exec grep -v -x --line-buffered 'WARNING: Using incubator modules: jdk.incubator.vector' >&2)
fi
exec "$java" "${opts[@]}" ${CAIRN_JAVA_OPTS:-} -jar "$jar" "$@"
