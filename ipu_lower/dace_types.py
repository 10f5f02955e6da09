"""The IPU's storage and schedule types in DaCe, registered as soon as DaCe loads.

The project names them (docs/architecture.md): `StorageType.IPU_Tile` (tile memory), `StorageType.IPU_Streaming`
(off-chip streaming memory), `ScheduleType.IPU_Device` (a map spread over tiles, like
`GPU_Device`) and `ScheduleType.IPU_Workers` (the six workers of a tile, like
`GPU_ThreadBlock`). DaCe's enums are extensible (`aenum`), but a name registered in one
process is unknown in the next: a `.sdfg` file naming them would load them as
`Undefined`. Importing `ipu_lower` registers them, without importing DaCe (which takes a
second, and `ipu-opt` on `.mlir` input never needs it): if DaCe is loaded already they
are registered at once, else the moment its `dace.dtypes` module has run.
"""

from __future__ import annotations

import importlib.abc
import importlib.util
import sys
from types import ModuleType

STORAGE_TYPES = ("IPU_Tile", "IPU_Streaming")
SCHEDULE_TYPES = ("IPU_Device", "IPU_Workers")


def register(dtypes: ModuleType | None = None) -> None:
    """Register the IPU's types in DaCe's `dtypes` (idempotent)."""
    if dtypes is None:
        from dace import dtypes
    for enum, names in ((dtypes.StorageType, STORAGE_TYPES), (dtypes.ScheduleType, SCHEDULE_TYPES)):
        for name in names:
            if name not in enum.__members__:
                enum.register(name)


class _AfterDtypes(importlib.abc.MetaPathFinder):
    """Finds `dace.dtypes` like the other finders do, and has its loader register the
    IPU's types once the module has run."""

    def find_spec(self, name, path, target=None):
        if name != "dace.dtypes":
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.loader is not None:
            run = spec.loader.exec_module

            def exec_module(module: ModuleType) -> None:
                run(module)
                register(module)

            spec.loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec


def register_when_dace_loads() -> None:
    if "dace.dtypes" in sys.modules:
        register(sys.modules["dace.dtypes"])
    elif not any(isinstance(f, _AfterDtypes) for f in sys.meta_path):
        sys.meta_path.insert(0, _AfterDtypes())
