"""Kroon's Hub engine (the program named by the first argument) behind a pipe
that holds every answer to a search back by the seconds of the second argument:
an engine that plays legal moves but always takes longer than it says, so that
once its clock is empty every move overruns it by a little."""
import subprocess
import sys
import threading
import time

engine = subprocess.Popen(
    [sys.argv[1], "hub"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
)
delay = float(sys.argv[2])


def relay_answers():
    for line in engine.stdout:
        if line.startswith("done"):
            time.sleep(delay)
        sys.stdout.write(line)
        sys.stdout.flush()


threading.Thread(target=relay_answers, daemon=True).start()
for line in sys.stdin:
    engine.stdin.write(line)
    engine.stdin.flush()
    if line.split()[:1] == ["quit"]:
        break
engine.wait()
