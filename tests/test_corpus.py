"""The bad-input corpus (tests/corpus/*.yaml): every broken input gives its message and exit code, nothing else.

Each case runs as a real `donjon` process with bounded time and memory. See tests/corpus/README.md.
"""

from __future__ import annotations

import hashlib
import os
import resource
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from generator.resources import content_dir
from tests.art_samples import GENERATORS as ART_GENERATORS
from tests.hostile_fonts import HOSTILE as HOSTILE_FONTS
from tests.workbooks import HOSTILE

CORPUS = Path(__file__).resolve().parent / "corpus"
#: Wall-clock bound of one case: hostile input must be refused, never ground through.
TIMEOUT_S = 60
#: Address-space bound of one case (the largest legitimate run needs a few hundred MB).
MEMORY_BYTES = 3 * 1024**3


def _alias_bomb() -> bytes:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for prev, name in zip("abcdefgh", "bcdefghi"):
        lines.append(f"{name}: &{name} [" + ",".join([f"*{prev}"] * 9) + "]")
    return ("\n".join(lines) + "\n").encode()


def _png(width: int, height: int, mode: str = "RGB") -> bytes:
    import io

    from PIL import Image

    buffer = io.BytesIO()
    Image.new(mode, (width, height)).save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()


def _noise_png() -> bytes:
    """A PNG that does not compress to nothing (grey noise), some 60 KB."""
    import io

    from PIL import Image

    buffer = io.BytesIO()
    Image.effect_noise((300, 200), 40).save(buffer, format="PNG")
    return buffer.getvalue()


def _xlsx_unsaved_formula() -> bytes:
    """A spreadsheet as a program that only writes files leaves it: a formula with no saved value."""
    import io

    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(["Name", "Price"])
    sheet.append(["Bread", "=2*2"])
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def _photo(kind: str) -> Callable[[], bytes]:
    """A photo for the scan cases (tests/corpus/photos.yaml), made by tests/scan/helpers.py when asked for."""
    def make() -> bytes:
        from tests.scan.photos_corpus import PHOTOS

        return PHOTOS[kind]()
    return make


GENERATORS: dict[str, Callable[[], bytes]] = {
    "alias-bomb": _alias_bomb,
    "png-bomb": lambda: _png(12_000, 12_000, "1"),
    "png-cut-short": lambda: _noise_png()[:2000],
    "xlsx-unsaved-formula": _xlsx_unsaved_formula,
    "deep-nesting": lambda: ("[" * 100_000 + "]" * 100_000).encode(),
    "ten-megabytes": lambda: b"# padding\n" * (1024 * 1024),
    "binary": lambda: bytes(range(256)) * 64,
    "long-integer": lambda: b"game: guedelon\nplayers: " + b"9" * 5000 + b"\n",
    "count-of-100-kb": lambda: b"Name,Count\nA," + b"9" * 100_000 + b"\n",
    "csv-100000-columns": lambda: ("Name," + ",".join(f"c{i}" for i in range(99_999)) + "\nA" + "," * 99_999
                                   + "\n").encode(),
    "cyclic-pdf": lambda: _cyclic_pdf(),
    **{f"xlsx-{name}": make for name, make in HOSTILE.items()},  # tests/workbooks.py
    **{f"font-{name}": make for name, make in HOSTILE_FONTS.items()},  # tests/hostile_fonts.py
    **ART_GENERATORS,
    **{f"photo-{kind}": _photo(kind) for kind in ("no-sheet", "half-sheet", "two-sheets", "blank-sheet",
                                                  "fillable-sheet", "tiny", "png-100-megapixels", "jpeg-100-megapixels", "truncated",
                                                  "garbage", "png-bomb", "great-architect", "apprentice",
                                                  "pdf-scan-of-nothing")},
}


def _cyclic_pdf() -> bytes:
    """A PDF whose page tree holds itself: a reader that walks it without care never stops."""
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [2 0 R 3 0 R] /Count 2 >>",
               b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 100 100] >>"]
    out, offsets = b"%PDF-1.4\n", []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    return out + b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)


def _make_unwritable(folder: Path) -> Callable[[], None]:
    """A folder nobody may write in, even root (which ignores permission bits): the immutable attribute."""
    folder.mkdir(parents=True, exist_ok=True)
    if os.geteuid() != 0:
        folder.chmod(0o555)
        return lambda: folder.chmod(0o755)
    done = subprocess.run(["chattr", "+i", str(folder)], capture_output=True)
    if done.returncode != 0:
        pytest.skip("cannot make a folder unwritable here (root without chattr)")

    def restore() -> None:
        subprocess.run(["chattr", "-i", str(folder)], check=False)

    return restore


def _cases() -> list[Any]:
    params = []
    for path in sorted(CORPUS.glob("*.yaml")):
        for case in yaml.safe_load(path.read_text(encoding="utf-8")) or []:
            params.append(pytest.param(case, id=f"{path.stem}:{case['id']}"))
    return params


def _limit() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BYTES, MEMORY_BYTES))


def donjon_argv() -> list[str]:
    exe = Path(sys.executable).with_name("donjon")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "generator"]


def _digest(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def _edit(case: dict[str, Any], tmp: Path, edits: list[dict[str, str]]) -> None:
    for edit in edits:
        target = tmp / edit["path"]
        text = target.read_text(encoding="utf-8")
        assert edit["old"] in text, f"corpus case {case['id']}: {edit['old']!r} is not in {edit['path']}"
        target.write_text(text.replace(edit["old"], edit["new"], 1), encoding="utf-8")


def _prepare(case: dict[str, Any], tmp: Path, cleanups: list[Callable[[], None]]) -> None:
    if case.get("base") == "content":
        shutil.copytree(content_dir(), tmp / "content", ignore=shutil.ignore_patterns("schemas", "examples"))
    for spec in case.get("files", []):
        target = tmp / spec["path"]
        target.parent.mkdir(parents=True, exist_ok=True)
        if "text" in spec:
            target.write_text(spec["text"], encoding="utf-8")
        elif "hex" in spec:
            target.write_bytes(bytes.fromhex(spec["hex"]))
        elif "symlink" in spec:
            target.symlink_to(spec["symlink"])
        elif "copy" in spec:
            source = Path(spec["copy"].replace("{repo}", str(CORPUS.parent.parent)))
            if source.is_dir():
                shutil.copytree(source, target, dirs_exist_ok=True)
            else:
                shutil.copy(source, target)
        elif spec.get("generate") == "unwritable-folder":
            cleanups.append(_make_unwritable(tmp / spec["path"]))
        else:
            target.write_bytes(GENERATORS[spec["generate"]]())
    _edit(case, tmp, case.get("edits", []))


def _fill(blank: Path, target: Path, values: dict[str, str]) -> None:
    """A fillable sheet filled in as a PDF viewer would, with pypdf."""
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(blank))
    writer.update_page_form_field_values(writer.pages[0], values, auto_regenerate=False)
    with target.open("wb") as handle:
        writer.write(handle)


@pytest.fixture
def cleanups() -> Iterator[list[Callable[[], None]]]:
    undo: list[Callable[[], None]] = []
    yield undo
    for action in reversed(undo):
        action()


@pytest.mark.parametrize("case", _cases())
def test_bad_input(case: dict[str, Any], tmp_path: Path, cleanups: list[Callable[[], None]]) -> None:
    _prepare(case, tmp_path, cleanups)
    for setup_args in case.get("before", []):  # commands that make the case's inputs (e.g. a fillable sheet)
        made = subprocess.run([*donjon_argv(), *[a.replace("{tmp}", str(tmp_path)) for a in setup_args]],
                              capture_output=True, text=True, timeout=TIMEOUT_S * 5, cwd=tmp_path)
        assert made.returncode == 0, made.stderr
    for fill in case.get("fill", []):
        _fill(tmp_path / fill["from"], tmp_path / fill["to"], fill["values"])
    before = None
    if "setup_run" in case:  # a good build first, whose files must survive the failing one untouched
        setup = [a.replace("{tmp}", str(tmp_path)) for a in case["setup_run"]]
        done = subprocess.run([*donjon_argv(), *setup], capture_output=True, text=True, timeout=TIMEOUT_S * 5)
        assert done.returncode == 0, done.stderr
        before = _digest(tmp_path / case["keep"])
        assert before, "the good build wrote nothing to keep"
        _edit(case, tmp_path, case.get("then_edits", []))
    args = [a.replace("{tmp}", str(tmp_path)).replace("{repo}", str(CORPUS.parent.parent)) for a in case["run"]]
    result = _run(case, args, tmp_path)
    assert result.returncode == case["exit"], f"exit {result.returncode}, stderr:\n{result.stderr}"
    for fragment in case.get("stderr", []):
        assert fragment.replace("{tmp}", str(tmp_path)) in result.stderr, f"missing {fragment!r} in:\n{result.stderr}"
    for fragment in case.get("stdout", []):
        assert fragment in result.stdout, f"missing {fragment!r} in:\n{result.stdout}"
    assert "Traceback" not in result.stderr and "Traceback" not in result.stdout
    if case.get("quiet"):  # a reader that closed the pipe wants no message
        assert result.stderr == ""
    elif case["exit"] != 0:
        # why it failed: on stderr, or for broken game rules in the result itself (stdout)
        assert (result.stderr if case["exit"] != 1 or "stdout" not in case else result.stdout).strip()
        assert "internal error" not in result.stderr
    if before is not None:
        assert _digest(tmp_path / case["keep"]) == before, "a failed build changed files of the earlier good build"
    for folder in case.get("nothing_in", []):
        target = tmp_path / folder
        left = [str(p.relative_to(tmp_path)) for p in target.rglob("*") if p.is_file()] if target.exists() else []
        assert left == [], f"a failed run left files behind: {left}"
    for path in case.get("exists", []):
        assert (tmp_path / path).exists(), f"{path} was not written (or was removed)"
    for folder in [tmp_path] + [tmp_path / k for k in case.get("nothing_in", [])]:
        temps = [p.name for p in folder.rglob("*") if p.name.endswith(".tmp") or p.name.startswith(".donjon-")] \
            if folder.exists() else []
        assert temps == [], f"temporary files left behind: {temps}"


def _run(case: dict[str, Any], args: list[str], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """Run donjon as the case says: standard output captured, or `/dev/full`, or a pipe its reader closed."""
    stdout_to = case.get("stdout_to")
    if stdout_to is None:
        return subprocess.run([*donjon_argv(), *args], capture_output=True, text=True, timeout=TIMEOUT_S,
                              preexec_fn=_limit, cwd=tmp_path)
    if stdout_to == "closed-pipe":
        read_end, write_end = os.pipe()
        os.close(read_end)  # the reader went away before donjon wrote (`donjon ... | head -0`)
        target: Any = write_end
    else:
        target = open(stdout_to, "wb")  # noqa: SIM115 - closed below
    try:
        done = subprocess.run([*donjon_argv(), *args], stdout=target, stderr=subprocess.PIPE, text=True,
                              timeout=TIMEOUT_S, preexec_fn=_limit, cwd=tmp_path)
    finally:
        os.close(target) if isinstance(target, int) else target.close()
    return subprocess.CompletedProcess(done.args, done.returncode, "", done.stderr)


#: The suffixes of picture files: a corpus case that writes one is a picture case.
_PICTURES = (".svg", ".png", ".jpg", ".jpeg")


def _picture_cases() -> list[Any]:
    """Every corpus case whose deck has a picture or an icon and that leaves `check == 0 => build == 0` to prove:
    one whose check passes (the build must too) or whose build fails (the check must too). The case itself runs
    the one command; this test runs the other."""
    params = []
    for param in _cases():
        case = param.values[0]
        paths = [spec["path"] for spec in case.get("files", [])]
        run = case["run"]
        if not any(path.lower().endswith(_PICTURES) for path in paths):
            continue
        if run[:2] == ["content", "check"] and case["exit"] == 0:
            params.append(pytest.param(case, run[2], "build", id=param.id))
        elif run[:1] == ["build"] and "--content" in run and case["exit"] != 0:
            params.append(pytest.param(case, run[run.index("--content") + 1], "check", id=param.id))
    return params


@pytest.mark.parametrize(("case", "folder", "other"), _picture_cases())
def test_a_deck_content_check_passes_builds(case: dict[str, Any], folder: str, other: str, tmp_path: Path,
                                            cleanups: list[Callable[[], None]]) -> None:
    """`content check` is the gate: for every picture case of the corpus, a check that passes means a build that
    passes (the check draws every picture and icon as the build does). The cases whose check fails or whose build
    passes prove it by themselves (test_bad_input runs them)."""
    _prepare(case, tmp_path, cleanups)
    content = folder.replace("{tmp}", str(tmp_path))
    if other == "check":
        result = _run({}, ["content", "check", content], tmp_path)
        assert result.returncode == 1, f"the build fails, but content check exits {result.returncode}:\n{result.stderr}"
    else:
        result = _run({}, ["build", "--content", content, "--out", str(tmp_path / "out")], tmp_path)
        assert result.returncode == 0, f"content check passes, but the build fails:\n{result.stderr}"
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr, result.stderr
