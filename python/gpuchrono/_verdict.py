# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""compare()'s verdict as a string enum: each member is equal to its value, prints as it, and serialises as it
(json.dumps, f-strings), so code that compares `c.verdict == "no_difference"` keeps working."""
from __future__ import annotations

import enum


class Verdict(str, enum.Enum):
    """What compare() concluded about b against a: "faster", "slower", "no_difference" (a change inside the
    threshold) or "inconclusive" (too noisy, or too few samples, to say)."""

    FASTER = "faster"
    SLOWER = "slower"
    NO_DIFFERENCE = "no_difference"
    INCONCLUSIVE = "inconclusive"

    # str() and format() give the value on every supported Python (enum.StrEnum, which does this, is 3.11+).
    def __str__(self) -> str:
        return str(self.value)

    def __format__(self, spec: str) -> str:
        return format(str(self.value), spec)

    @classmethod
    def _from_library(cls, text: str) -> "Verdict":
        # The C++ library's to_string spells it "no difference"; Python's promise is the identifier form.
        return cls(text.replace(" ", "_"))
