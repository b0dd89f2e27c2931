#!/usr/bin/env bash
# Load test of `vignette serve` with wrk, nginx serving the same thumbnails as static files
# as the ceiling (what any server can do with the bytes already made).
#
#   bench/serve.sh                 uses bench/corpus/jpeg (bench/make-corpus.sh), release build
#   CORPUS_DIR=DIR bench/serve.sh  photos from DIR/jpeg
#   DURATION=10s CONNECTIONS=16 bench/serve.sh
#
# Measures, on loopback, 2 wrk threads against a server with --concurrency 2:
#   cached    GET /v1/thumbnail of the 32 photos at 256 px, every answer from --cache-dir
#   uncached  the same with size= 200-255 varied so no (photo, size) repeats: every request generates
#   nginx     the 32 cached thumbnail PNGs as static files (the ceiling)
#   memory    VmRSS after 1,000 and after 10,000 generating requests (no cache; counted by the
#             server's metrics, loaded in 1 s wrk runs, so a few more than that): the growth
# Needs: wrk, nginx (apt-get install wrk nginx-light).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
corpus=${CORPUS_DIR:-$top/bench/corpus}
duration=${DURATION:-10s}
connections=${CONNECTIONS:-16}
for tool in wrk nginx; do
  command -v "$tool" >/dev/null || { echo "bench/serve.sh needs $tool: apt-get install wrk nginx-light" >&2; exit 1; }
done
[[ -d "$corpus/jpeg" ]] || { echo "no photos in $corpus/jpeg: run bench/make-corpus.sh (or set CORPUS_DIR)" >&2; exit 1; }
cd "$top"
# The same build as the container's (scripts/install.sh with STATIC_STDLIB=1); VIGNETTE_BIN overrides.
if [[ -z "${VIGNETTE_BIN:-}" ]]; then
  PKG_CONFIG_PATH=$(scripts/release-pkg-config.sh)
  export PKG_CONFIG_PATH
  swift build -c release --static-swift-stdlib -Xlinker --no-export-dynamic --product vignette >/dev/null
  bin=$(swift build -c release --static-swift-stdlib -Xlinker --no-export-dynamic --show-bin-path)/vignette
else
  bin=$VIGNETTE_BIN
fi

work=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT
mkdir -p "$work/root" "$work/cache" "$work/static"
cp "$corpus"/jpeg/*.jpg "$work/root/"
ls "$work/root" > "$work/files.txt"
count=$(wc -l < "$work/files.txt")

# The Lua scripts: each request takes the next file; "uncached" also moves size on, so no
# (file, size) pair repeats within a run; "limit" stops each thread after LIMIT answers.
lua_paths=$(awk '{printf "%s\"%s\"", (NR>1?",":""), $0}' "$work/files.txt")
cat > "$work/cached.lua" <<LUA
local files = {$lua_paths}
local i = 0
request = function()
  i = i + 1
  return wrk.format("GET", "/v1/thumbnail?size=256&path=" .. files[(i % #files) + 1])
end
LUA
cat > "$work/uncached.lua" <<LUA
local files = {$lua_paths}
local i = 0
local seed = 0
setup = function(thread) seed = seed + 1; thread:set("offset", seed * 28 * #files) end
request = function()
  i = i + 1
  local n = offset + i
  return wrk.format("GET", "/v1/thumbnail?size=" .. (200 + (math.floor(n / #files) % 56)) .. "&path=" .. files[(n % #files) + 1])
end
LUA
cat > "$work/memory.lua" <<LUA
local files = {$lua_paths}
local i = 0
request = function()
  i = i + 1
  return wrk.format("GET", "/v1/thumbnail?size=" .. (128 + (i % 4) * 64) .. "&path=" .. files[(i % #files) + 1])
end
LUA
static_paths=$(seq 1 "$count" | awk '{printf "%s\"/t%d.png\"", (NR>1?",":""), $0}')
cat > "$work/static.lua" <<LUA
local files = {$static_paths}
local i = 0
request = function() i = i + 1; return wrk.format("GET", files[(i % #files) + 1]) end
LUA

start_serve() { # PORT ARGS... ; waits for "listening"
  local port=$1; shift
  "$bin" serve --port "$port" --root "$work/root" --concurrency 2 --queue 256 "$@" >"$work/serve-$port.out" 2>/dev/null &
  pids+=($!)
  for _ in $(seq 100); do grep -q listening "$work/serve-$port.out" 2>/dev/null && return 0; sleep 0.1; done
  echo "vignette serve did not start" >&2; exit 1
}
# Thumbnail requests answered so far, from the server's own metrics.
answered() { curl -s "http://127.0.0.1:$1/metrics" | awk '/^vignette_http_requests_total\{route="\/v1\/thumbnail"/ {n += $2} END {print n + 0}'; }
# Loads PORT in 1-second wrk runs until it has answered at least N thumbnail requests.
load_until() { while (( $(answered "$1") < $2 )); do wrk -t2 -c4 -d1s -s "$work/memory.lua" "http://127.0.0.1:$1" >/dev/null; done; }
rss_kb() { awk '/VmRSS/ {print $2}' "/proc/$1/status"; }
# "Requests/sec" and the 99% latency from wrk --latency output.
summary() { awk '/Requests\/sec/ {rps=$2} / 99%/ {p99=$2} /Non-2xx/ {bad=$NF} END {printf "%s req/s, p99 %s%s\n", rps, p99, (bad ? ", non-2xx " bad : "")}' "$1"; }

port=$((20000 + RANDOM % 20000))
start_serve "$port" --cache-dir "$work/cache"
serve_pid=${pids[-1]}
# Fill the cache: one request per photo.
while read -r f; do curl -sf -o /dev/null "http://127.0.0.1:$port/v1/thumbnail?size=256&path=$f"; done < "$work/files.txt"
# nginx will serve exactly these: the 256 px thumbnails the cache holds now.
i=0
for entry in $(find "$work/cache" -name '*.png' | sort); do i=$((i + 1)); cp "$entry" "$work/static/t$i.png"; done
[[ $i -eq $count ]] || { echo "expected $count cache entries, found $i" >&2; exit 1; }
wrk -t2 -c"$connections" -d"$duration" --latency -s "$work/cached.lua" "http://127.0.0.1:$port" > "$work/cached.txt"
echo "cached   (from --cache-dir): $(summary "$work/cached.txt")" >&2
wrk -t2 -c"$connections" -d"$duration" --latency -s "$work/uncached.lua" "http://127.0.0.1:$port" > "$work/uncached.txt"
echo "uncached (size varies):      $(summary "$work/uncached.txt")" >&2
kill -TERM "$serve_pid"; wait "$serve_pid" || true

# nginx: the same thumbnails as static files.
nport=$((port + 1))
cat > "$work/nginx.conf" <<NGINX
worker_processes 2;
pid $work/nginx.pid;
error_log $work/nginx-error.log;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path $work/nginx-tmp; proxy_temp_path $work/nginx-tmp; fastcgi_temp_path $work/nginx-tmp;
  uwsgi_temp_path $work/nginx-tmp; scgi_temp_path $work/nginx-tmp;
  types { image/png png; }
  server { listen 127.0.0.1:$nport; root $work/static; etag on; }
}
NGINX
mkdir -p "$work/nginx-tmp"
# nginx's workers run as www-data: let them read the files (mktemp made the dir 0700).
chmod 755 "$work" "$work/static"; chmod 644 "$work"/static/*
nginx -c "$work/nginx.conf" -g 'daemon off;' &
pids+=($!)
for _ in $(seq 50); do curl -sf -o /dev/null "http://127.0.0.1:$nport/t1.png" 2>/dev/null && break; sleep 0.1; done
wrk -t2 -c"$connections" -d"$duration" --latency -s "$work/static.lua" "http://127.0.0.1:$nport" > "$work/nginx.txt"
echo "nginx static (ceiling):      $(summary "$work/nginx.txt")" >&2

# Memory: a server without cache, so every request generates.
mport=$((port + 2))
start_serve "$mport"
mem_pid=${pids[-1]}
load_until "$mport" 1000
n1=$(answered "$mport"); rss1=$(rss_kb "$mem_pid")
echo "RSS after $n1 requests: $rss1 kB" >&2
load_until "$mport" 10000
n2=$(answered "$mport"); rss2=$(rss_kb "$mem_pid")
kill -TERM "$mem_pid"; wait "$mem_pid" || true

echo "vignette serve, $count photos (1.8-20 MP), 256 px PNG thumbnails; wrk -t2 -c$connections -d$duration; $(nproc) cores"
echo "cached   (from --cache-dir): $(summary "$work/cached.txt")"
echo "uncached (size varies):      $(summary "$work/uncached.txt")"
echo "nginx static (ceiling):      $(summary "$work/nginx.txt")"
c=$(awk '/Requests\/sec/ {print $2}' "$work/cached.txt")
n=$(awk '/Requests\/sec/ {print $2}' "$work/nginx.txt")
echo "cached / nginx: $(awk -v c="$c" -v n="$n" 'BEGIN {printf "%.2f", c / n}')"
echo "RSS after $n1 generating requests: $((rss1 / 1024)) MB; after $n2: $((rss2 / 1024)) MB; growth $(awk -v a="$rss1" -v b="$rss2" 'BEGIN {printf "%+.1f %%", (b - a) * 100 / a}')"
