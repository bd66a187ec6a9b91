#!/bin/sh
# A stdio bot that tells on stderr who runs it, where, and the environment it was started
# with, then answers every line as a bot named "who" (its Hello; nothing else is asked).
echo "uid=$(id -u)" >&2
echo "cwd=$(pwd)" >&2
tr '\0' '\n' < /proc/$$/environ >&2
while read -r line; do echo '{"name": "who"}'; done
