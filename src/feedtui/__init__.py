"""feedtui: a fast, keyboard-driven terminal reader for research-paper feeds."""

__version__ = "0.1.0"
