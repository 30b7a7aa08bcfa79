"""List the file-level import circles of sim/ and analysis/.

    python scripts/import_circles.py       # one line per circle; exit 1 if there is any

Every ``.py`` file is read with ``ast`` (nothing is imported): module-level imports and lazy
ones inside functions alike, relative imports resolved, and ``from pkg import name`` where
``name`` is a submodule of ``pkg`` counted as importing that submodule.  A circle is a strongly
connected component of more than one file, or a file importing itself.  ``tests/crosscut/test_layers.py``
runs the same functions (with its reasoned list of the circles still to break).
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("sim", "analysis")


def module_name(path: Path, root: Path = ROOT) -> str:
    """``sim/knock/melds.py`` -> ``sim.knock.melds``; a package's ``__init__.py`` -> the package."""
    return ".".join(path.relative_to(root).with_suffix("").parts).removesuffix(".__init__")


def source_files(root: Path = ROOT) -> dict[str, Path]:
    """Every module of ``PACKAGES`` by its dotted name."""
    return {module_name(p, root): p for pkg in PACKAGES for p in sorted((root / pkg).rglob("*.py"))}


def _runtime_nodes(tree: ast.AST):
    """Every node of ``tree`` but those under ``if TYPE_CHECKING:`` (imports a type checker reads
    and the interpreter never runs)."""
    todo = [tree]
    while todo:
        node = todo.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child.test):
                todo += child.orelse
            else:
                todo.append(child)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imported_names(source: str, module: str, is_package: bool, submodules: frozenset[str] | set[str] = frozenset(),
                   type_checking: bool = False) -> set[str]:
    """Absolute dotted names ``source`` (the module ``module``) imports anywhere in the file,
    lazy imports inside functions included (``type_checking``: those under ``if TYPE_CHECKING:``
    too).  ``from m import n`` names ``m.n`` when that is one of ``submodules`` (importing the
    submodule, not the names of ``m``), else ``m`` and ``m.n`` (the layer checks read both)."""
    package = module if is_package else module.rpartition(".")[0]
    out = set()
    tree = ast.parse(source)
    for node in ast.walk(tree) if type_checking else _runtime_nodes(tree):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                mod = f"{base}.{node.module}" if node.module else base
            else:
                mod = node.module
            names = {f"{mod}.{a.name}" for a in node.names}
            out |= names
            if not names <= submodules:
                out.add(mod)
    return out


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    """File-level graph: each module of sim/ and analysis/ -> the modules of those trees it imports.
    ``import a.b.c`` names the file ``a.b.c`` (the packages above it run too, but a package's
    ``__init__`` that imports nothing back closes no circle through its children)."""
    files = source_files(root)
    graph = {}
    for name, path in files.items():
        found = imported_names(path.read_text(), name, path.name == "__init__.py", set(files))
        graph[name] = {m for m in found if m in files}
    return graph


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's components (iterative), each sorted; components listed in sorted order."""
    index, low, stack, on_stack, out = {}, {}, [], set(), []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    comp.append(top)
                    if top == node:
                        break
                out.append(sorted(comp))
    return sorted(out)


def circles(graph: dict[str, set[str]]) -> list[tuple[str, ...]]:
    """Every import circle: components of more than one module, and modules importing themselves."""
    return [tuple(c) for c in strongly_connected(graph) if len(c) > 1 or c[0] in graph[c[0]]]


def main() -> int:
    found = circles(import_graph())
    for c in found:
        print(" <-> ".join(c))
    print(f"{len(found)} import circle(s) in {', '.join(p + '/' for p in PACKAGES)}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
