#!/bin/bash
# Leaves the workspace full of ways out, for whatever reads it back on the host: a link to
# the host's root, a link up out of the workspace's own file system (into the folder of its
# disk quota, beside the quota's disk image), a fifo that blocks whoever opens it, a socket,
# and a hard link. A reader that followed a link or opened the fifo would walk the host,
# read the disk image or hang; the check must fail on the wrong answer alone.
cd /workspace && echo 41 > answer
ln -s / host-root
ln -s .. up
ln -s ../disk.img disk.img
mkfifo pipe
ln answer answer-again
python3 -c 'import socket; socket.socket(socket.AF_UNIX).bind("/workspace/sock")'
exit 0
