"""A CS3243 AB.py that is Duel's engine: the whole of a drop-in AB.py (with
build/python on PYTHONPATH). Used by tests/python/test_cs3243.py: it must get
10/10 marks."""

from duel.cs3243 import studentAgent

__all__ = ["studentAgent"]
