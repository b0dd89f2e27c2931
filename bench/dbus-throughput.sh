#!/usr/bin/env bash
# The D-Bus thumbnailer (`vignette thumbnailer-service`, issue 15) against gdk-pixbuf-thumbnailer.
#
#   bench/dbus-throughput.sh      (CORPUS_DIR=… for another corpus; VIGNETTE_BIN=… for another binary)
#
# 1. The 32 photos of bench/corpus/jpeg at 256 px (`large`): one Queue call to the service on a
#    private session bus (activated and warm before the clock starts; the clock stops at its
#    Finished signal) against gdk-pixbuf-thumbnailer once per file, 2 in parallel (xargs -P2),
#    as a desktop's thumbnailer service without its own decoders would run it. Files/s.
# 2. Memory: 5,000 small JPEGs queued in 10 requests of 500; the service's resident set (VmRSS)
#    and peak (VmHWM) after the first 500 and after all 5,000: a queue that grows with the work
#    done would show here.
# Outputs go to /dev/shm (XDG_CACHE_HOME); the inputs are read once before timing.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
# Absolute: the files go to the service as file:// URIs.
CORPUS=$(cd "${CORPUS_DIR:-$HERE/corpus}" && pwd)
VIGNETTE=${VIGNETTE_BIN:-$HERE/../.build/release/vignette}
WORK=${OUTROOT:-/dev/shm/dbus-bench}
SMALL=${SMALL_FILES:-5000}   # part 2: this many files, in requests of 500
[[ -x $VIGNETTE ]] || (cd "$HERE/.." && swift build -c release --product vignette >/dev/null)
[[ -d $CORPUS/jpeg ]] || "$HERE/make-corpus.sh"
command -v gdk-pixbuf-thumbnailer >/dev/null && command -v dbus-daemon >/dev/null && command -v gdbus >/dev/null || {
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libgdk-pixbuf2.0-bin dbus-daemon libglib2.0-bin >/dev/null; }

rm -rf "$WORK"; mkdir -p "$WORK/services" "$WORK/gdk" "$WORK/small"
echo "# host: $(nproc) cores; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for name in Thumbnailer1 Cache1; do
  printf '[D-BUS Service]\nName=org.freedesktop.thumbnails.%s\nExec=%s thumbnailer-service --idle-timeout 600\n' "$name" "$VIGNETTE" \
    >"$WORK/services/org.freedesktop.thumbnails.$name.service"
done
cat >"$WORK/bus.conf" <<CONF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>session</type><listen>unix:dir=$WORK</listen><servicedir>$WORK/services</servicedir>
<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy></busconfig>
CONF
XDG_CACHE_HOME=$WORK/cache dbus-daemon --config-file="$WORK/bus.conf" --print-address=1 --nofork >"$WORK/address" 2>"$WORK/daemon.log" &
daemon=$!
monitor=
trap 'kill $daemon ${monitor:-} 2>/dev/null || true' EXIT
while [[ ! -s $WORK/address ]]; do sleep 0.05; done
export DBUS_SESSION_BUS_ADDRESS=$(head -1 "$WORK/address")
T1=(--session --dest org.freedesktop.thumbnails.Thumbnailer1 --object-path /org/freedesktop/thumbnails/Thumbnailer1)
gdbus call "${T1[@]}" --method org.freedesktop.thumbnails.Thumbnailer1.GetFlavors >/dev/null   # activates the service
pid=$(gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
  --method org.freedesktop.DBus.GetConnectionUnixProcessID org.freedesktop.thumbnails.Thumbnailer1 | sed -E 's/.*uint32 ([0-9]+).*/\1/')
gdbus monitor --session --dest org.freedesktop.thumbnails.Thumbnailer1 >"$WORK/monitor.log" &
monitor=$!
until grep -q "is owned by" "$WORK/monitor.log"; do sleep 0.05; done

uris() { python3 -c 'import sys,urllib.parse; print("[" + ", ".join("%r" % ("file://" + urllib.parse.quote(p, safe="/!$&()*+,=:@-._~")) for p in sys.argv[1:]) + "]")' "$@"; }
# Queues the files given, waits for Finished; prints the handle.
queue() {
  local handle
  handle=$(gdbus call "${T1[@]}" --method org.freedesktop.thumbnails.Thumbnailer1.Queue "$(uris "$@")" "[]" large default 0 | sed -E 's/.*uint32 ([0-9]+).*/\1/')
  until grep -q "Finished (uint32 $handle,)" "$WORK/monitor.log"; do sleep 0.01; done
  echo "$handle"
}
now() { date +%s%N; }

photos=("$CORPUS"/jpeg/*)
cat "${photos[@]}" >/dev/null
t0=$(now); queue "${photos[@]}" >/dev/null; t1=$(now)
made=$(ls "$WORK/cache/thumbnails/large" | wc -l)
svc=$(awk -v a="$t0" -v b="$t1" -v n="${#photos[@]}" 'BEGIN{printf "%.1f", n/((b-a)/1e9)}')
t0=$(now)
(cd "$CORPUS/jpeg" && ls | xargs -P2 -I{} gdk-pixbuf-thumbnailer -s 256 {} "$WORK/gdk/{}.png")
t1=$(now)
gdk=$(awk -v a="$t0" -v b="$t1" -v n="${#photos[@]}" 'BEGIN{printf "%.1f", n/((b-a)/1e9)}')
echo "photos: ${#photos[@]} (${made} thumbnails made by the service)"
echo "vignette thumbnailer-service, one Queue:        $svc files/s"
echo "gdk-pixbuf-thumbnailer per file, 2 in parallel: $gdk files/s"
awk -v a="$svc" -v b="$gdk" 'BEGIN{printf "ratio: %.2fx\n", a/b}'

# Memory: 10 requests of 500 small JPEGs (copies of one 640x480 image, each its own cache entry).
first=$(ls "$CORPUS"/jpeg/* | head -1)
"$VIGNETTE" thumbnail --size 640 --format jpeg -o "$WORK/seed.jpg" "$first" >/dev/null 2>&1 || cp "$first" "$WORK/seed.jpg"
for ((i = 0; i < SMALL; i++)); do d=$WORK/small/d$((i / 500)); mkdir -p "$d"; cp "$WORK/seed.jpg" "$d/s$i.jpg"; done
rss() { awk '/^VmRSS|^VmHWM/ {printf "%s %.1f MB  ", $1, $2/1024}' "/proc/$pid/status"; }
for ((batch = 0; batch < SMALL / 500; batch++)); do
  queue "$WORK"/small/d$batch/*.jpg >/dev/null
  if ((batch == 0)); then echo "after   500 files: $(rss)"; fi
done
echo "after $SMALL files: $(rss)"
echo "thumbnails in the cache: $(ls "$WORK/cache/thumbnails/large" | wc -l)"
