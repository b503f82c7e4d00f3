#!/usr/bin/env bash
# Builds the base images of the service images from Debian's packages, for machines that reach Debian's
# archive but no container registry (docs/deployment.md, "Images"):
#   vpki-base/jre:17-bookworm    openjdk-17-jre-headless; user vpki (10001:10001); what Jib builds the services on
#   vpki-base/redis:7.0-bookworm redis-server 7.0; user redis; what compose.yaml runs for each replica's Redis
#   vpki-base/prometheus:2.42-bookworm  Debian's prometheus (and promtool); what compose.yaml's Prometheus runs
# Each is `debootstrap --variant=minbase --include=<packages> bookworm`, cleaned of what a build leaves behind
# (logs, caches, apt lists, the host's resolv.conf), its file times clamped to SOURCE_DATE_EPOCH, packed into a
# tar with sorted names and numeric owners, and `docker import`ed. Run as root (debootstrap, chroot) with a
# Docker engine; about 3 min per image on a 2-core machine, most of it downloading and unpacking.
#
# Reproducible: the same package versions give the same root file system tar, hence the same layer digest
# (diff_id; the script prints it), and Jib, which builds on that layer and writes its own with fixed times, the same
# service image layers (not image ids: Jib copies the base history, which holds the import time).
# Not reproducible: which versions the mirror serves (pin a date with
# VPKI_DEBIAN_MIRROR=http://snapshot.debian.org/archive/debian/<YYYYMMDDTHHMMSSZ> where that host is reachable;
# the package list is written next to the tar and into a label to compare); the docker-imported image's own id
# (its config holds the import time); and the few files the packages' scripts make with random or current
# data, which the script reports (build twice: VPKI_BASE_COMPARE=1).
#
# Environment: VPKI_DEBIAN_MIRROR (http://deb.debian.org/debian), VPKI_DEBIAN_SUITE (bookworm),
# SOURCE_DATE_EPOCH (the last commit's time of deploy/images, else 1735689600), VPKI_BASE_WORK
# (target/base-images: root file systems, tars, package lists, the .deb cache), VPKI_BASE_ONLY (jre|redis|prometheus).
set -euo pipefail
cd "$(dirname "$0")/../.."
mirror=${VPKI_DEBIAN_MIRROR:-http://deb.debian.org/debian}
suite=${VPKI_DEBIAN_SUITE:-bookworm}
work=$(realpath -m "${VPKI_BASE_WORK:-target/base-images}")
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct -- deploy/images 2>/dev/null || true)}
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-1735689600}
export LC_ALL=C TZ=UTC
[[ $(id -u) == 0 ]] || { echo "build-base-images.sh: run as root (debootstrap and chroot need it)" >&2; exit 2; }
for tool in debootstrap docker tar sha256sum; do
  command -v "$tool" >/dev/null || { echo "build-base-images.sh: $tool missing (apt-get install -y debootstrap docker.io)" >&2; exit 2; }
done
docker info >/dev/null 2>&1 || { echo "build-base-images.sh: no Docker engine answers (docker info)" >&2; exit 2; }
mkdir -p "$work/debs"

# chroot_run ROOT COMMAND...: a command inside the new root, with /proc mounted for its duration
chroot_run() {
  local root=$1; shift
  mount -t proc proc "$root/proc"
  local rc=0
  SOURCE_DATE_EPOCH=$SOURCE_DATE_EPOCH chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
    SOURCE_DATE_EPOCH="$SOURCE_DATE_EPOCH" LC_ALL=C "$@" || rc=$?
  umount "$root/proc"
  return $rc
}

# rootfs NAME PACKAGES SETUP: debootstrap into $work/NAME/root, run SETUP inside, clean, write $work/NAME/rootfs.tar
rootfs() {
  local name=$1 packages=$2 setup=$3
  local dir="$work/$name" root="$work/$name/root"
  rm -rf "$dir"; mkdir -p "$dir"
  echo "== $name: debootstrap --variant=minbase --include=$packages $suite ($mirror)" >&2
  debootstrap --variant=minbase --include="$packages" --cache-dir="$work/debs" "$suite" "$root" "$mirror" \
    > "$dir/debootstrap.log" 2>&1 || { tail -20 "$dir/debootstrap.log" >&2; exit 1; }
  chroot_run "$root" /bin/sh -euc "$setup"
  chroot_run "$root" dpkg-query -W -f '${Package}=${Version}\n' | sort > "$dir/packages.txt"
  # what a build leaves behind and an image must not carry: caches, logs, apt lists, the host's name resolution
  rm -rf "$root"/var/cache/apt/* "$root"/var/lib/apt/lists/* "$root"/var/cache/debconf/*-old \
    "$root"/var/lib/dpkg/*-old "$root"/var/cache/ldconfig/aux-cache "$root"/debootstrap "$root"/tmp/* "$root"/var/tmp/* \
    "$root"/root/.bash_history
  find "$root/var/log" -type f -delete
  : > "$root/etc/resolv.conf"; : > "$root/etc/hostname"; rm -f "$root/etc/machine-id"
  rm -rf "$root"/dev/* "$root"/proc/* "$root"/sys/* "$root"/run/*
  # every file time clamped to SOURCE_DATE_EPOCH, names sorted, owners numeric, no atime/ctime headers
  find "$root" -depth -newermt "@$SOURCE_DATE_EPOCH" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
  tar --create --file "$dir/rootfs.tar" --directory "$root" --sort=name --numeric-owner --xattrs \
    --mtime="@$SOURCE_DATE_EPOCH" --clamp-mtime --pax-option=exthdr.name=%d/PaxHeaders/%f,delete=atime,delete=ctime .
  sha256sum "$dir/rootfs.tar" | cut -d' ' -f1 > "$dir/rootfs.sha256"
}

# import NAME TAG CHANGES...: docker import of $work/NAME/rootfs.tar with the given Dockerfile instructions
import() {
  local name=$1 tag=$2; shift 2
  local dir="$work/$name" args=()
  for change in "$@"; do args+=(--change "$change"); done
  args+=(--change "LABEL org.opencontainers.image.source=vpki/deploy/images/build-base-images.sh")
  args+=(--change "LABEL eu.vpki.base.packages-sha256=$(sha256sum < "$dir/packages.txt" | cut -d' ' -f1)")
  args+=(--change "LABEL eu.vpki.base.source-date-epoch=$SOURCE_DATE_EPOCH")
  docker import "${args[@]}" "$dir/rootfs.tar" "$tag" >/dev/null
  echo "$tag layer sha256:$(cat "$dir/rootfs.sha256") ($(wc -l < "$dir/packages.txt") packages: $dir/packages.txt)"
}

# compare NAME: rebuilds NAME's root file system and lists the files whose content differs from the first build
compare() {
  local name=$1 packages=$2 setup=$3
  mv "$work/$name" "$work/$name.first"
  rootfs "$name" "$packages" "$setup"
  if cmp -s "$work/$name.first/rootfs.tar" "$work/$name/rootfs.tar"; then
    echo "$name: two builds gave the same tar (sha256 $(cat "$work/$name/rootfs.sha256"))"
  else
    echo "$name: the two builds differ in:"
    diff <(cd "$work/$name.first/root" && find . -type f -exec sha256sum {} + | sort -k2) \
         <(cd "$work/$name/root" && find . -type f -exec sha256sum {} + | sort -k2) | sed -n 's/^> [0-9a-f]* */  /p'
  fi
  rm -rf "$work/$name.first"
}

jre_packages=openjdk-17-jre-headless,ca-certificates
jre_setup='
  groupadd --gid 10001 vpki
  useradd --uid 10001 --gid 10001 --home-dir /var/lib/vpki --no-create-home --shell /usr/sbin/nologin vpki
  # the working directory and the mount points of compose.yaml, owned by the service user: a named volume
  # starts with the ownership of the directory it is mounted on
  for d in /var/lib/vpki /data /pki /secrets; do install -d -o 10001 -g 10001 -m 0750 "$d"; done
  java -version'
redis_packages=redis-server
redis_setup='
  install -d -o redis -g redis -m 0750 /data
  redis-server --version'
prometheus_packages=prometheus
prometheus_setup='
  prometheus --version'

if [[ ${VPKI_BASE_ONLY:-jre} == jre ]]; then
  rootfs jre "$jre_packages" "$jre_setup"
  [[ -z ${VPKI_BASE_COMPARE:-} ]] || compare jre "$jre_packages" "$jre_setup"
  java_home=$(cd "$work/jre/root/usr/lib/jvm" && ls -d java-17-openjdk-* | head -n 1)
  import jre vpki-base/jre:17-$suite \
    "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" "ENV JAVA_HOME=/usr/lib/jvm/$java_home" \
    "ENV LANG=C.UTF-8" "USER 10001:10001" "WORKDIR /var/lib/vpki" 'CMD ["java", "-version"]'
fi
if [[ ${VPKI_BASE_ONLY:-redis} == redis ]]; then
  rootfs redis "$redis_packages" "$redis_setup"
  [[ -z ${VPKI_BASE_COMPARE:-} ]] || compare redis "$redis_packages" "$redis_setup"
  import redis vpki-base/redis:7.0-$suite \
    "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" "ENV LANG=C.UTF-8" \
    "USER redis" "WORKDIR /data" "EXPOSE 6379" 'CMD ["redis-server"]'
fi
if [[ ${VPKI_BASE_ONLY:-prometheus} == prometheus ]]; then
  rootfs prometheus "$prometheus_packages" "$prometheus_setup"
  [[ -z ${VPKI_BASE_COMPARE:-} ]] || compare prometheus "$prometheus_packages" "$prometheus_setup"
  import prometheus vpki-base/prometheus:2.42-$suite \
    "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" "ENV LANG=C.UTF-8" \
    "USER prometheus" "WORKDIR /var/lib/prometheus" "EXPOSE 9090" \
    'ENTRYPOINT ["prometheus"]' 'CMD ["--config.file=/etc/prometheus/prometheus.yml", "--storage.tsdb.path=/var/lib/prometheus/metrics2"]'
fi
