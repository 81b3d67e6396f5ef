# Sourced by build-image.sh and test-image.sh: the podman options this host needs to run a
# container at all (both found on the Debian 12 sandbox these scripts were written on; elsewhere
# both arrays stay as plain as podman's defaults).
#
# podman_cmd: podman, with `--runtime runc` where the cgroup tree is v1 with a v2 hierarchy beside
#   it: Debian 12's crun 1.8 refuses such a host ("crun: cgroups in hybrid mode not supported, drop
#   all controllers from cgroupv2"), runc runs there.
# podman_limits: --ulimit values a process without CAP_SYS_RESOURCE (a sandbox's root) may set.
#   podman's defaults raise the limits (open files 1048576) and fail there ("setrlimit
#   `RLIMIT_NOFILE`: Operation not permitted"); conmon itself runs with a process limit of 32768, so
#   no container can ask for more (runc: "error setting rlimit type 6: operation not permitted").
podman_cmd=(podman)
if [ "$(stat -fc %T /sys/fs/cgroup 2>/dev/null)" = tmpfs ] && [ -d /sys/fs/cgroup/unified ] &&
    command -v runc >/dev/null; then
    podman_cmd+=(--runtime runc)
fi
podman_limits=()
capabilities=$(sed -n 's/^CapEff:[[:space:]]*//p' /proc/self/status)
if [ -n "$capabilities" ] && [ $(((16#$capabilities >> 24) & 1)) = 0 ]; then
    processes=$(ulimit -Hu)
    [ "$processes" = unlimited ] || [ "$processes" -gt 32768 ] && processes=32768
    podman_limits=(--ulimit "nofile=$(ulimit -Hn):$(ulimit -Hn)" --ulimit "nproc=$processes:$processes")
fi
