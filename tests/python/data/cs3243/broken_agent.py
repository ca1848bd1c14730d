"""A CS3243 AB.py that never gives a move: it raises on odd calls and returns
garbage on even ones. Used by tests/python/test_cs3243.py: it must lose every
game, the reason shown."""

calls = 0


def studentAgent(gameboard):
    global calls
    calls += 1
    print("this output must not reach the grader's table")
    if calls % 2 == 1:
        raise RuntimeError("my alpha-beta is broken")
    return "e2e3"
