# The machinery both type-id corpus scripts share (sourced, not run): download the packages,
# extract them, copy the listed files, and replace the output folder.
# Expects: packages (array), want_version (associative), files (lines "PACKAGE PATH"),
# cache (the .deb folder), out (the output folder), corpus_name (for the scratch folder).
# ---- download (skip when present)
for p in "${packages[@]}"; do
  if ! compgen -G "$cache/${p}_*.deb" >/dev/null; then
    # (as root apt warns that it downloads unsandboxed: only show apt's output when it fails)
    if ! err=$(cd "$cache" && apt-get download -q "$p" 2>&1 >/dev/null); then
      printf '%s\n' "$err" >&2
      echo "apt-get download $p failed (run apt-get update first?)" >&2
      exit 1
    fi
  fi
done

# ---- extract and copy into a fresh folder
work=$(mktemp -d "${TMPDIR:-/tmp}/$corpus_name.XXXXXX")
trap 'rm -rf "$work"' EXIT
new="$work/out"
mkdir -p "$new"
drift=0
for p in "${packages[@]}"; do
  debs=("$cache/${p}"_*.deb)
  deb=${debs[-1]}
  v=$(dpkg-deb -f "$deb" Version)
  if [[ $v != "${want_version[$p]}" ]]; then
    echo "note: $p is $v, the labels were made from ${want_version[$p]}" >&2
    drift=1
  fi
  mkdir -p "$work/x/$p"
  dpkg-deb -x "$deb" "$work/x/$p"
  dpkg-deb -e "$deb" "$work/x/$p/DEBIAN"
done
n=0
while read -r p f; do
  [[ -z $p || $p == \#* ]] && continue
  src="$work/x/$p/$f"
  if [[ ! -f $src || -L $src ]]; then echo "missing or not a regular file: $p $f" >&2; exit 1; fi
  d=$(dirname "$f"); b=$(basename "$f")
  mkdir -p "$new/$p/${d//\//__}"
  cp -p "$src" "$new/$p/${d//\//__}/$b"
  n=$((n + 1))
done <<<"$files"

# replace OUT_DIR only if it holds nothing but package folders of this list
declare -A known=()
for p in "${packages[@]}"; do known[$p]=1; done
for e in "$out"/* "$out"/.[!.]*; do
  [[ -e $e ]] || continue
  b=$(basename "$e")
  if [[ ! -d $e || -z ${known[$b]:-} ]]; then
    echo "$out holds $b, which this script did not make: not replacing it" >&2
    exit 1
  fi
done
rm -rf "$out"
mv "$new" "$out"
echo "wrote $out: $n files from ${#packages[@]} packages" >&2
[[ $drift == 0 ]] || echo "some package versions differ from the labelled ones (see notes above)" >&2
