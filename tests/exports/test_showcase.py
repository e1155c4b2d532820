"""`donjon export showcase`: a hand and a table spread of each deck, as PNG pictures, the same bytes every time."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import REPO
from render_helpers import run

SAMPLES = REPO / "content" / "examples" / "decks"


def test_a_hand_and_a_table_of_each_deck(tmp_path: Path) -> None:
    from PIL import Image

    out = tmp_path / "out"
    result = run("export", "showcase", "tokens", "--content", str(SAMPLES), "--out", str(out), "--dpi", "72",
                 "--hand", "3", "--table", "4")
    assert result.exit_code == 0, result.stderr
    hand, table = out / "showcase" / "decks" / "tokens-hand.png", out / "showcase" / "decks" / "tokens-table.png"
    assert "tokens-hand.png" in result.stdout and "tokens-table.png" in result.stdout
    with Image.open(hand) as image:
        assert image.mode == "RGB"
        wide, tall = image.size
        # three tokens of 25 mm at 72 dpi (71 px), fanned: wider than one, narrower than three side by side plus room
        assert 71 * 1.5 < wide < 71 * 3 + 200 and tall > 71
        background = image.getpixel((2, 2))
        assert background == (0xEC, 0xE7, 0xDD)
        # a token's round shape: the corner of its square is background, not white
        assert (255, 255, 255) not in {image.getpixel((x, y)) for x in range(0, wide, 7) for y in range(0, 40, 7)}
    with Image.open(table) as image:
        red, green, blue = (channel.getpixel((image.width // 2, 3)) for channel in image.split())
        assert isinstance(green, int) and isinstance(red, int) and isinstance(blue, int)
        assert green > red and green > blue  # the baize
    first = (hand.read_bytes(), table.read_bytes())
    assert run("export", "showcase", "tokens", "--content", str(SAMPLES), "--out", str(out), "--dpi", "72",
               "--hand", "3", "--table", "4").exit_code == 0
    assert (hand.read_bytes(), table.read_bytes()) == first  # deterministic: the table's tilts are seeded


@pytest.mark.parametrize(("option", "value"), [("--dpi", "10"), ("--hand", "0"), ("--table", "99")])
def test_showcase_options_out_of_range_are_refused(tmp_path: Path, option: str, value: str) -> None:
    result = run("export", "showcase", "--content", str(SAMPLES), "--out", str(tmp_path), option, value)
    assert result.exit_code == 2
    assert f"{option}: {value} is out of range" in result.stderr
    assert not (tmp_path / "showcase").exists()
