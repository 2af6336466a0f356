"""Issue 9, Docs inside the repo: no link in README.md or docs/ leads outside the repository
(no URL, no `../shared/`, no relative path that climbs out)."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)|^\[[^\]]+\]:\s*(\S+)", re.M)


def test_every_link_stays_inside_the_repository():
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        assert "../shared" not in text and "shared/seeds" not in text, doc
        prose = re.sub(r"`[^`\n]*`", "", re.sub(r"^```.*?^```", "", text, flags=re.M | re.S))
        for m in LINK.finditer(prose):
            target = (m.group(1) or m.group(2)).split("#")[0]
            assert "://" not in target and not target.startswith("mailto:"), (doc, target)
            if target:  # docs/readme/ holds README sections: their links are from the top
                bases = [doc.parent] + ([ROOT] if doc.parent.name == "readme" else [])
                assert any((b / target).resolve().is_relative_to(ROOT)
                           and (b / target).resolve().exists() for b in bases), (doc, target)
