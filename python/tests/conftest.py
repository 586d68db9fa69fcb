# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
import pytest

import gpuchrono

# The pytest plugin's tests run small suites in a subprocess (pytester), as a user's pytest would.
pytest_plugins = ["pytester"]


def pytest_collection_modifyitems(config, items):
    # GPU tests skip visibly, with the reason, on a machine without a usable CUDA device (CI's).
    why = gpuchrono.no_device_reason()
    if why is None:
        return
    skip = pytest.mark.skip(reason=f"skipped: no CUDA device ({why})")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)


def pytest_configure(config):
    config.addinivalue_line("markers", "gpu: needs a CUDA device")
