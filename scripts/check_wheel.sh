#!/usr/bin/env bash
# Build the manylinux abi3 wheel and prove that it installs and runs with no Rust.
#
#   scripts/check_wheel.sh            # build (dist profile: fat LTO, minutes), then check
#   SIGFAST_WHEEL=path.whl scripts/check_wheel.sh   # check an existing wheel
#
# Steps:
#   1. a build venv (.venv-wheel) with maturin, ziglang and auditwheel (only
#      auditwheel when SIGFAST_WHEEL names a wheel built elsewhere, as in CI);
#   2. `maturin build --profile dist --zig --compatibility manylinux2014`: zig links
#      against glibc 2.17 symbols, so the wheel is tagged manylinux_2_17 even on a
#      newer host (a plain build here links glibc 2.34 symbols and is not);
#   3. the tag is read from the wheel's WHEEL file and checked (cp310-abi3,
#      manylinux, this machine's arch), and auditwheel shows what it finds;
#   4. a fresh venv, a PATH with no cargo/rustc on it, `pip install
#      --only-binary=:all:` of the wheel, then `sigfast demo -n 10000` and
#      `import sigfast`, run from outside the checkout.
# Exit status is non-zero at the first failed step.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
BUILD_VENV="${SIGFAST_BUILD_VENV:-$ROOT/.venv-wheel}"
OUT_DIR="$ROOT/dist/wheel-check"
PY="${PYTHON:-python3}"

say() { printf '\n== %s\n' "$*"; }

if [[ -n "${SIGFAST_WHEEL:-}" ]]; then
    WHEEL="$(cd "$(dirname "$SIGFAST_WHEEL")" && pwd)/$(basename "$SIGFAST_WHEEL")"
    [[ -f "$WHEEL" ]] || { echo "no such wheel: $WHEEL" >&2; exit 1; }
fi

say "build tools ($BUILD_VENV)"
if [[ ! -x "$BUILD_VENV/bin/python" ]]; then
    "$PY" -m venv "$BUILD_VENV"
fi
if [[ -n "${SIGFAST_WHEEL:-}" ]]; then
    "$BUILD_VENV/bin/pip" install -q auditwheel
else
    "$BUILD_VENV/bin/pip" install -q "maturin>=1.9.4,<2" ziglang auditwheel
    "$BUILD_VENV/bin/maturin" --version
    echo "zig $("$BUILD_VENV/bin/python" -m ziglang version)"
fi

if [[ -z "${SIGFAST_WHEEL:-}" ]]; then
    say "maturin build --profile dist --zig --compatibility manylinux2014"
    rm -rf "$OUT_DIR"
    start=$(date +%s)
    # The build venv goes first on PATH so that maturin finds ziglang's zig.
    PATH="$BUILD_VENV/bin:$PATH" "$BUILD_VENV/bin/maturin" build --profile dist --zig \
        --compatibility manylinux2014 --out "$OUT_DIR"
    echo "build took $(($(date +%s) - start)) s"
    shopt -s nullglob
    wheels=("$OUT_DIR"/*.whl)
    shopt -u nullglob
    [[ ${#wheels[@]} -eq 1 ]] || { echo "expected one wheel in $OUT_DIR, found ${#wheels[@]}" >&2; exit 1; }
    WHEEL="${wheels[0]}"
fi

say "wheel"
echo "file: $(basename "$WHEEL")"
echo "size: $(stat -c %s "$WHEEL") bytes ($(du -h "$WHEEL" | cut -f1))"
"$BUILD_VENV/bin/python" - "$WHEEL" <<'EOF'
import platform
import re
import sys
import zipfile

path = sys.argv[1]
with zipfile.ZipFile(path) as z:
    wheel_file = next(n for n in z.namelist() if n.endswith(".dist-info/WHEEL"))
    meta = z.read(wheel_file).decode()
    names = z.namelist()
tags = [line.split(":", 1)[1].strip() for line in meta.splitlines() if line.startswith("Tag:")]
print("WHEEL tags:", ", ".join(tags))
print("license file in wheel:", any(n.endswith(".dist-info/licenses/LICENSE") for n in names))
arch = platform.machine()
ok = tags and all(re.fullmatch(rf"cp310-abi3-manylinux(2014|_2_\d+)_{arch}", t) for t in tags)
if not ok:
    sys.exit(f"not a cp310-abi3 manylinux {arch} wheel: {tags}")
EOF
"$BUILD_VENV/bin/auditwheel" show "$WHEEL"

say "fresh venv, no Rust on PATH"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
# PATH without the Rust toolchain: drop ~/.cargo/bin and any other entry holding cargo
# or rustc, except /usr/bin and /bin (a distribution's rustc there cannot be hidden this
# way, and the check below then fails rather than pass without proving anything).
CLEAN_PATH=""
IFS=':' read -r -a entries <<<"$PATH"
for d in "${entries[@]}"; do
    case "$d" in
        "" | */.cargo/bin | */.cargo/bin/) continue ;;
        /usr/bin | /bin) ;;
        *) [[ -e "$d/cargo" || -e "$d/rustc" ]] && continue ;;
    esac
    CLEAN_PATH="${CLEAN_PATH:+$CLEAN_PATH:}$d"
done
"$PY" -m venv "$TMP/venv"
cd "$TMP"
env -u CARGO -u CARGO_HOME -u RUSTUP_HOME -u RUSTC -u PYTHONPATH -u VIRTUAL_ENV \
    PATH="$TMP/venv/bin:$CLEAN_PATH" bash -euo pipefail -c '
    if command -v cargo >/dev/null || command -v rustc >/dev/null; then
        echo "cargo or rustc is still on PATH: $(command -v cargo rustc)" >&2
        exit 1
    fi
    echo "command -v cargo: not found; command -v rustc: not found"
    pip install -q --only-binary=:all: "$1"
    pip list 2>/dev/null | grep -iE "^(sigfast|numpy) "
    echo
    echo "\$ sigfast demo -n 10000"
    sigfast demo -n 10000
    echo
    echo "\$ python -c \"import sigfast; print(sigfast.__version__)\""
    python -c "import sigfast; print(sigfast.__version__)"
    python -c "import sigfast, sys; assert sys.prefix in sigfast.__file__, sigfast.__file__"
' check "$WHEEL"

say "OK: $(basename "$WHEEL") installs and runs without cargo or rustc"
