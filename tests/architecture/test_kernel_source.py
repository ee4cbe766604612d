"""The C kernel stays portable and its ctypes mirror stays true (issues #21, #22).

hexwx/_loskernel.c may include only standard C99 headers (and Python's, for the module stub),
so that MinGW, MSVC and Clang build it; the structs hexwx._native passes by pointer must have
the C structs' fields, in their order and of their kinds; the functions the C source exports
are the ones hexwx._native declares; and the constants mirrored in Python equal the C ones.
"""
from __future__ import annotations

import ctypes
import re
from pathlib import Path

import pytest

from hexwx import _native as K

SOURCE = (Path(K.__file__).parent / "_loskernel.c").read_text()
C99_HEADERS = {"math.h", "stdint.h", "stdlib.h", "stddef.h", "string.h", "limits.h", "stdio.h"}


def test_only_standard_headers() -> None:
    headers = set(re.findall(r"#include\s*<([^>]+)>", SOURCE))
    assert headers - {"Python.h"} <= C99_HEADERS, headers - C99_HEADERS
    # Python's header only in the module part, which the stand-alone builds leave out
    assert re.search(r"#ifndef HEXWX_KERNEL_ONLY\s*(/\*.*?\*/\s*)?(#ifndef Py_LIMITED_API.*?#endif\s*)?"
                     r"#define PY_SSIZE_T_CLEAN\s*#include <Python.h>", SOURCE, re.S)
    for posix in ("pthread", "unistd", "sysconf", "__sync_", "_Atomic"):
        assert posix not in SOURCE, posix


def _c_fields(struct: str) -> list[tuple[str, str]]:
    """(name, kind) of each field of ``typedef struct NAME {...} NAME;``: kind "ptr" or the
    scalar type."""
    body = re.search(r"typedef struct %s \{(.*?)\} %s;" % (struct, struct), SOURCE, re.S)
    assert body, f"struct {struct} not found"
    text = re.sub(r"/\*.*?\*/", "", body.group(1), flags=re.S)
    fields = []
    for decl in filter(None, (d.strip() for d in text.split(";"))):
        base = re.match(r"(?:const\s+)?(?:struct\s+)?(\w+)\s*(.*)", decl, re.S)
        assert base, decl
        for name in base.group(2).split(","):
            name = name.strip()
            kind = "ptr" if name.startswith("*") else base.group(1)
            size = re.search(r"\[(\d+)\]$", name)
            if size:                                   # an array field: "out[7]"
                name, kind = name[:size.start()], f"{kind}[{size.group(1)}]"
            fields.append((name.lstrip("*").strip(), kind))
    return fields


def _py_kind(t: type) -> str:
    if t is ctypes.c_int64:
        return "i64"
    if t is ctypes.c_double:
        return "double"
    if issubclass(t, ctypes.Array):
        return f"{_py_kind(t._type_)}[{t._length_}]"
    if t is ctypes.c_void_p or issubclass(t, ctypes._Pointer):
        return "ptr"
    raise AssertionError(f"unexpected field type {t}")


@pytest.mark.parametrize("c_name, py", [("KMap", K._KMap), ("Buffers", K._Buffers),
                                        ("TraceMany", K._TraceMany), ("AllPairs", K._AllPairs)])
def test_ctypes_structs_mirror_the_c_structs(c_name: str, py: type[ctypes.Structure]) -> None:
    c = _c_fields(c_name)
    mirrored = [(name, _py_kind(t)) for name, t in py._fields_]
    assert [n for n, _ in mirrored] == [n for n, _ in c]
    assert [k for _, k in mirrored] == [k for _, k in c], \
        "a scalar field of the C struct that is not int64 (i64) or double needs its own ctypes type"


def test_exported_functions_are_the_declared_ones() -> None:
    exported = set(re.findall(r"HEXWX_API\s+\w+\s+(hexwx_\w+)\(", SOURCE))
    lib = K.clib()
    declared = {name for name in exported if getattr(lib, name).argtypes is not None}
    assert exported and declared == exported, exported - declared


def test_mirrored_constants_equal_the_c_ones() -> None:
    assert int(re.search(r"#define HV_LEN (\d+)", SOURCE).group(1)) == K._HV_LEN
    assert int(re.search(r"#define HEXWX_KERNEL_ABI (\d+)", SOURCE).group(1)) == K.KERNEL_ABI

    def enum(first: str) -> list[str]:
        body = re.search(r"enum \{ (%s\b.*?)\};" % first, SOURCE, re.S)
        assert body, first
        return [x.split("=")[0].strip() for x in body.group(1).split(",") if x.strip()]

    assert enum("HX_LOS_X")[:-1] == [f"HX_{c.upper()}" for c in ("los_x", "los_y", "col", "dy2",
        "centre", "base", "depression", "levels", "rooftop", "stairway", "has_cliff",
        "inherent_near", "zero", "fill", "order", "frame", "low", "hillock")]
    assert len(enum("HX_LOS_X")) - 1 == len(K.HX_COLUMNS)
    assert len(enum("H6_ON_MAP")) - 1 == len(K.H6_COLUMNS)
    assert len(enum("TA_OBSTACLE")) - 1 == len(K.TA_COLUMNS)
    reasons = dict(re.findall(r"(\w+) = (\d+)", re.search(r"enum \{ CLEAR = 0.*?\};", SOURCE, re.S).group(0)))
    assert reasons and all(getattr(K, name) == int(v) for name, v in reasons.items())
    fast = dict(re.findall(r"(FAST_\w+) = (\d+)", SOURCE))
    assert fast and all(getattr(K, name) == int(v) for name, v in fast.items())


@pytest.mark.parametrize("body", ["", "long long hexwx_kernel_abi(void) { return 1; }"])
def test_a_library_of_another_interface_is_refused(tmp_path, body: str) -> None:
    """A kernel library left from an older build (no interface number, or another one) is
    refused with a message saying how to rebuild, never called with structs it misreads."""
    import shutil
    import subprocess
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if cc is None:
        pytest.skip("no C compiler to build a stand-in old library")
    src = tmp_path / "old.c"
    src.write_text("int hexwx_placeholder(void) { return 0; }\n" + body + "\n")
    lib_path = tmp_path / "old.so"
    subprocess.run([cc, "-shared", "-fPIC", str(src), "-o", str(lib_path)], check=True)
    with pytest.raises(K.KernelNotBuiltError, match="another version of hexwx"):
        K._check_interface(ctypes.CDLL(str(lib_path)), str(lib_path))
    K._check_interface(K.clib(), "the built kernel")   # the real one passes
