"""Every image the docs embed is there, and a tool in tools/ makes it (issue 27 item 3)."""
from __future__ import annotations

import re
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
IMAGE = re.compile(r"!\[[^\]]*\]\(([^)\s]+)\)")


def embedded() -> list[tuple[Path, Path]]:
    """(markdown file, image path) of every image embedded by a local link."""
    out = []
    for md in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for link in IMAGE.findall(md.read_text(encoding="utf-8")):
            if "://" not in link:
                out.append((md, (md.parent / link).resolve()))
    return out


def test_every_embedded_image_exists_and_a_tool_makes_it() -> None:
    images = embedded()
    assert images, "the docs embed no image at all?"
    tools = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "tools").glob("*.py"))
    for md, img in images:
        assert img.is_file(), f"{md.name} embeds {img.relative_to(ROOT)}, which does not exist"
        with Image.open(img) as im:
            assert im.width >= 400 and im.height >= 300, img
        assert img.name in tools, f"no tool in tools/ writes {img.name}"
    if (ROOT / ".git").exists():            # committed, not only made here (*.png is ignored)
        import subprocess
        listed = subprocess.run(["git", "ls-files", "--", *(str(i) for _m, i in images)],
                                cwd=ROOT, capture_output=True, text=True)
        if listed.returncode == 0:
            tracked = {(ROOT / line).resolve() for line in listed.stdout.splitlines()}
            assert {i for _m, i in images} <= tracked, "an embedded image is not in git"
