"""The reader's parts: each owns one job of the main screen, which composes them."""
