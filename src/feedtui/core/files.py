"""What front ends share with the store about files: its errors, and how a
file is written whole or not at all. Re-exported here so that front ends
need not import the store (the core's API is closed)."""

from __future__ import annotations

from feedtui.store.files import DamagedFileError, StoreError, atomic_write, describe_os_error

__all__ = ["DamagedFileError", "StoreError", "atomic_write", "describe_os_error"]
