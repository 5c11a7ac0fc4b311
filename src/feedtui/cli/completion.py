"""`feedtui completion bash|zsh|fish`: the shell's completion script.

shtab writes the script from the argparse parser itself, so every command,
option and choice is completed as the parser has it, with no hand-kept list
to fall behind. Topic names are the user's own, so the script asks for them
when Tab is pressed: `feedtui topics --names`, one a line, which reads the
config and state only, never the papers. `--demo`, `--data-dir` and
`--config` given earlier on the line are passed on, so the names are those
of the data the command will run on.

Topic names have spaces ("Edge Inference"): each shell gets them one a line
and quotes what it inserts itself (bash through readline's file-name
quoting, zsh's compadd, fish's own).
"""

from __future__ import annotations

import argparse

SHELLS = ("bash", "zsh", "fish")

# The names, one a line, for the options given so far (`$@`, already unquoted).
_BASH = r"""
# The word being completed, without its quotes and backslashes.
_feedtui_dequote() {
  local w=$1 out= i c
  case $w in
    \'*) w=${w:1}; printf '%s' "${w%\'}"; return ;;
    \"*) w=${w:1}; w=${w%\"} ;;
  esac
  for ((i = 0; i < ${#w}; i++)); do
    c=${w:i:1}
    if [[ $c == \\ ]]; then ((i++)); c=${w:i:1}; fi
    out+=$c
  done
  printf '%s' "$out"
}

# feedtui's topic names, for the --demo, --data-dir and --config on the line.
_feedtui_topic_names() {
  local -a opts=()
  local i w value
  for ((i = 1; i < COMP_CWORD; i++)); do
    w=${COMP_WORDS[i]}
    case $w in
      --demo) opts+=(--demo) ;;
      --data-dir|--config)
        ((i++))
        [[ ${COMP_WORDS[i]} == = ]] && ((i++))
        value=$(_feedtui_dequote "${COMP_WORDS[i]}")
        opts+=("$w" "${value/#\~/$HOME}") ;;
    esac
  done
  command feedtui "${opts[@]}" topics --names 2>/dev/null
}

# The topics whose names start with the word (case aside). "file" is in this
# function's name so that shtab's script turns on readline's file-name
# quoting for it: a name with spaces is inserted escaped, or inside the quote
# the word opened.
_feedtui_topics_as_file_names() {
  local word name
  word=$(_feedtui_dequote "$1")
  while IFS= read -r name; do
    [[ ${name,,} == "${word,,}"* ]] && printf '%s\n' "$name"
  done < <(_feedtui_topic_names)
}
"""

_ZSH = r"""
# feedtui's topic names, for the --demo, --data-dir and --config on the line.
_feedtui_topics() {
  local -a line_words opts names
  local i w
  line_words=(${(z)LBUFFER})
  for (( i = 2; i < ${#line_words}; i++ )); do
    w=${line_words[i]}
    case $w in
      --demo) opts+=(--demo) ;;
      --data-dir|--config) (( i++ )); opts+=($w ${${(Q)line_words[i]}/#\~/$HOME}) ;;
      --data-dir=*|--config=*) opts+=(${(Q)w}) ;;
    esac
  done
  names=(${(f)"$(command feedtui $opts topics --names 2>/dev/null)"})
  compadd -M 'm:{a-zA-Z}={A-Za-z}' -a names
}
"""

_FISH = r"""
# feedtui's topic names, for the --demo, --data-dir and --config on the line.
function __feedtui_topics
    set -l words (commandline -opc)
    set -l opts
    set -l i 2
    while test $i -le (count $words)
        switch $words[$i]
            case --demo
                set -a opts --demo
            case --data-dir --config
                set -l option $words[$i]
                set i (math $i + 1)
                if test $i -le (count $words)
                    set -a opts $option $words[$i]
                end
            case '--data-dir=*' '--config=*'
                set -a opts $words[$i]
        end
        set i (math $i + 1)
    end
    command feedtui $opts topics --names 2>/dev/null
end
"""

# shtab's `complete` for an argument that takes a topic name.
TOPIC_NAMES = {
    "bash": "_feedtui_topics_as_file_names",
    "zsh": "_feedtui_topics",
    "fish": "(__feedtui_topics)",
    "preamble": {"bash": _BASH, "zsh": _ZSH, "fish": _FISH},
}


def completes_topics(action: argparse.Action) -> argparse.Action:
    """Mark an argument of the parser as one that takes a topic name."""
    action.complete = TOPIC_NAMES  # type: ignore[attr-defined]
    return action


def completion_script(parser: argparse.ArgumentParser, shell: str) -> str:
    import shtab

    return shtab.complete(parser, shell=shell)
