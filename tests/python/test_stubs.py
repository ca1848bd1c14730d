"""The type stubs name exactly what the module has, and everything public
has a docstring."""

import ast
import inspect
import pathlib

import duel

SOURCE_STUB = pathlib.Path(__file__).resolve().parents[2] / "python" / "duel" / "__init__.pyi"
BUILT_STUB = pathlib.Path(duel.__file__).with_name("__init__.pyi")


def stub_names():
    """The stub's top-level names and its classes' members. A pure-Python part
    is re-exported as `from .board import Board as Board` (its own source is
    typed): its name counts, its members are its source's."""
    tree = ast.parse(BUILT_STUB.read_text())
    top, members = set(), {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            for alias in node.names:
                if alias.asname == alias.name:
                    top.add(alias.name)
                    members[alias.name] = None
        elif isinstance(node, ast.FunctionDef):
            top.add(node.name)
        elif isinstance(node, ast.ClassDef):
            top.add(node.name)
            members[node.name] = {
                n.name for n in node.body if isinstance(n, ast.FunctionDef)
            }
        elif isinstance(node, ast.AnnAssign):
            top.add(node.target.id)
    return top, members


def public(cls):
    return {n for n in vars(cls) if not n.startswith("_")}


def test_built_stub_is_the_source_stub():
    assert BUILT_STUB.read_text() == SOURCE_STUB.read_text()
    assert BUILT_STUB.with_name("py.typed").exists()


def test_stub_names_what_the_module_has():
    top, members = stub_names()
    assert top == set(duel.__all__)
    for name in duel.__all__:
        obj = getattr(duel, name)
        if inspect.isclass(obj) and members[name] is not None:
            assert public(obj) == {m for m in members[name] if not m.startswith("_")}, name


def test_everything_public_has_a_docstring():
    assert duel.__doc__ and duel._duel.__doc__
    for name in duel.__all__:
        obj = getattr(duel, name)
        if name == "__version__":
            continue
        assert obj.__doc__ and obj.__doc__.strip(), name
        if inspect.isclass(obj):
            for member in public(obj):
                doc = vars(obj)[member].__doc__
                assert doc and doc.strip(), f"{name}.{member}"
