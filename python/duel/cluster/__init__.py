"""Duel's tasks on a Dask cluster (docs/cluster.md).

``duel tournament ... --scheduler tcp://HOST:PORT`` starts this package's
bridge (``python3 -m duel.cluster tasks``) and hands it the tournament's
task documents (src/duel/tournament/tasks.hpp) one JSON line at a time; the
bridge runs each as a Dask task on the cluster's workers, where it is one
``duel task`` run, and hands back each journal entry as it ends. The C++
binary stays the authority on games: the bridge only moves documents and
files.
"""
