"""The layering of DESIGN.md, read from the source: the engine imports nothing above it, the CLI
is only the top (no module imports it back), and the referee imports nothing of the project."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def imports(path: Path) -> set[str]:
    """Absolute names of every module ``path`` imports (relative imports resolved)."""
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
            mod = (f"{base}.{node.module}" if node.module else base) if node.level else node.module
            out.add(mod)
            out |= {f"{mod}.{a.name}" for a in node.names}
    return out


def modules(folder: str) -> list[Path]:
    return sorted((ROOT / folder).rglob("*.py"))


@pytest.mark.parametrize("path", modules("sim"), ids=lambda p: str(p.relative_to(ROOT)))
def test_the_engine_imports_no_analysis(path):
    assert not {m for m in imports(path) if m.split(".")[0] == "analysis"}


@pytest.mark.parametrize("path", [p for p in modules("analysis") if p.name != "cli.py"],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_nothing_imports_the_cli_back(path):
    assert "analysis.cli" not in imports(path), f"{path.name} imports analysis.cli: use analysis.args"


@pytest.mark.parametrize("path", modules("tests/referee"), ids=lambda p: str(p.relative_to(ROOT)))
def test_the_referee_imports_nothing_of_the_project(path):
    assert not {m for m in imports(path) if m.split(".")[0] in ("sim", "analysis")}


def test_the_scan_sees_relative_imports():
    found = imports(ROOT / "analysis" / "studies" / "balance.py")
    assert "analysis.args" in found and "analysis.studies.balance_stats" in found
