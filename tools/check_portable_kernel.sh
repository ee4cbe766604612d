#!/usr/bin/env bash
# Proof that the LOS kernel (hexwx/_loskernel.c) builds beyond GCC on Linux (issue #21):
#   1. Clang, strict C99 with warnings as errors: the kernel alone, the extension module (with
#      Python's headers, stable ABI) and the stand-alone self-test (tools/kernel_selftest.c);
#   2. MinGW-w64, the same flags: the kernel as a Windows DLL (its hexwx_* functions exported,
#      as hexwx._native calls them by name) and the self-test as a Windows program;
#   3. Wine: that Windows program answers every pair of maps/hill_village.toml, and its answers
#      must be byte for byte those of the kernel this Python imports (tools/kernel_selftest.py).
# Missing compilers are installed with apt-get (Debian: clang, gcc-mingw-w64-x86-64, wine64;
# about 30 s); without apt-get the steps that lack a tool are skipped with a message.
# Run from anywhere, after the package's kernel is built (pip install).  Exit 1 on a failure.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python}"
STRICT=(-std=c99 -O2 -ffp-contract=off -Wall -Wextra -Werror -pedantic -Wvla)  # (MSVC has no VLAs)
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK" 2>/dev/null || true' EXIT

SUDO=""
[ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && SUDO="sudo"
UPDATED=""
have() {  # have EXECUTABLE DEBIAN-PACKAGE: the tool, installed with apt-get when missing
    command -v "$1" >/dev/null 2>&1 && return 0
    [ -x "$1" ] && return 0
    command -v apt-get >/dev/null 2>&1 || return 1
    if [ -z "$UPDATED" ]; then
        $SUDO apt-get update -qq >/dev/null 2>&1 || true
        UPDATED=1
    fi
    $SUDO apt-get install -y -qq --no-install-recommends -o DPkg::Lock::Timeout=180 "$2" >/dev/null 2>&1 || return 1
    command -v "$1" >/dev/null 2>&1 || [ -x "$1" ]
}

step() { echo "check_portable_kernel: $*"; }

if have clang clang; then
    PYINC="$("$PYTHON" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')"
    clang "${STRICT[@]}" -c -DHEXWX_KERNEL_ONLY hexwx/_loskernel.c -o "$WORK/kernel.o"
    clang "${STRICT[@]}" -shared -fPIC -isystem "$PYINC" hexwx/_loskernel.c -o "$WORK/module.so" -lm
    clang "${STRICT[@]}" tools/kernel_selftest.c -o "$WORK/selftest" -lm
    step "clang strict C99 (-Wall -Wextra -Werror -pedantic): kernel, module, self-test built"
else
    step "SKIPPED clang: not installed and apt-get could not install it"
fi

MINGW=x86_64-w64-mingw32-gcc
if have "$MINGW" gcc-mingw-w64-x86-64; then
    "$MINGW" "${STRICT[@]}" -shared -DHEXWX_KERNEL_ONLY hexwx/_loskernel.c -o "$WORK/loskernel.dll"
    want="$(grep -o 'HEXWX_API [a-z0-9_ ]*hexwx_[a-z_]*' hexwx/_loskernel.c | grep -o 'hexwx_[a-z_]*' | sort)"
    got="$(x86_64-w64-mingw32-objdump -p "$WORK/loskernel.dll" | grep -o 'hexwx_[a-z_]*' | sort -u)"
    if [ "$want" != "$got" ]; then
        step "FAILED: the DLL exports [$got], the source marks [$want]"
        exit 1
    fi
    "$MINGW" "${STRICT[@]}" -static tools/kernel_selftest.c -o "$WORK/selftest.exe"
    step "MinGW-w64 strict C99: kernel DLL (exports $(echo "$want" | wc -l) functions) and self-test built"
    WINE=""
    for exe in wine64 /usr/lib/wine/wine64 wine; do
        if command -v "$exe" >/dev/null 2>&1 || [ -x "$exe" ]; then WINE="$exe"; break; fi
    done
    if [ -z "$WINE" ] && have /usr/lib/wine/wine64 wine64; then WINE=/usr/lib/wine/wine64; fi
    if [ -n "$WINE" ]; then
        "$PYTHON" tools/kernel_selftest.py write "$WORK/case"
        start=$(date +%s)
        WINEDEBUG=-all WINEPREFIX="$WORK/wine" "$WINE" "$WORK/selftest.exe" \
            "Z:$(echo "$WORK/case" | tr / '\\')" 2>/dev/null
        step "Wine ran the Windows self-test in $(( $(date +%s) - start )) s"
        for server in wineserver /usr/lib/wine/wineserver; do  # end this prefix's server
            if command -v "$server" >/dev/null 2>&1 || [ -x "$server" ]; then
                WINEPREFIX="$WORK/wine" "$server" -k 2>/dev/null || true
                break
            fi
        done
        "$PYTHON" tools/kernel_selftest.py check "$WORK/case"
    else
        step "SKIPPED the Windows self-test: Wine not installed and apt-get could not install it"
    fi
else
    step "SKIPPED MinGW-w64: not installed and apt-get could not install it"
fi
