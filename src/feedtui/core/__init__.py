"""The core: the engine and the jobs it is made of (see core/engine.py).

Front ends import from here, never from the store."""
