#!/bin/sh
# Builds the example's image from nothing (no registry needed): a static busybox as the userland and the repository in
# /repo, imported into Podman or Docker as localhost/assay-example/calc:1.
#   sh examples/container-task/build-image.sh            # uses podman, else docker
#   ENGINE=docker sh examples/container-task/build-image.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
engine=${ENGINE:-$(command -v podman >/dev/null 2>&1 && echo podman || echo docker)}
busybox=$(command -v busybox)
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
mkdir -p "$root/bin" "$root/etc" "$root/tmp" "$root/proc" "$root/sys" "$root/dev" "$root/repo"
chmod 1777 "$root/tmp"
cp "$busybox" "$root/bin/busybox"
for applet in $("$busybox" --list); do
  [ "$applet" = busybox ] || ln -s busybox "$root/bin/$applet"
done
printf 'root:x:0:0::/:/bin/sh\nnobody:x:65534:65534::/:/bin/sh\n' > "$root/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' > "$root/etc/group"
echo "calc-image" > "$root/etc/image-marker"
cp -R "$here/repo/." "$root/repo/"
tar -C "$root" -c . | "$engine" import --change 'ENV PATH=/bin' - localhost/assay-example/calc:1
