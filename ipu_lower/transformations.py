"""DaCe transformations for the IPU: `IPUTransformSDFG` marks a whole SDFG for it.

In the spirit of DaCe's `GPUTransformSDFG`, but with no data to move: ipu-lower's host
program copies the arguments to the device and back around each run, so marking is all
there is. Every container (arguments, transients and views, in nested SDFGs too) is
stored in tile memory (`IPU_Tile`); a map at the top of a state is spread over the tiles
(`IPU_Device`) and a map inside one runs on one tile's workers (`IPU_Workers`). Apply it
with `sdfg.apply_transformations(IPUTransformSDFG)`; importing this module imports DaCe.
"""

from __future__ import annotations

from dace import data, dtypes, nodes
from dace import sdfg as sd
from dace.properties import make_properties
from dace.transformation import transformation

from ipu_lower.dace_types import register

register()


@make_properties
class IPUTransformSDFG(transformation.MultiStateTransformation):
    """Mark a whole SDFG for the IPU (see the module docstring)."""

    @classmethod
    def expressions(cls):
        return [sd.SDFG("_")]  # the whole SDFG, as GPUTransformSDFG matches it

    def can_be_applied(self, graph, expr_index, sdfg, permissive=False) -> bool:
        """Not for streams and consume scopes, which the IPU lowering does not support."""
        for node, _ in sdfg.all_nodes_recursive():
            if isinstance(node, nodes.ConsumeEntry | nodes.ConsumeExit):
                return False
        return not any(isinstance(desc, data.Stream) for inner in sdfg.all_sdfgs_recursive()
                       for desc in inner.arrays.values())

    def apply(self, _, sdfg: sd.SDFG) -> None:
        for inner in sdfg.all_sdfgs_recursive():
            for desc in inner.arrays.values():
                desc.storage = dtypes.StorageType.IPU_Tile
        for node, state in sdfg.all_nodes_recursive():
            if isinstance(node, nodes.MapEntry):
                outermost = state.entry_node(node) is None and not _inside_a_map(state.sdfg)
                node.map.schedule = dtypes.ScheduleType.IPU_Device if outermost else dtypes.ScheduleType.IPU_Workers


def _inside_a_map(sdfg: sd.SDFG) -> bool:
    """Whether `sdfg` is nested in a map of an enclosing SDFG."""
    while sdfg.parent_nsdfg_node is not None:
        if sdfg.parent.entry_node(sdfg.parent_nsdfg_node) is not None:
            return True
        sdfg = sdfg.parent_sdfg
    return False
