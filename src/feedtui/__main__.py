from feedtui.cli import main

raise SystemExit(main())
