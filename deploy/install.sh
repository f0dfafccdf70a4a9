#!/bin/sh
# Install Game Night into a new virtual environment, then check that the installed copy works.
#
#   deploy/install.sh VENV [SOURCE]
#
# VENV is where the virtual environment goes (for example /opt/gamenight; it must not exist yet).
# SOURCE is the project folder or a built wheel; default: the project this script belongs to.
# Only the bot's own dependencies are installed (no test tools), with the voice extra (PyNaCl and
# davey, for the calls spoken in voice channels). Voice also needs the system's libopus and
# espeak-ng (Debian: apt-get install libopus0 espeak-ng), which this script does not install: the
# last check says whether voice is on, and why not. Set PYTHON to choose the interpreter (default
# python3; Game Night needs 3.11 or newer).
#
# deploy/Containerfile builds its image with this script and .ci/run runs it in a fresh virtual
# environment, so the container's build steps are tested on every CI run.
set -eu

if [ "$#" -lt 1 ] || [ "$#" -gt 2 ]; then
    echo "usage: $0 VENV [SOURCE]" >&2
    exit 2
fi
venv=$1
source=${2:-$(cd "$(dirname "$0")/.." && pwd)}
python=${PYTHON:-python3}
if [ -e "$venv" ]; then
    echo "error: $venv already exists; give a new folder (or remove the old one first)" >&2
    exit 2
fi

"$python" -m venv "$venv"
"$venv/bin/pip" install --quiet --no-cache-dir --upgrade pip
"$venv/bin/pip" install --quiet --no-cache-dir "$source[voice]"

# The checks run in an empty folder with an empty environment, so that what runs is the installed
# copy (not the source folder) and no setting leaks in from outside.
check=$(mktemp -d)
trap 'rm -rf "$check"' EXIT
cd "$check"
run() {
    env -i PATH=/usr/bin:/bin HOME="$check" LC_ALL=C.UTF-8 "$@"
}
run "$venv/bin/gamenight" --version
run "$venv/bin/gamenight" --help >/dev/null
run "$venv/bin/gamenight" invite --client-id 1 >/dev/null 2>&1
# Dummy settings: a token-shaped string (the base64 of the id 1) and a throwaway signing key.
run DISCORD_TOKEN=MQ.dummy.not-a-real-token \
    GAMENIGHT_SIGNING_KEY=000102030405060708090a0b0c0d0e0f \
    GAMENIGHT_DATABASE="$check/gamenight.sqlite3" \
    "$venv/bin/gamenight" check-config >/dev/null
# Every game's cog loads, and every picture draws from the assets and fonts the package carries.
run "$venv/bin/python" -c 'import importlib, bot.app
for name in bot.app.EXTENSIONS: importlib.import_module(name)'
run "$venv/bin/python" -m bot.render --sample "$check/pictures" >/dev/null
test -s "$check/pictures/loteria-tabla.png"
# A whole Lotería game, offline: the installed bot against the emulator it ships with.
run "$venv/bin/gamenight" sandbox --players 2 --speed 100 --images "$check/sandbox" >/dev/null
# Voice: the extra's modules are installed (an error otherwise); libopus and espeak-ng are the
# system's, so without them voice is off (the bot runs without it) and this says why.
run "$venv/bin/python" -c 'import nacl.secret, davey'
run "$venv/bin/python" -c 'from bot.voice.machinery import missing_voice_parts
off = missing_voice_parts("espeak-ng")
print("voice: on" if off is None else f"voice is off: {off}")'
echo "Game Night installed in $venv and checked."
