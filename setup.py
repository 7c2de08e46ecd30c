"""Ship the top-level ``cases/`` catalogue inside the wheel, as ``conformance/_cases/``.

The project keeps ``cases/`` at the top of the repository, where catalogue
authors work; everything else is configured in pyproject.toml.  A built wheel
(not an editable install, which reads ``cases/`` from the checkout) gets a
copy, so ``pip install`` then ``conformance certify`` works from any folder
(`conformance._catalogue.default_root`).
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

CATALOGUE = Path(__file__).parent / "cases"


class BuildWithCatalogue(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        target = Path(self.build_lib, "conformance", "_cases")
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(CATALOGUE, target,
                        ignore=shutil.ignore_patterns(".*", "_*", "__pycache__"))


setup(cmdclass={"build_py": BuildWithCatalogue})
