"""bench_import --alternate's windows (bench/import_windows.py), on times alone."""

from bench.import_windows import StepsInWindows, importing


def test_windows_start_quiet_and_take_turns():
    began = 100.0
    at = [100.0, 129.9, 130.0, 159.9, 160.0, 190.0]
    assert [importing(30.0, began, t) for t in at] == [False, False, True, True, False, True]


def test_a_recall_started_while_the_import_drained_counts_on_neither_side():
    steps = StepsInWindows(batch_pk=1, window_seconds=30.0, began=0.0)
    steps.draining = [(60.0, 64.5)]
    assert [steps.is_draining(t) for t in (59.9, 60.0, 64.4, 64.5)] == [False, True, True, False]
