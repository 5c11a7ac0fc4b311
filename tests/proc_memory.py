"""What of a mapped file this test process holds in memory, from /proc/self/smaps."""

from __future__ import annotations

from pathlib import Path


def resident_kb(path: Path | str) -> int | None:
    """kB of this process's memory holding pages mapped from `path` (None
    where /proc/self/smaps is not there to say)."""
    try:
        lines = open("/proc/self/smaps").read().splitlines()
    except OSError:
        return None
    total, inside = 0, False
    for line in lines:
        head = line.split()
        if head and "-" in head[0] and len(head) >= 5 and not head[0].endswith(":"):
            inside = line.endswith(str(path))
        elif inside and head[:1] == ["Rss:"]:
            total += int(head[1])
    return total
