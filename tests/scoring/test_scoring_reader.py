"""The YAML reader's memory of resolved scalars (added for scoring speed) changes nothing it reads or refuses."""

from __future__ import annotations

import pytest

from generator import yamlio
from generator.errors import InputError

TEXT = """\
plain: [red, 2, -3, 0x1f, 010, 1_000, 2.5, .inf2, yes, No, on, null, ~, 2024-01-02, '5', "yes", "", 1e3, 1.0e+3]
nested: {a: [true, false, TRUE], b: {c: 12:30, d: +7}}
"""


def test_warm_and_cold_reads_agree() -> None:
    yamlio._RESOLVED.clear()
    cold = yamlio.loads_yaml(TEXT, "cold.yaml")
    assert yamlio._RESOLVED, "plain scalars are remembered"
    warm = yamlio.loads_yaml(TEXT, "warm.yaml")
    assert warm.data == cold.data and warm.lines == cold.lines
    assert [type(v) for v in warm.data["plain"]] == [type(v) for v in cold.data["plain"]]
    assert cold.data["plain"][:8] == ["red", 2, -3, 31, 8, 1000, 2.5, ".inf2"]
    assert cold.data["plain"][8:15] == [True, False, True, None, None, "2024-01-02", "5"]
    assert cold.data["plain"][15:] == ["yes", "", "1e3", 1000.0]


@pytest.mark.parametrize("bad", [".inf", "-.Inf", ".nan", "1" * 5000])
def test_refused_scalars_stay_refused(bad: str) -> None:
    for _ in range(2):
        with pytest.raises(InputError, match="number"):
            yamlio.loads_yaml(f"value: {bad}\n", "bad.yaml")


def test_memory_is_bounded() -> None:
    yamlio._RESOLVED.clear()
    yamlio.loads_yaml("[" + ", ".join(f"w{i}" for i in range(yamlio._RESOLVED_MOST + 500)) + "]\n", "many.yaml")
    assert len(yamlio._RESOLVED) == yamlio._RESOLVED_MOST


def test_warm_and_cold_reads_agree_as_written() -> None:
    """The memory holds each scalar's reading as written too: a table's cells and the spelling a message quotes
    come out the same from a warm read as from a cold one."""
    yamlio._RESOLVED.clear()
    cold = yamlio.loads_yaml(TEXT, "cold.yaml", as_written=True)
    cold_spelled = yamlio.loads_yaml(TEXT, "cold.yaml").spelled
    warm = yamlio.loads_yaml(TEXT, "warm.yaml", as_written=True)
    assert warm.data == cold.data and dict(warm.spelled) == dict(cold.spelled) == dict(cold_spelled)
    assert cold.data["plain"][:10] == ["red", 2, -3, "0x1f", "010", "1_000", 2.5, ".inf2", "yes", "No"]
    assert cold.data["nested"]["b"] == {"c": "12:30", "d": 7}
    assert cold.spelled[("plain", 3)] == "0x1f" and cold.spelled[("nested", "b", "c")] == "12:30"
    assert ("plain", 1) not in cold.spelled and ("plain", 0) not in cold.spelled
