"""The CLI's commands, grouped by job; each handler takes (engine, args) and returns an exit status."""
