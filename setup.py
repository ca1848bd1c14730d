"""`pip install --no-build-isolation .`: the Python package `duel`, built by the
project's own CMake build (the extension `duel._duel` and the pure-Python
parts, as `build/python/duel` holds them after `scripts/build.sh`).

Offline with Debian's Python: setuptools and pybind11 come from Debian
(python3-setuptools, pybind11-dev), so no build isolation; in a venv made
with `--system-site-packages` (docs/python.md, "Installing"). The build tree
is `build/` (DUEL_BUILD_DIR to choose another): configured as
`scripts/build.sh` does when it is missing, else built where it is, so a
clone that already ran the README's commands installs in seconds.
"""

import os
import pathlib
import re
import shutil
import subprocess
import sys

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

ROOT = pathlib.Path(__file__).resolve().parent
BUILD = pathlib.Path(os.environ.get("DUEL_BUILD_DIR", str(ROOT / "build"))).resolve()
# Measured with no compiler cache on the 2-core machines of docs/BENCHMARKS.md.
FIRST_BUILD = "about 2.5 minutes on 2 cores"
VERSION = re.search(r"project\(duel VERSION ([0-9.]+)",
                    (ROOT / "CMakeLists.txt").read_text()).group(1)


class BuildWithCMake(build_py):
    """Builds the extension with CMake and copies the package it lays out."""

    def run(self):
        super().run()  # the pure-Python files of python/duel
        # pip shows this line, and CMake's progress under it, with `pip install -v`.
        fresh = not (BUILD / "build.ninja").exists()
        print(f"duel: building the extension with CMake in {BUILD}"
              + (f" (a first build compiles the C++ library: {FIRST_BUILD}; "
                 "`pip install -v .` shows its progress)" if fresh else ""),
              file=sys.stderr, flush=True)
        if fresh:
            subprocess.check_call(["cmake", "-S", str(ROOT), "-B", str(BUILD), "-G", "Ninja",
                                   "-DCMAKE_BUILD_TYPE=Release",
                                   f"-DPython_EXECUTABLE={os.path.realpath(sys.executable)}"])
        subprocess.check_call(["cmake", "--build", str(BUILD), "--target", "_duel",
                               "-j", str(os.cpu_count() or 1)])
        source = BUILD / "python" / "duel"
        if not (source / "__init__.py").exists():
            raise SystemExit(f"duel: the build made no Python package in {source}")
        target = pathlib.Path(self.build_lib) / "duel"
        shutil.copytree(source, target, dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns("__pycache__"))


class BinaryDistribution(Distribution):
    """The package holds a compiled extension: a platform wheel."""

    def has_ext_modules(self):
        return True


setup(
    name="duel",
    version=VERSION,
    description="Adversarial search, referee and arena for the courses' board games",
    python_requires=">=3.9",
    packages=["duel", "duel.cs3243", "duel.cluster"],
    package_dir={"": "python"},
    package_data={"duel": ["py.typed", "*.pyi"], "duel.cs3243": ["config.txt", "SOURCE"]},
    cmdclass={"build_py": BuildWithCMake},
    distclass=BinaryDistribution,
    zip_safe=False,
    # setuptools' own build files beside CMake's, not among them.
    options={"build": {"build_base": str(BUILD / "setuptools")},
             "egg_info": {"egg_base": str(BUILD)}},
)
