#!/usr/bin/env bash
# Builds Cairn's container image with podman where no container registry is reachable:
# deploy/Containerfile itself, with local stand-ins for the two images it starts from.
#
#   scripts/build-image.sh [IMAGE]       (default localhost/cairn:latest)
#
#   - the server jar: ./cairn builds it when it is missing or older than the sources;
#   - DEBIAN_IMAGE (debian:bookworm-slim): a Debian bookworm root file system that mmdebstrap makes
#     from Debian's packages (variant minbase, documentation left out as the slim image does, with
#     bookworm-updates and bookworm-security), kept in $CAIRN_IMAGE_CACHE (default
#     /var/tmp/cairn-image) and made again when it is older than $CAIRN_BASE_MAX_DAYS (7) days, so
#     security updates arrive;
#   - JDK_IMAGE (eclipse-temurin:25-jdk): that root file system with the local JDK
#     ($JAVA_HOME, as scripts/find-jdk.sh finds it) at /opt/java/openjdk, as the Temurin image
#     has it; the Containerfile's runtime stage links the image's Java runtime from it.
# podman build runs with --pull=never, so nothing comes from a registry. Images are rebuilt only
# from what changed (podman's layer cache; a base is imported again only when its file changed).
# Needs root, podman and mmdebstrap (Debian packages; runc too where crun cannot run containers,
# see scripts/podman-options.sh).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
# shellcheck source=scripts/podman-options.sh
source scripts/podman-options.sh
image="${1:-localhost/cairn:latest}"
cache="${CAIRN_IMAGE_CACHE:-/var/tmp/cairn-image}"
max_days="${CAIRN_BASE_MAX_DAYS:-7}"
mirror="${CAIRN_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
security="${CAIRN_DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security}"
debian_image=localhost/cairn-base/debian:bookworm-slim
jdk_image=localhost/cairn-base/jdk:25
for tool in podman mmdebstrap; do
    command -v "$tool" >/dev/null ||
        { echo "build-image: $tool is missing (apt-get install $tool)" >&2; exit 1; }
done
start=$SECONDS

# 1. The server jar (and JAVA_HOME, the JDK the launcher builds with).
./cairn --version >/dev/null
JAVA_HOME="$(bash scripts/find-jdk.sh)"

# 2. Debian's root file system, as debian:bookworm-slim is made: no manuals, documentation (but
# the copyright files) or translations.
mkdir -p "$cache"
rootfs="$cache/debian-bookworm-slim.tar"
if [ -z "$(find "$rootfs" -mtime -"$max_days" 2>/dev/null)" ]; then
    echo "build-image: making the Debian root file system with mmdebstrap (about a minute)" >&2
    mmdebstrap --variant=minbase --format=tar --aptopt='Acquire::Retries "3"' \
        --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/info/*' \
        --dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-exclude=/usr/share/doc/*' \
        --dpkgopt='path-include=/usr/share/doc/*/copyright' \
        bookworm "$rootfs.part" \
        "deb $mirror bookworm main" "deb $mirror bookworm-updates main" \
        "deb $security bookworm-security main"
    mv "$rootfs.part" "$rootfs"
fi
# Imported again only when the file changed: a new base image means a new image built on it.
digest=$(sha256sum "$rootfs" | cut -c1-16)
if [ "$("${podman_cmd[@]}" image inspect --format '{{index .Labels "dev.cairn.rootfs"}}' \
    "$debian_image" 2>/dev/null || true)" != "$digest" ]; then
    "${podman_cmd[@]}" import --change "LABEL dev.cairn.rootfs=$digest" --change 'CMD ["bash"]' \
        "$rootfs" "$debian_image" >/dev/null
fi

# 3. The JDK image: the Debian root file system and the local JDK, where Temurin's image has it.
# The JDK is copied with its symbolic links followed: a Debian-packaged JDK links
# lib/security/cacerts to /etc/ssl/certs/java/cacerts, which the image does not have (jlink fails).
jdk="$cache/jdk"
if ! cmp -s "$JAVA_HOME/release" "$jdk/release" || [ -n "$(find "$JAVA_HOME/lib/modules" -newer "$jdk/release")" ]; then
    rm -rf "$jdk"
    cp -rL --preserve=mode,timestamps "$JAVA_HOME" "$jdk"
fi
"${podman_cmd[@]}" build --quiet --pull=never "${podman_limits[@]}" -t "$jdk_image" \
    -f - "$jdk" >/dev/null <<EOF
FROM $debian_image
COPY . /opt/java/openjdk/
ENV JAVA_HOME=/opt/java/openjdk PATH=/opt/java/openjdk/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
EOF

# 4. The image, from deploy/Containerfile; its runtime stage tagged as well, so that what the next
# build can reuse of both stages is kept and the images this build replaced (labelled
# dev.cairn.image, nobody's parent any more: a 650 MB layer of caches per change of the jar) are
# removed.
build=("${podman_cmd[@]}" build --pull=never "${podman_limits[@]}"
    --build-arg "DEBIAN_IMAGE=$debian_image" --build-arg "JDK_IMAGE=$jdk_image" -f deploy/Containerfile)
"${build[@]}" --quiet --target runtime -t localhost/cairn-base/runtime:latest . >/dev/null
"${build[@]}" -t "$image" .
"${podman_cmd[@]}" image prune --force --filter label=dev.cairn.image >/dev/null
echo "build-image: $image built in $((SECONDS - start)) s" >&2
