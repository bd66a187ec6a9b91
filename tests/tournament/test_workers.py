"""Referee workers outside Linux: a thread stops the worker once its parent is gone."""

from admiralty.tournament.workers import watch_parent


def test_the_watcher_stops_the_worker_once_it_is_no_longer_the_parents_child():
    parents = iter([41, 41, 1])  # adopted by init after the second look
    naps: list[float] = []
    stops: list[int] = []
    watch_parent(41, getppid=lambda: next(parents), sleep=naps.append, stop=stops.append)
    assert naps == [1.0, 1.0]
    assert stops == [1]
