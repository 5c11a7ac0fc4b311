"""Turning untrusted feed text into safe, readable text."""
