#!/usr/bin/env bash
# Drive the drumhead REPL in a detached tmux session, as a person would:
# tab completion, a coloured outcome, Ctrl-D to leave.
#   tests/repl_tmux.sh PATH/TO/drumhead
# Exits 0 when every check passes, 1 with the screen when one fails,
# 77 when tmux is missing.
set -u

bin=${1:?usage: repl_tmux.sh PATH/TO/drumhead}
command -v tmux >/dev/null 2>&1 || { echo "tmux not found: skipped"; exit 77; }

session="drumhead-repl-$$-$RANDOM"
home=$(mktemp -d)
socket="$home/tmux.sock"
tm() { tmux -S "$socket" "$@"; }
cleanup() {
    tm kill-session -t "$session" >/dev/null 2>&1
    tm kill-server >/dev/null 2>&1
    rm -rf "$home"
}
trap cleanup EXIT

fail() {
    echo "FAIL: $1"
    echo "--- screen ---"
    tm capture-pane -p -t "$session" 2>/dev/null
    exit 1
}

# Poll the screen (with escapes when $2 is -e) until it matches the regex $1
# (grep -E), for up to 10 seconds.
wait_for() {
    local pattern=$1 flags=${2:-}
    local i
    for i in $(seq 1 100); do
        if tm capture-pane -p $flags -t "$session" 2>/dev/null | grep -Eq -- "$pattern"; then
            return 0
        fi
        sleep 0.1
    done
    return 1
}

# History and any data go to the temporary home, never the real one.
tm new-session -d -s "$session" -x 160 -y 50 \
    "env HOME='$home' XDG_DATA_HOME='$home/data' TERM=xterm-256color '$bin' --color always; echo \"drumhead exited \$?\"; sleep 30" \
    || fail "tmux could not start"

wait_for '^drums>' || fail "no prompt"

tm send-keys -t "$session" 'resi' Tab
wait_for 'drums> resilience' || fail "tab did not complete resi to resilience"

# Clear the line (Ctrl-U), then a full command.
tm send-keys -t "$session" C-u
tm send-keys -t "$session" -l 'resilience +determined rolled 4 3'
tm send-keys -t "$session" Enter
wait_for '⇒ carry on' || fail "no outcome"
# The outcome is coloured: an escape sequence right before the arrow.
wait_for $'\x1b\\[[0-9;]*m⇒ carry on' -e || fail "the outcome is not coloured"

# Issue 23: "Refuse, saying how many dice are needed and for what; at the
# REPL, ask for the missing dice." One die of resilience's 2D6 entered: the
# REPL asks for the other, and 1 + 1 is a forced retire.
tm send-keys -t "$session" -l 'resilience rolled 1'
tm send-keys -t "$session" Enter
wait_for '1 more die after the entered ones for `2D6 #2`; the missing dice' \
    || fail "the REPL did not ask for the missing die"
tm send-keys -t "$session" -l '1'
tm send-keys -t "$session" Enter
wait_for '⇒ forced retire, take 1 hit' || fail "the die given at the question was not used"

tm send-keys -t "$session" C-d
wait_for '^drumhead exited 0' || fail "Ctrl-D did not leave with status 0"
[ -s "$home/data/drumhead/history" ] || fail "no history written in the temporary home"
grep -q 'resilience +determined rolled 4 3' "$home/data/drumhead/history" \
    || fail "history does not hold the command"
echo "ok: completion, coloured outcome, asking for missing dice, Ctrl-D, history in a temporary home"
