"""Readable, valid and unique C++ identifiers."""

from __future__ import annotations

import re

CPP_KEYWORDS = frozenset(
    """alignas alignof and and_eq asm auto bitand bitor bool break case catch char char16_t
    char32_t class compl const constexpr const_cast continue decltype default delete do double
    dynamic_cast else enum explicit export extern false float for friend goto if inline int long
    mutable namespace new noexcept not not_eq nullptr operator or or_eq private protected public
    register reinterpret_cast return short signed sizeof static static_assert static_cast struct
    switch template this thread_local throw true try typedef typeid typename union unsigned using
    virtual void volatile wchar_t while xor xor_eq half poplar std main""".split()
)


# Macros of the standard headers the generated files include: never usable as names.
STANDARD_MACROS = frozenset(
    """NULL EOF errno assert offsetof stdin stdout stderr EXIT_SUCCESS EXIT_FAILURE RAND_MAX
    MB_CUR_MAX BUFSIZ FILENAME_MAX FOPEN_MAX TMP_MAX L_tmpnam SEEK_SET SEEK_CUR SEEK_END
    NAN INFINITY HUGE_VAL HUGE_VALF HUGE_VALL MATH_ERRNO MATH_ERREXCEPT math_errhandling
    CHAR_BIT""".split()
)
_MACRO_PATTERN = re.compile(r"[A-Z][A-Z0-9_]*_(MAX|MIN|C|WIDTH)|FP_[A-Z]+|E[A-Z0-9]+|__\w*")


def is_c_identifier(text: str) -> bool:
    """A usable C++ identifier: not a keyword, no reserved `__` or leading `_`."""
    return c_identifier(text) == text


def c_identifier(text: str, fallback: str = "v") -> str:
    """`text` as an identifier: no reserved `__`, no leading `_`, not a keyword."""
    name = re.sub(r"_+", "_", re.sub(r"[^A-Za-z0-9_]", "_", text)).strip("_")
    if not name or name[0].isdigit():
        name = f"{fallback}_{name}" if name else fallback
    if name in CPP_KEYWORDS or name in STANDARD_MACROS or _MACRO_PATTERN.fullmatch(name):
        name += "_"
    return name


class UniqueNames:
    """Hands out identifiers, adding `_1`, `_2`, ... on collisions."""

    def __init__(self, reserved: tuple[str, ...] = ()):
        self.taken: set[str] = set(reserved)

    def fresh(self, text: str, fallback: str = "v") -> str:
        return self.unique(c_identifier(text, fallback))

    def unique(self, base: str) -> str:
        """`base` itself (not made a C identifier), or with the first free suffix."""
        name, n = base, 0
        while name in self.taken:
            n += 1
            name = f"{base}_{n}"
        self.taken.add(name)
        return name
