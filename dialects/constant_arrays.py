"""The values of constants (`constant_value`) as numpy arrays, and numpy arrays as them:
what the frontend, ipu-demote-f64 and the host printer need of their data.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import BytesAttr, DenseIntOrFPElementsAttr, TensorType, i1
from xdsl.ir import Attribute

from ipu_lower.element_types import element_type


def dense_value(values: np.ndarray, element: Attribute) -> DenseIntOrFPElementsAttr:
    """`values` as a dense attribute of `element`s (the numpy dtype of `element`), from
    their bytes: linear in the size, whatever it is."""
    row = element_type(element)
    assert row is not None
    array = np.asarray(values, dtype=row.numpy, order="C")  # ascontiguousarray makes a scalar 1-D
    if element == i1:  # xDSL stores true as the byte -1, as it parses it
        array = np.where(array, -1, 0).astype(np.int8)
    return DenseIntOrFPElementsAttr(TensorType(element, array.shape), BytesAttr(array.tobytes()))


def value_array(value: DenseIntOrFPElementsAttr) -> np.ndarray:
    """The values of a dense attribute of one of our element types, shaped."""
    row = element_type(value.get_element_type())
    assert row is not None
    array = np.frombuffer(value.data.data, dtype=np.int8 if row.numpy == "bool" else row.numpy)
    return (array != 0 if row.numpy == "bool" else array).reshape(value.get_shape())


def converted(values: np.ndarray, element: Attribute) -> np.ndarray:
    """`values` as `element`s; a ValueError naming the first value that overflows it
    (a finite value beyond its range) or that is not a number."""
    row = element_type(element)
    assert row is not None
    target = np.dtype(row.numpy)
    if values.dtype.kind not in "biuf":
        raise ValueError(f"holds {values.dtype} values, not numbers")
    if target.kind == "b" or values.dtype == target:
        return values.astype(target)
    if target.kind == "f":
        with np.errstate(over="ignore"):
            result = values.astype(target)
        bad = np.isfinite(values) & ~np.isfinite(result)
    else:
        info = np.iinfo(target)
        finite = np.isfinite(values) if values.dtype.kind == "f" else np.ones(values.shape, dtype=bool)
        bad = ~finite | (values < info.min) | (values > info.max)
        result = np.where(bad, 0, values).astype(target)
    if bad.any():
        first = values.reshape(-1)[np.flatnonzero(bad)[0]]
        raise ValueError(f"holds {first}, which {element} cannot represent")
    return result
