"""No import cycle anywhere in pylib/: every import, also one inside a function, is an edge.

A lazy import back up the call chain still ties two modules into one unit that can only be read,
tested and moved together, so it counts (docs/internals.md, "Rooms of the decision history")."""
import ast
import pathlib

PYLIB = pathlib.Path(__file__).resolve().parents[3] / "pylib"


def modules() -> dict:
    found = {}
    for path in PYLIB.rglob("*.py"):
        parts = list(path.relative_to(PYLIB).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def edges(name: str, path: pathlib.Path, known: dict) -> set:
    is_pkg = path.name == "__init__.py"
    package = name if is_pkg else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
        else:
            continue
        out.update(t for t in targets if t in known and t != name)
    return out


def cycles(graph: dict) -> list:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index, low, stack, on, found, counter = {}, {}, [], set(), [], [0]
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter[0]; counter[0] += 1; stack.append(root); on.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    comp = []
                    while True:
                        top = stack.pop(); on.discard(top); comp.append(top)
                        if top == node:
                            break
                    if len(comp) > 1:
                        found.append(sorted(comp))
            elif child not in index:
                index[child] = low[child] = counter[0]; counter[0] += 1; stack.append(child); on.add(child)
                work.append((child, iter(sorted(graph[child]))))
            elif child in on:
                low[node] = min(low[node], index[child])
    return found


def graph_of_pylib() -> dict:
    known = modules()
    return {name: edges(name, path, known) for name, path in known.items()}


def test_the_checker_sees_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_graph_holds_lazy_imports():
    graph = graph_of_pylib()
    # cli.py imports addcli only inside main(): that edge must be seen
    assert "judgment_toolkit.ha.history.register.addcli" in graph["judgment_toolkit.ha.history.cli"]


def test_no_import_cycle_in_pylib():
    assert cycles(graph_of_pylib()) == []
