"""Build of hexwx's one compiled part, the LOS kernel ``hexwx/_loskernel.c`` (everything else is
in pyproject.toml).

The kernel is plain C99 with no threads or platform headers, built as an extension module
against Python's stable ABI (3.11 on: one ``abi3`` wheel per platform) so that it lands beside
the package; :mod:`hexwx._native` calls its ``trace()`` for a single query and loads the same
file with ctypes for the batch functions.  Each compiler gets only flags it
takes: GCC and Clang (Linux, macOS, MinGW) C99, optimised, and no fused multiply-add
(``-ffp-contract=off``: the walk's double-precision expressions must round as written, so that
every platform gives the same answers); MSVC optimised with precise floating point (it fuses
nothing under ``/fp:precise``).
"""
from __future__ import annotations

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

#: Compile flags by setuptools compiler type ("unix": GCC or Clang; "mingw32"/"cygwin": GCC).
_FLAGS = {
    "msvc": ["/O2", "/fp:precise"],
    "gcc": ["-std=c99", "-O3", "-ffp-contract=off"],
}


class BuildKernel(build_ext):
    """build_ext choosing the kernel's flags by the compiler it finds."""

    def build_extensions(self) -> None:
        kind = "msvc" if self.compiler.compiler_type == "msvc" else "gcc"
        for ext in self.extensions:
            ext.extra_compile_args = list(_FLAGS[kind])
            ext.libraries = [] if kind == "msvc" else ["m"]
        super().build_extensions()


setup(
    ext_modules=[Extension("hexwx._loskernel", ["hexwx/_loskernel.c"], py_limited_api=True,
                           define_macros=[("Py_LIMITED_API", "0x030B0000")])],
    cmdclass={"build_ext": BuildKernel},
    options={"bdist_wheel": {"py_limited_api": "cp311"}},
)
