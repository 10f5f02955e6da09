"""The frontend's modules import one another without a cycle (issue 23): the node
importers take the SDFG importer through `node_import.NodeImporting`, never by importing
the module that calls them."""

import ast
from pathlib import Path

import networkx as nx

FRONTEND = Path(__file__).resolve().parents[1] / "ipu_lower" / "frontend"


def _imports(path: Path) -> set[str]:
    """The frontend modules `path` imports, at any level (TYPE_CHECKING blocks included)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module == "ipu_lower.frontend":
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("ipu_lower.frontend."):
            found.add(node.module.split(".")[2])
    return found


def test_frontend_modules_import_no_cycle():
    graph = nx.DiGraph()
    for path in FRONTEND.glob("*.py"):
        graph.add_node(path.stem)
        graph.add_edges_from((path.stem, target) for target in _imports(path))
    assert list(nx.simple_cycles(graph)) == []
    assert ("matmul", "importer") not in graph.edges  # the edge this test was written for
