from feedtui.launch import run

raise SystemExit(run())
