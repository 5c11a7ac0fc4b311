"""feedtui's benchmark suite: feed generator, loopback server, timers, runner.

Run the suite with `python bench/run.py`; each module also runs on its own
(`python bench/feeds.py --help`, `python bench/server.py --help`, ...).
"""
